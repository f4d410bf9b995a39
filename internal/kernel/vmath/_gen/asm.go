package main

import (
	"bytes"
	"fmt"
	"log"
	"sort"
)

// isa describes one vector extension.
type isa struct {
	name  string // suffix of the kernel names
	vr    string // vector register prefix
	nvec  int    // vector registers
	width int    // vector bytes
	kmask bool   // masks live in K registers (else in vector registers)
}

var (
	avx512 = &isa{name: "AVX512", vr: "Z", nvec: 32, width: 64, kmask: true}
	avx2   = &isa{name: "AVX2", vr: "Y", nvec: 16, width: 32}
)

// pool collects the constants of a file: each is one 64-byte vector of a
// repeated element.
type pool struct{ syms map[string]uint64 }

func (pl *pool) sym(elem int, bits uint64) string {
	s := fmt.Sprintf("vmc%d_%0*x<>", elem, 2*elem, bits)
	if pl.syms == nil {
		pl.syms = map[string]uint64{}
	}
	q := bits
	if elem == 4 {
		q = bits | bits<<32
	}
	pl.syms[s] = q
	return s + "(SB)"
}

func (pl *pool) write(b *bytes.Buffer) {
	names := make([]string, 0, len(pl.syms))
	for n := range pl.syms {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for off := 0; off < 64; off += 8 {
			fmt.Fprintf(b, "DATA %s+%d(SB)/8, $0x%016x\n", n, off, pl.syms[n])
		}
		fmt.Fprintf(b, "GLOBL %s(SB), RODATA|NOPTR, $64\n\n", n)
	}
}

// asmGen emits one program as a loop over whole vectors.
type asmGen struct {
	is    *isa
	p     *prog
	pl    *pool
	b     *bytes.Buffer
	reg   map[*node]int
	vfree []bool
	kfree []bool
	idx   int // current instruction
	label string
}

func (g *asmGen) line(format string, args ...any) { fmt.Fprintf(g.b, "\t"+format+"\n", args...) }

func (g *asmGen) sfx() string {
	if g.p.elem == 8 {
		return "PD"
	}
	return "PS"
}

func (g *asmGen) isz() string { // integer lane suffix
	if g.p.elem == 8 {
		return "Q"
	}
	return "D"
}

func (g *asmGen) allocVec() int {
	for r, f := range g.vfree {
		if f {
			g.vfree[r] = false
			return r
		}
	}
	panic(outOfRegs(fmt.Sprintf("%s %s: out of vector registers", g.p.name, g.is.name)))
}

func (g *asmGen) alloc(n *node) int {
	var r int
	if n.mask && g.is.kmask {
		r = -1
		for k := 1; k < len(g.kfree); k++ {
			if g.kfree[k] {
				g.kfree[k] = false
				r = k
				break
			}
		}
		if r < 0 {
			panic(outOfRegs(fmt.Sprintf("%s %s: out of mask registers", g.p.name, g.is.name)))
		}
	} else {
		r = g.allocVec()
	}
	g.reg[n] = r
	return r
}

func (g *asmGen) release(n *node) {
	r, ok := g.reg[n]
	if !ok {
		return
	}
	delete(g.reg, n)
	if n.mask && g.is.kmask {
		g.kfree[r] = true
	} else {
		g.vfree[r] = true
	}
}

func (g *asmGen) name(n *node) string {
	r, ok := g.reg[n]
	if !ok {
		log.Fatalf("%s %s: node %d has no register", g.p.name, g.is.name, n.id)
	}
	if n.mask && g.is.kmask {
		return fmt.Sprintf("K%d", r)
	}
	return fmt.Sprintf("%s%d", g.is.vr, r)
}

// opnd returns v as a memory or register operand.
func (g *asmGen) opnd(v *value) string {
	if v.isCst {
		return g.pl.sym(g.p.elem, v.bits)
	}
	return g.name(v.n)
}

// dies reports whether v's register is free after the current instruction.
func (g *asmGen) dies(v *value) bool { return !v.isCst && v.n.last <= g.idx }

// materialize loads a constant into a fresh register and returns a value
// for it that dies at the current instruction.
func (g *asmGen) materialize(v *value) *value {
	n := &node{id: -1, last: g.idx}
	g.alloc(n)
	g.line("VMOVUP%s %s, %s", g.sfx()[1:], g.pl.sym(g.p.elem, v.bits), g.name(n))
	return &value{k: v.k, n: n}
}

// dst frees dying operands and allocates the result.
func (g *asmGen) dst(in inst, tmps ...*value) string {
	for _, a := range append(in.args, tmps...) {
		if !a.isCst && g.dies(a) {
			g.release(a.n)
		}
	}
	g.alloc(in.res.n)
	return g.name(in.res.n)
}

func (g *asmGen) inst(in inst) {
	s := g.sfx()
	a := in.args
	switch in.op {
	case "asint", "asfloat":
		// Same register; nothing to emit.
	case "add", "sub", "mul", "div", "min", "and", "or", "xor", "iadd", "isub":
		x, y := a[0], a[1]
		comm := map[string]bool{"add": true, "mul": true, "and": true, "or": true, "xor": true, "iadd": true}[in.op]
		if x.isCst && comm {
			x, y = y, x
		}
		var tmps []*value
		if x.isCst {
			x = g.materialize(x)
			tmps = append(tmps, x)
		}
		var mn string
		switch in.op {
		case "add", "sub", "mul", "div", "min":
			mn = "V" + map[string]string{"add": "ADD", "sub": "SUB", "mul": "MUL", "div": "DIV", "min": "MIN"}[in.op] + s
		case "and", "or", "xor":
			mn = "VP" + map[string]string{"and": "AND", "or": "OR", "xor": "XOR"}[in.op]
			if g.is.kmask {
				mn += "Q"
			}
		case "iadd":
			mn = "VPADD" + g.isz()
		case "isub":
			mn = "VPSUB" + g.isz()
		}
		xs, ys := g.opnd(x), g.opnd(y)
		d := g.dst(in, tmps...)
		g.line("%s %s, %s, %s", mn, ys, xs, d)
	case "sqrt":
		xs := g.opnd(a[0])
		d := g.dst(in)
		g.line("VSQRT%s %s, %s", s, xs, d)
	case "shl", "shr":
		mn := map[string]string{"shl": "VPSLL", "shr": "VPSRL"}[in.op] + g.isz()
		xs := g.opnd(a[0])
		d := g.dst(in)
		g.line("%s $%d, %s, %s", mn, in.imm, xs, d)
	case "fma", "fnma", "fms":
		g.fma(in)
	case "cmp":
		xs, ys := g.opnd(a[0]), g.opnd(a[1])
		d := g.dst(in)
		g.line("VCMP%s $0x%02x, %s, %s, %s", s, in.imm, ys, xs, d)
	case "ieq":
		xs, ys := g.opnd(a[0]), g.opnd(a[1])
		d := g.dst(in)
		g.line("VPCMPEQ%s %s, %s, %s", g.isz(), ys, xs, d)
	case "sel":
		m, x, y := a[0], a[1], a[2]
		var tmps []*value
		if y.isCst {
			y = g.materialize(y)
			tmps = append(tmps, y)
		}
		ms, xs, ys := g.opnd(m), g.opnd(x), g.opnd(y)
		d := g.dst(in, tmps...)
		if g.is.kmask {
			g.line("VBLENDM%s %s, %s, %s, %s", s, xs, ys, ms, d)
		} else {
			g.line("VBLENDV%s %s, %s, %s, %s", s, ms, xs, ys, d)
		}
	case "bail":
		ms := g.opnd(a[0])
		if g.is.kmask {
			g.line("KORTESTW %s, %s", ms, ms)
		} else {
			g.line("VPTEST %s, %s", ms, ms)
		}
		g.line("JNE %s_done", g.label)
		g.dst0(in)
	default:
		log.Fatalf("asm: unknown op %q", in.op)
	}
}

// dst0 frees the dying operands of an instruction without a result.
func (g *asmGen) dst0(in inst) {
	for _, a := range in.args {
		if !a.isCst && g.dies(a) {
			g.release(a.n)
		}
	}
}

// fma emits a·b+c (fma), -(a·b)+c (fnma) or a·b-c (fms) with one of the
// 132/213/231 forms, overwriting a dying operand where possible.
func (g *asmGen) fma(in inst) {
	mn := map[string]string{"fma": "VFMADD", "fnma": "VFNMADD", "fms": "VFMSUB"}[in.op]
	s := g.sfx()
	a, b, c := in.args[0], in.args[1], in.args[2]
	var tmps []*value
	if a.isCst && !b.isCst {
		a, b = b, a
	}
	if a.isCst { // both factors constant
		a = g.materialize(a)
		tmps = append(tmps, a)
	}
	if c.isCst && b.isCst {
		b = g.materialize(b)
		tmps = append(tmps, b)
	}
	// Now a is a register; at most one of b, c is constant.
	var form string
	var x1, x2, x3 *value
	switch {
	case c.isCst: // x1 = x2·x1 + x3
		form, x3 = "213", c
		switch {
		case g.dies(a):
			x1, x2 = a, b
		case g.dies(b):
			x1, x2 = b, a
		default:
			x1, x2 = g.copyOf(a), b
			tmps = append(tmps, x1)
		}
	case b.isCst:
		switch {
		case g.dies(c): // x1 = x2·x3 + x1
			form, x1, x2, x3 = "231", c, a, b
		case g.dies(a): // x1 = x1·x3 + x2
			form, x1, x2, x3 = "132", a, c, b
		default:
			x1 = g.copyOf(c)
			tmps = append(tmps, x1)
			form, x2, x3 = "231", a, b
		}
	default:
		switch {
		case g.dies(c):
			form, x1, x2, x3 = "231", c, a, b
		case g.dies(a):
			form, x1, x2, x3 = "213", a, b, c
		case g.dies(b):
			form, x1, x2, x3 = "213", b, a, c
		default:
			x1 = g.copyOf(c)
			tmps = append(tmps, x1)
			form, x2, x3 = "231", a, b
		}
	}
	g.line("%s%s%s %s, %s, %s", mn, form, s, g.opnd(x3), g.opnd(x2), g.opnd(x1))
	// The result takes over x1's register.
	r := g.reg[x1.n]
	delete(g.reg, x1.n)
	for _, v := range append(in.args, tmps...) {
		if !v.isCst && v.n != x1.n && g.dies(v) {
			g.release(v.n)
		}
	}
	g.reg[in.res.n] = r
}

// copyOf copies v into a fresh register that dies here.
func (g *asmGen) copyOf(v *value) *value {
	n := &node{id: -1, last: g.idx}
	g.alloc(n)
	g.line("VMOVAP%s %s, %s", g.sfx()[1:], g.name(v.n), g.name(n))
	return &value{k: v.k, n: n}
}

// kernel writes the TEXT block of p for is: a loop over pairs of vectors
// (the program interleaved with a copy of itself, see pair) where the
// registers allow, then over single vectors.
func (g *asmGen) kernel() {
	p, is := g.p, g.is
	lanes := is.width / p.elem
	name := fmt.Sprintf("%sF%d%s", p.name, 8*p.io, is.name)
	g.label = name
	ctype := map[int]string{4: "float32", 8: "float64"}[p.io]
	nOff := 16
	if p.y != nil {
		fmt.Fprintf(g.b, "// func %s(dst, x, y *%s, n int) int\n", name, ctype)
		fmt.Fprintf(g.b, "TEXT ·%s(SB), NOSPLIT, $0-40\n", name)
		g.line("MOVQ dst+0(FP), DI")
		g.line("MOVQ x+8(FP), SI")
		g.line("MOVQ y+16(FP), BX")
		nOff = 24
	} else {
		fmt.Fprintf(g.b, "// func %s(dst, src *%s, n int) int\n", name, ctype)
		fmt.Fprintf(g.b, "TEXT ·%s(SB), NOSPLIT, $0-32\n", name)
		g.line("MOVQ dst+0(FP), DI")
		g.line("MOVQ src+8(FP), SI")
	}
	g.line("MOVQ n+%d(FP), CX", nOff)
	g.line("XORQ AX, AX")
	g.line("SUBQ $%d, CX", lanes)
	g.line("JLT %s_done", name)
	if body, ok := g.pairLoop(lanes); ok {
		g.line("MOVQ CX, DX")
		g.line("SUBQ $%d, DX", lanes)
		g.line("JLT %s_single", name)
		fmt.Fprintf(g.b, "%s_pair:\n", name)
		g.b.Write(body)
		g.line("ADDQ $%d, AX", 2*lanes)
		g.line("CMPQ AX, DX")
		g.line("JLE %s_pair", name)
		fmt.Fprintf(g.b, "%s_single:\n", name)
		g.line("CMPQ AX, CX")
		g.line("JG %s_done", name)
	}
	fmt.Fprintf(g.b, "%s_loop:\n", name)
	var ys []*value
	if p.y != nil {
		ys = []*value{p.y}
	}
	g.body(p, []*value{p.x}, ys, []*value{p.out})
	g.line("ADDQ $%d, AX", lanes)
	g.line("CMPQ AX, CX")
	g.line("JLE %s_loop", name)
	fmt.Fprintf(g.b, "%s_done:\n", name)
	g.line("MOVQ AX, ret+%d(FP)", nOff+8)
	g.line("VZEROUPPER")
	g.line("RET")
	fmt.Fprintln(g.b)
}

// outOfRegs is the panic of a register allocation that fails.
type outOfRegs string

// pairLoop returns the body of the loop over pairs of vectors, or false
// when the interleaved program needs more registers than is has.
func (g *asmGen) pairLoop(lanes int) (body []byte, ok bool) {
	p, b := g.p, g.b
	var buf bytes.Buffer
	g.b = &buf
	defer func() {
		g.b, g.p = b, p
		if r := recover(); r != nil {
			if _, isRegs := r.(outOfRegs); !isRegs {
				panic(r)
			}
			body, ok = nil, false
		}
	}()
	q, xs, ys, outs := pair(p)
	g.body(q, xs, ys, outs)
	return buf.Bytes(), true
}

// body emits the loads of xs (consecutive vectors from SI+AX) and ys
// (from BX+AX, for a binary function), the instructions of q and the
// stores of outs (to DI+AX).
func (g *asmGen) body(q *prog, xs, ys, outs []*value) {
	is := g.is
	g.p = q
	g.reg = map[*node]int{}
	g.vfree = make([]bool, is.nvec)
	for i := range g.vfree {
		g.vfree[i] = true
	}
	g.kfree = make([]bool, 8)
	for i := range g.kfree {
		g.kfree[i] = true
	}
	for _, o := range outs {
		o.n.last = len(q.insts)
	}
	load := func(c int, x *value, base string) {
		g.alloc(x.n)
		if q.io != q.elem { // float32 in memory, float64 lanes
			g.line("VCVTPS2PD %s(%s)(AX*4), %s", disp(c*is.width/2), base, g.name(x.n))
		} else {
			g.line("VMOVUP%s %s(%s)(AX*%d), %s", g.sfx()[1:], disp(c*is.width), base, q.elem, g.name(x.n))
		}
	}
	for c, x := range xs {
		load(c, x, "SI")
	}
	for c, y := range ys {
		load(c, y, "BX")
	}
	for i, in := range q.insts {
		g.idx = i
		g.inst(in)
	}
	for c, o := range outs {
		if q.io != q.elem {
			r := g.reg[o.n]
			if is.kmask {
				g.line("VCVTPD2PS Z%d, Y%d", r, r)
				g.line("VMOVUPS Y%d, %s(DI)(AX*4)", r, disp(c*is.width/2))
			} else {
				g.line("VCVTPD2PSY Y%d, X%d", r, r)
				g.line("VMOVUPS X%d, %s(DI)(AX*4)", r, disp(c*is.width/2))
			}
			continue
		}
		g.line("VMOVUP%s %s, %s(DI)(AX*%d)", g.sfx()[1:], g.name(o.n), disp(c*is.width), q.elem)
	}
}

// disp is an address displacement ("" for 0).
func disp(d int) string {
	if d == 0 {
		return ""
	}
	return fmt.Sprint(d)
}

// pair returns p computed on two vectors at once: two copies of its
// instructions interleaved one for one, so that their dependency chains
// overlap, with the copies' inputs and results.
func pair(p *prog) (q *prog, xs, ys, outs []*value) {
	q = &prog{name: p.name, elem: p.elem, io: p.io, fallback: p.fallback}
	maps := [2]map[*node]*node{{}, {}}
	cv := func(c int, v *value) *value {
		if v.isCst {
			return v
		}
		n, ok := maps[c][v.n]
		if !ok {
			n = &node{id: 2*v.n.id + c, mask: v.n.mask}
			maps[c][v.n] = n
		}
		w := *v
		w.n = n
		return &w
	}
	for c := range 2 {
		xs = append(xs, cv(c, p.x))
		if p.y != nil {
			ys = append(ys, cv(c, p.y))
		}
	}
	for _, in := range p.insts {
		for c := range 2 {
			args := make([]*value, len(in.args))
			for j, a := range in.args {
				args[j] = cv(c, a)
				if !a.isCst {
					args[j].n.last = len(q.insts)
				}
			}
			var res *value
			if in.res != nil {
				res = cv(c, in.res)
			}
			q.insts = append(q.insts, inst{op: in.op, args: args, res: res, imm: in.imm})
		}
	}
	for c := range 2 {
		outs = append(outs, cv(c, p.out))
	}
	return q, xs, ys, outs
}
