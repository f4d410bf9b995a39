package main

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
)

// The functions of two arguments. Each computes in float64 lanes unless
// it computes float32 in float32 lanes (lanes32); a float32 kernel in
// float64 lanes widens its arguments on loading and rounds its result
// once on storing.

// binaryFunction describes one generated function of two arguments.
type binaryFunction struct {
	name  string // lower-case stem
	api   string // exported name of its operation
	ios   []int  // the element sizes in memory it exists for
	build func(fm *format, p *prog)
	// fallback is the Go expression (of float64 x and y, the arguments
	// widened) for bailed lanes; {bits} stands for 32 or 64, the size of
	// the elements.
	fallback string
	// lanes32 computes float32 in float32 lanes (else float64 lanes),
	// with fallback32, an expression of float32 x and y, for bailed lanes.
	lanes32    bool
	fallback32 string
}

var binaryFunctions = []binaryFunction{
	{name: "pow", api: "Pow", ios: []int{4, 8}, build: buildPow, fallback: "powFallback{bits}(x, y)"},
	{name: "atan2", api: "Atan2", ios: []int{4, 8}, build: buildAtan2, fallback: "atan2Fallback(x, y)",
		lanes32: true, fallback32: "float32(atan2Fallback(float64(x), float64(y)))"},
}

// buildPow is x^y: buildPow32 for float32 elements, buildPow64 for
// float64.
func buildPow(fm *format, p *prog) {
	if p.io == 4 {
		buildPow32(fm, p)
		return
	}
	buildPow64(fm, p)
}

// buildPow32 is x^y for float32 arguments as e^(y·ln x) with Log and
// Exp's float64 algorithms: within float64's rounding of y·ln x of the
// exact power, so the float32 result rounds once. A base that is not
// positive and finite, an exponent that is not finite, and y = 1 bail to
// powFallback32, which gives the catalog's special values.
func buildPow32(fm *format, p *prog) {
	x, y := p.x, p.y
	p.bail(p.cmp(notGT, x, p.f(0)))
	p.bail(p.cmp(notLE, x, p.f(math.MaxFloat32)))
	p.bail(p.cmp(notLE, p.abs(y), p.f(math.MaxFloat32)))
	p.bail(p.cmp(eq, y, p.f(1)))
	p.out = p.exp(fm, p.mul(y, p.log(fm, x)))
}

// buildAtan2 is atan2(x, y), the angle of the point (y, x): t = atan of
// the ratio of the smaller modulus to the larger, then by the quadrant
// (k = [|x| > |y|] + 2·[y < 0]) c_k ± t with c_k in {0, π/2, π, π/2}
// carried in two parts, and x's sign. A ratio that is not a number (two
// zeros, two infinities, a NaN) bails to the catalog's scalar.Atan2.
func buildAtan2(fm *format, p *prog) {
	x, y := p.x, p.y
	an, ad := p.abs(x), p.abs(y)
	wide := p.cmp(gt, an, ad)
	q := p.div(p.sel(wide, ad, an), p.sel(wide, an, ad))
	p.bail(p.cmp(notGE, q, p.f(0)))
	t := p.atan(fm, q)
	// The quadrant's masks again (x and y stay live anyway): fewer
	// registers across atan, which AVX2's sixteen need.
	wide = p.cmp(gt, p.abs(x), p.abs(y))
	below := p.cmp(lt, y, p.f(0))
	s := p.sel(wide, p.f(-1), p.f(1))
	s = p.sel(below, p.neg(s), s)
	// π/2 and π as the lanes' floats and the rest of their values.
	hp, hpLo, pi, piRest := math.Pi/2, halfPiLo, math.Pi, piLo
	if p.elem == 4 {
		hp32, pi32 := float64(float32(hp)), float64(float32(pi))
		hp, hpLo, pi, piRest = hp32, (hp-hp32)+halfPiLo, pi32, (pi-pi32)+piLo
	}
	cHi := p.sel(wide, p.f(hp), p.sel(below, p.f(pi), p.f(0)))
	cLo := p.sel(wide, p.f(hpLo), p.sel(below, p.f(piRest), p.f(0)))
	r := p.add(p.add(cHi, p.mul(s, t)), cLo)
	p.out = p.withSign(r, x)
}

// The parts of π and π/2 below their float64 roundings.
const (
	piLo     = 1.2246467991473532e-16
	halfPiLo = 6.123233995736766e-17
)

// binaryProgs builds the programs of the binary functions (float64 lanes
// unless a function computes float32 in float32 lanes) and records their
// lane counts by kernel name.
func binaryProgs(fms map[int]*format, lanes map[string]int) []*prog {
	var progs []*prog
	for _, fn := range binaryFunctions {
		for _, io := range fn.ios {
			elem := 8
			fallback := strings.ReplaceAll(fn.fallback, "{bits}", fmt.Sprint(8*io))
			if io == 4 && fn.lanes32 {
				elem, fallback = 4, fn.fallback32
			}
			p := newBinaryProg(fn.name, elem, io)
			p.fallback = fallback
			fn.build(fms[elem], p)
			progs = append(progs, p)
			for _, is := range []*isa{avx512, avx2} {
				lanes[fmt.Sprintf("%sF%d%s", fn.name, 8*io, is.name)] = is.width / p.elem
			}
		}
	}
	return progs
}

// writeBinaryDecls writes the Go declarations of the binary kernels and
// their dispatch (archApply2_32, archApply2_64).
func writeBinaryDecls(d *bytes.Buffer, progs []*prog, lanes map[string]int) {
	for _, is := range []*isa{avx512, avx2} {
		for _, p := range progs {
			ct := map[int]string{4: "float32", 8: "float64"}[p.io]
			fmt.Fprintf(d, "//go:noescape\nfunc %sF%d%s(dst, x, y *%s, n int) int\n\n", p.name, 8*p.io, is.name, ct)
		}
	}
	for _, io := range []int{4, 8} {
		ct := map[int]string{4: "float32", 8: "float64"}[io]
		fmt.Fprintf(d, "// archApply2_%d runs the binary o of assembly variant idx, as archApply%d\n// does a unary one; false for another idx or a function without a kernel.\n", 8*io, 8*io)
		fmt.Fprintf(d, "func archApply2_%d(idx int, o op2, dst, x, y []%s) bool {\n\tn := len(dst)\n\tx, y = x[:n], y[:n]\n\tswitch idx {\n", 8*io, ct)
		for i, is := range []*isa{avx512, avx2} {
			fmt.Fprintf(d, "\tcase %d:\n\t\tswitch o {\n", i)
			for _, fn := range binaryFunctions {
				if !slices.Contains(fn.ios, io) {
					continue
				}
				k := fmt.Sprintf("%sF%d%s", fn.name, 8*io, is.name)
				l := lanes[k]
				fmt.Fprintf(d, "\t\tcase op2%s:\n\t\t\tfor i := 0; i < n; {\n\t\t\t\tif n-i >= %d {\n\t\t\t\t\ti += %s(&dst[i], &x[i], &y[i], n-i)\n\t\t\t\t}\n", fn.api, l, k)
				fmt.Fprintf(d, "\t\t\t\tfor end := min(i+%d, n); i < end; i++ {\n\t\t\t\t\tdst[i] = %sF%d(x[i], y[i])\n\t\t\t\t}\n\t\t\t}\n", l, fn.name, 8*io)
			}
			d.WriteString("\t\tdefault:\n\t\t\treturn false\n\t\t}\n")
		}
		d.WriteString("\tdefault:\n\t\treturn false\n\t}\n\treturn true\n}\n\n")
	}
}

// writeBinaryTwins writes the operations' constants and the pure-Go twins
// of the binary kernels with their dispatch (genericApply2_32 and _64).
func writeBinaryTwins(o *bytes.Buffer, progs []*prog) {
	o.WriteString("// The binary operations.\nconst (\n")
	for i, fn := range binaryFunctions {
		if i == 0 {
			fmt.Fprintf(o, "\top2%s op2 = iota\n", fn.api)
		} else {
			fmt.Fprintf(o, "\top2%s\n", fn.api)
		}
	}
	o.WriteString("\tnumOps2\n)\n\n")
	o.WriteString("var op2Names = [numOps2]string{")
	for _, fn := range binaryFunctions {
		fmt.Fprintf(o, "%q, ", fn.api)
	}
	o.WriteString("}\n\n")
	for _, p := range progs {
		g := goGen{p: p, b: o}
		name := fmt.Sprintf("%sF%d", p.name, 8*p.io)
		if p.io == p.elem {
			fmt.Fprintf(o, "// %s is the scalar twin of the %s kernels.\n", name, p.name)
			g.fn(p.fallback, name)
			continue
		}
		fmt.Fprintf(o, "// %s is the scalar twin of the float%d %s kernels, which compute\n// in float%d lanes (%sWide).\n", name, 8*p.io, p.name, 8*p.elem, name)
		fmt.Fprintf(o, "func %s(x, y float32) float32 { return float32(%sWide(float64(x), float64(y))) }\n\n", name, name)
		g.fn(p.fallback, name+"Wide")
	}
	for _, io := range []int{4, 8} {
		ct := map[int]string{4: "float32", 8: "float64"}[io]
		fmt.Fprintf(o, "// genericApply2_%d runs the binary o of the pure-Go variant.\n", 8*io)
		fmt.Fprintf(o, "func genericApply2_%d(o op2, dst, x, y []%s) {\n\tx, y = x[:len(dst)], y[:len(dst)]\n\tswitch o {\n", 8*io, ct)
		for _, fn := range binaryFunctions {
			if !slices.Contains(fn.ios, io) {
				continue
			}
			fmt.Fprintf(o, "\tcase op2%s:\n\t\tfor i := range dst {\n\t\t\tdst[i] = %sF%d(x[i], y[i])\n\t\t}\n", fn.api, fn.name, 8*io)
		}
		fmt.Fprintf(o, "\tdefault:\n\t\tpanic(\"vmath: no float%d kernel for \" + op2Names[o])\n\t}\n}\n\n", 8*io)
	}
}

// buildPow64 is x^y for float64 as e^(y·ln x) with ln x in double-double
// (logDD, about 2^-62 relative): p + pLo = y·ln x (p = y·hi rounded, its
// FMA residual and y·lo), e = e^p by Exp's algorithm and the result
// e + e·pLo, within 2 ulps. Bases that are not positive, normal and finite,
// exponents that are not finite, y = 1 and p above 709 (where e^p may
// overflow before e^(p + pLo) does) bail to the catalog's scalar.Pow.
func buildPow64(fm *format, p *prog) {
	x, y := p.x, p.y
	p.bail(p.cmp(notGE, x, p.f(0x1p-1022)))
	p.bail(p.cmp(notLE, x, p.f(math.MaxFloat64)))
	p.bail(p.cmp(notLE, p.abs(y), p.f(math.MaxFloat64)))
	p.bail(p.cmp(eq, y, p.f(1)))
	hi, lo := p.logDD(fm, x)
	t := p.mul(y, hi)
	p.bail(p.cmp(gt, t, p.f(709)))
	tLo := p.fma(y, lo, p.fms(y, hi, t))
	e := p.exp(fm, t)
	v := p.fma(e, tLo, e)
	// e·(1 + tLo) is NaN where e is 0 or +Inf and tLo of the other sign.
	p.out = p.sel(p.cmp(eq, v, v), v, e)
}

// twoSum returns s = a + b rounded and its exact error.
func (p *prog) twoSum(a, b *value) (s, e *value) {
	s = p.add(a, b)
	z := p.sub(s, a)
	return s, p.add(p.sub(a, p.sub(s, z)), p.sub(b, z))
}

// logDD returns ln x = hi + lo to about 2^-62 relative for positive normal
// finite x: x = 2^k·m with m in [√½, √2), ln m = 2·atanh(s) for s =
// (m-1)/(m+1) carried as s + sLo (its residual), and ln x = k·ln2 + 2s +
// (2/3)·s³ + s⁵·Σ_j 2/(2j+5)·s^(2j), the first three terms summed exactly
// (two-sums) and (2/3)·s³ in double-double; |s| <= 0.1716, so the rest is
// below 2^-12 of ln m and its rounding stays below 2^-63 of it.
func (p *prog) logDD(fm *format, x *value) (hi, lo *value) {
	mant := p.mant()
	one := p.bitsOf(1)
	iv := p.asInt(x)
	t := p.iadd(iv, p.i(one-fm.sqrtHalfBits))
	u := p.shr(t, mant) // k + bias
	kf := p.sub(p.asFloat(p.or(u, p.i(p.bitsOf(math.Ldexp(1, mant))))), p.f(math.Ldexp(1, mant)+float64(p.bias())))
	m := p.asFloat(p.iadd(p.isub(iv, p.and(t, p.i(^uint64(0)<<mant))), p.i(one)))
	f := p.sub(m, p.f(1)) // exact
	d := p.add(m, p.f(1))
	dLo := p.add(p.sub(p.f(1), d), m) // exact: d + dLo = m + 1
	inv := p.div(p.f(1), d)
	s := p.mul(f, inv)
	sLo := p.mul(p.sub(p.fnma(s, d, f), p.mul(s, dLo)), inv)
	z := p.mul(s, s)
	zLo := p.fms(s, s, z)
	s3 := p.mul(z, s)
	s3Lo := p.add(p.add(p.fms(z, s, s3), p.mul(zLo, s)), p.mul(p.mul(z, p.f(3)), sLo))
	th := p.mul(s3, p.f(twoThirdsHi))
	thLo := p.add(p.add(p.fms(p.f(twoThirdsHi), s3, th), p.mul(s3Lo, p.f(twoThirdsHi))), p.mul(s3, p.f(twoThirdsLo)))
	// The rest by Estrin's scheme.
	c := atanhTail
	z2 := p.mul(z, z)
	z4 := p.mul(z2, z2)
	q0 := p.fma(p.fma(p.f(c[3]), z, p.f(c[2])), z2, p.fma(p.f(c[1]), z, p.f(c[0])))
	q1 := p.fma(p.fma(p.f(c[7]), z, p.f(c[6])), z2, p.fma(p.f(c[5]), z, p.f(c[4])))
	q2 := p.fma(p.f(c[9]), z, p.f(c[8]))
	rest := p.mul(p.mul(s3, z), p.fma(p.fma(q2, z4, q1), z4, q0))
	h1, e1 := p.twoSum(p.mul(kf, p.f(ln2Hi)), p.add(s, s))
	h2, e2 := p.twoSum(h1, th)
	small := p.add(p.add(p.add(p.add(sLo, sLo), thLo), rest), p.mul(kf, p.f(ln2Lo)))
	lo = p.add(p.add(e1, e2), small)
	hi = p.add(h2, lo)
	return hi, p.add(p.sub(h2, hi), lo)
}

// The constants of logDD: 2/3 in two parts, the coefficients 2/(2j+5) of
// the series' tail, and ln 2 in two parts (k·ln2Hi exact for |k| < 2^20).
const (
	twoThirdsHi = 2.0 / 3
	twoThirdsLo = 3.700743415417188e-17
	ln2Hi       = 0x1.62e42fefp-1
	ln2Lo       = 0x1.473de6af278edp-34
)

var atanhTail = [...]float64{2.0 / 5, 2.0 / 7, 2.0 / 9, 2.0 / 11, 2.0 / 13, 2.0 / 15, 2.0 / 17, 2.0 / 19, 2.0 / 21, 2.0 / 23}
