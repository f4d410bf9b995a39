package main

import (
	"fmt"
	"math"
)

// A program is one function's algorithm for one element type, written once
// as straight-line vector operations and emitted three ways: as AVX-512 and
// AVX2 loop bodies and as a scalar Go function (the pure-Go twin). Every
// operation has one exactly specified IEEE result per lane (FMAs round
// once), so the three agree bit for bit.

// kind is what a value holds: a float per lane, the same bits as an
// integer, or a lane mask.
type kind uint8

const (
	kFloat kind = iota
	kInt
	kMask
)

// node is a register-resident quantity; float and integer views of the same
// bits share one node.
type node struct {
	id   int
	last int // index of the last instruction reading it
	mask bool
}

// value is an operand: a node seen as float or int, a mask, or a constant.
type value struct {
	k     kind
	n     *node // nil for constants
	bits  uint64
	name  string // Go identifier
	isCst bool
}

// inst is one operation. The result is nil for bail.
type inst struct {
	op   string
	args []*value
	res  *value
	imm  int // shift count or comparison predicate
}

type prog struct {
	name     string // Go function stem, e.g. "exp"
	elem     int    // bytes per lane of the computation: 4 or 8
	io       int    // bytes per element in memory (4 with elem 8: float32 computed in float64)
	x        *value
	y        *value // second input of a binary function (nil for unary ones)
	out      *value
	insts    []inst
	fallback string // Go expression returned when a bail fires
	nodes    int
	names    int
}

func newProg(name string, elem int) *prog {
	p := &prog{name: name, elem: elem, io: elem}
	p.x = p.newVal(kFloat)
	p.x.name = "x"
	return p
}

// newBinaryProg returns a program of two inputs, x and y, computed in
// elem-byte lanes on io-byte elements in memory.
func newBinaryProg(name string, elem, io int) *prog {
	p := newProg(name, elem)
	p.io = io
	p.y = p.newVal(kFloat)
	p.y.name = "y"
	return p
}

func (p *prog) newVal(k kind) *value {
	p.nodes++
	p.names++
	return &value{k: k, n: &node{id: p.nodes, mask: k == kMask}, name: fmt.Sprintf("v%d", p.names)}
}

// f is a float constant (rounded to the element type).
func (p *prog) f(x float64) *value {
	if p.elem == 4 {
		return &value{k: kFloat, bits: uint64(math.Float32bits(float32(x))), isCst: true}
	}
	return &value{k: kFloat, bits: math.Float64bits(x), isCst: true}
}

// i is an integer constant (truncated to the element width).
func (p *prog) i(b uint64) *value {
	if p.elem == 4 {
		b &= 0xffffffff
	}
	return &value{k: kInt, bits: b, isCst: true}
}

func (p *prog) emit(op string, k kind, imm int, args ...*value) *value {
	for _, a := range args {
		if a.isCst {
			continue
		}
		a.n.last = len(p.insts)
	}
	var res *value
	if k != 255 {
		res = p.newVal(k)
	}
	p.insts = append(p.insts, inst{op: op, args: args, res: res, imm: imm})
	return res
}

func (p *prog) need(k kind, vs ...*value) {
	for _, v := range vs {
		if v.k != k {
			panic(fmt.Sprintf("%s: operand kind %d, want %d", p.name, v.k, k))
		}
	}
}

// Floating-point arithmetic, each rounded once.
func (p *prog) add(a, b *value) *value { p.need(kFloat, a, b); return p.emit("add", kFloat, 0, a, b) }
func (p *prog) sub(a, b *value) *value { p.need(kFloat, a, b); return p.emit("sub", kFloat, 0, a, b) }
func (p *prog) mul(a, b *value) *value { p.need(kFloat, a, b); return p.emit("mul", kFloat, 0, a, b) }
func (p *prog) div(a, b *value) *value { p.need(kFloat, a, b); return p.emit("div", kFloat, 0, a, b) }
func (p *prog) sqrt(a *value) *value   { p.need(kFloat, a); return p.emit("sqrt", kFloat, 0, a) }

// min is x86's minimum: a if a < b, else b (so b when either is NaN).
func (p *prog) min(a, b *value) *value { p.need(kFloat, a, b); return p.emit("min", kFloat, 0, a, b) }

// fma is a·b+c, fnma -(a·b)+c, fms a·b-c, each rounded once.
func (p *prog) fma(a, b, c *value) *value {
	p.need(kFloat, a, b, c)
	return p.emit("fma", kFloat, 0, a, b, c)
}
func (p *prog) fnma(a, b, c *value) *value {
	p.need(kFloat, a, b, c)
	return p.emit("fnma", kFloat, 0, a, b, c)
}
func (p *prog) fms(a, b, c *value) *value {
	p.need(kFloat, a, b, c)
	return p.emit("fms", kFloat, 0, a, b, c)
}

// Integer operations on the lanes' bits (two's complement, wrapping).
func (p *prog) and(a, b *value) *value  { p.need(kInt, a, b); return p.emit("and", kInt, 0, a, b) }
func (p *prog) or(a, b *value) *value   { p.need(kInt, a, b); return p.emit("or", kInt, 0, a, b) }
func (p *prog) xor(a, b *value) *value  { p.need(kInt, a, b); return p.emit("xor", kInt, 0, a, b) }
func (p *prog) iadd(a, b *value) *value { p.need(kInt, a, b); return p.emit("iadd", kInt, 0, a, b) }
func (p *prog) isub(a, b *value) *value { p.need(kInt, a, b); return p.emit("isub", kInt, 0, a, b) }
func (p *prog) shl(a *value, n int) *value {
	p.need(kInt, a)
	return p.emit("shl", kInt, n, a)
}
func (p *prog) shr(a *value, n int) *value {
	p.need(kInt, a)
	return p.emit("shr", kInt, n, a)
}

// asInt and asFloat reinterpret a value's bits; they cost nothing in
// assembly (the result shares the register) and are conversions in Go.
func (p *prog) asInt(a *value) *value {
	p.need(kFloat, a)
	if a.isCst {
		return &value{k: kInt, bits: a.bits, isCst: true}
	}
	return p.view("asint", kInt, a)
}
func (p *prog) asFloat(a *value) *value {
	p.need(kInt, a)
	if a.isCst {
		return &value{k: kFloat, bits: a.bits, isCst: true}
	}
	return p.view("asfloat", kFloat, a)
}

func (p *prog) view(op string, k kind, a *value) *value {
	p.names++
	res := &value{k: k, n: a.n, name: fmt.Sprintf("v%d", p.names)}
	a.n.last = len(p.insts)
	p.insts = append(p.insts, inst{op: op, args: []*value{a}, res: res})
	return res
}

// Comparison predicates (the AVX immediate and the Go expression).
type pred struct {
	imm int
	goF string // format with the two operands
}

var (
	lt    = pred{0x11, "%s < %s"}
	le    = pred{0x12, "%s <= %s"}
	gt    = pred{0x1e, "%s > %s"}
	ge    = pred{0x1d, "%s >= %s"}
	eq    = pred{0x00, "%s == %s"}
	notLE = pred{0x06, "!(%s <= %s)"} // true for NaN
	notGE = pred{0x09, "!(%s >= %s)"} // true for NaN
	notGT = pred{0x0a, "!(%s > %s)"}  // true for NaN
)

var preds = map[int]pred{lt.imm: lt, le.imm: le, gt.imm: gt, ge.imm: ge, eq.imm: eq, notLE.imm: notLE, notGE.imm: notGE, notGT.imm: notGT}

func (p *prog) cmp(c pred, a, b *value) *value {
	p.need(kFloat, a, b)
	if a.isCst {
		panic(p.name + ": constant on the left of a comparison")
	}
	return p.emit("cmp", kMask, c.imm, a, b)
}

// ieq compares lanes as integers.
func (p *prog) ieq(a, b *value) *value {
	p.need(kInt, a, b)
	if a.isCst {
		panic(p.name + ": constant on the left of a comparison")
	}
	return p.emit("ieq", kMask, 0, a, b)
}

// sel is m ? a : b per lane.
func (p *prog) sel(m, a, b *value) *value {
	p.need(kMask, m)
	if a.k != b.k || a.k == kMask {
		panic(p.name + ": sel of mismatched kinds")
	}
	return p.emit("sel", a.k, 0, m, a, b)
}

// bail leaves the vector to the scalar twin when any lane of m is set; the
// twin returns p.fallback for such lanes.
func (p *prog) bail(m *value) {
	p.need(kMask, m)
	p.emit("bail", 255, 0, m)
}

// horner returns sum c_j t^j.
func (p *prog) horner(t *value, c []float64) *value {
	h := p.fma(p.f(c[len(c)-1]), t, p.f(c[len(c)-2]))
	for j := len(c) - 3; j >= 0; j-- {
		h = p.fma(h, t, p.f(c[j]))
	}
	return h
}

// Helpers for the element format.
func (p *prog) mant() int { return map[int]int{4: 23, 8: 52}[p.elem] }
func (p *prog) bias() int { return map[int]int{4: 127, 8: 1023}[p.elem] }
func (p *prog) sign() uint64 {
	return 1 << (8*p.elem - 1)
}

// bitsOf returns the element-width bits of x.
func (p *prog) bitsOf(x float64) uint64 { return p.f(x).bits }

func (p *prog) abs(x *value) *value { return p.asFloat(p.and(p.asInt(x), p.i(p.sign()-1))) }
