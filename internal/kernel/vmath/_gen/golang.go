package main

import (
	"bytes"
	"fmt"
	"log"
	"math"
	"strconv"
)

// goGen emits a program as a scalar Go function.
type goGen struct {
	p *prog
	b *bytes.Buffer
}

func (g *goGen) ft() string { return map[int]string{4: "float32", 8: "float64"}[g.p.elem] }
func (g *goGen) it() string { return map[int]string{4: "uint32", 8: "uint64"}[g.p.elem] }

// lit returns a constant as a Go expression of the element type.
func (g *goGen) lit(v *value) string {
	if v.k == kInt {
		return fmt.Sprintf("0x%x", v.bits)
	}
	var f float64
	if g.p.elem == 4 {
		f = float64(math.Float32frombits(uint32(v.bits)))
	} else {
		f = math.Float64frombits(v.bits)
	}
	var e string
	switch {
	case math.IsNaN(f):
		e = "math.NaN()"
	case math.IsInf(f, 0):
		e = fmt.Sprintf("math.Inf(%d)", int(math.Copysign(1, f)))
	case f == 0 && math.Signbit(f):
		e = "math.Copysign(0, -1)"
	case f == 0:
		return "0"
	default:
		return strconv.FormatFloat(f, 'x', -1, 8*g.p.elem)
	}
	if g.p.elem == 4 {
		return "float32(" + e + ")"
	}
	return e
}

// typed returns e(v) converted to v's Go type, for declarations.
func (g *goGen) typed(v *value) string {
	if !v.isCst {
		return v.name
	}
	if v.k == kInt {
		return g.it() + "(" + g.lit(v) + ")"
	}
	return g.ft() + "(" + g.lit(v) + ")"
}

func (g *goGen) e(v *value) string {
	if v.isCst {
		return g.lit(v)
	}
	return v.name
}

func (g *goGen) line(format string, args ...any) { fmt.Fprintf(g.b, "\t"+format+"\n", args...) }

func (g *goGen) fn(fallback, name string) {
	p := g.p
	if p.y != nil {
		fmt.Fprintf(g.b, "func %s(x, y %s) %s {\n", name, g.ft(), g.ft())
	} else {
		fmt.Fprintf(g.b, "func %s(x %s) %s {\n", name, g.ft(), g.ft())
	}
	fma := "math.FMA"
	if p.elem == 4 {
		fma = "fma32"
	}
	for _, in := range p.insts {
		a := in.args
		var r string
		if in.res != nil {
			r = in.res.name
		}
		switch in.op {
		case "add", "sub", "div", "and", "or", "xor", "iadd", "isub":
			op := map[string]string{"add": "+", "sub": "-", "div": "/", "and": "&", "or": "|", "xor": "^", "iadd": "+", "isub": "-"}[in.op]
			g.line("%s := %s %s %s", r, g.e(a[0]), op, g.e(a[1]))
		case "mul": // the conversion forbids fusing the product into a later sum
			g.line("%s := %s(%s * %s)", r, g.ft(), g.e(a[0]), g.e(a[1]))
		case "min":
			g.line("%s := %s", r, g.typed(a[1]))
			g.line("if %s < %s {", g.e(a[0]), g.e(a[1]))
			g.line("\t%s = %s", r, g.e(a[0]))
			g.line("}")
		case "sqrt":
			if p.elem == 4 {
				g.line("%s := float32(math.Sqrt(float64(%s)))", r, g.e(a[0]))
			} else {
				g.line("%s := math.Sqrt(%s)", r, g.e(a[0]))
			}
		case "shl":
			g.line("%s := %s << %d", r, g.e(a[0]), in.imm)
		case "shr":
			g.line("%s := %s >> %d", r, g.e(a[0]), in.imm)
		case "fma":
			g.line("%s := %s(%s, %s, %s)", r, fma, g.e(a[0]), g.e(a[1]), g.e(a[2]))
		case "fnma":
			g.line("%s := %s(-(%s), %s, %s)", r, fma, g.e(a[0]), g.e(a[1]), g.e(a[2]))
		case "fms":
			g.line("%s := %s(%s, %s, -(%s))", r, fma, g.e(a[0]), g.e(a[1]), g.e(a[2]))
		case "asint":
			g.line("%s := math.Float%dbits(%s)", r, 8*p.elem, g.e(a[0]))
		case "asfloat":
			g.line("%s := math.Float%dfrombits(%s)", r, 8*p.elem, g.e(a[0]))
		case "cmp":
			g.line("%s := %s", r, fmt.Sprintf(preds[in.imm].goF, g.e(a[0]), g.e(a[1])))
		case "ieq":
			g.line("%s := %s == %s", r, g.e(a[0]), g.e(a[1]))
		case "sel":
			g.line("%s := %s", r, g.typed(a[2]))
			g.line("if %s {", g.e(a[0]))
			g.line("\t%s = %s", r, g.e(a[1]))
			g.line("}")
		case "bail":
			g.line("if %s {", g.e(a[0]))
			g.line("\treturn %s", fallback)
			g.line("}")
		default:
			log.Fatalf("go: unknown op %q", in.op)
		}
	}
	g.line("return %s", p.out.name)
	fmt.Fprintf(g.b, "}\n\n")
}
