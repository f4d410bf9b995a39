package main

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/npy"
)

// cm is a dense complex128 matrix, row-major, the tests' oracle type.
type cm struct {
	m, n int
	d    []complex128
}

func newCM(m, n int) cm                 { return cm{m, n, make([]complex128, m*n)} }
func (a cm) at(i, j int) complex128     { return a.d[i*a.n+j] }
func (a cm) set(i, j int, v complex128) { a.d[i*a.n+j] = v }
func (a cm) add(i, j int, v complex128) { a.d[i*a.n+j] += v }

func cmEye(n int) cm {
	e := newCM(n, n)
	for i := range n {
		e.set(i, i, 1)
	}
	return e
}

func cmFro(a cm) float64 {
	s := 0.0
	for _, v := range a.d {
		s += real(v)*real(v) + imag(v)*imag(v)
	}
	return math.Sqrt(s)
}

func cmDiff(a, b cm) float64 {
	if a.m != b.m || a.n != b.n {
		return math.Inf(1)
	}
	c := newCM(a.m, a.n)
	for i := range c.d {
		c.d[i] = a.d[i] - b.d[i]
	}
	return cmFro(c)
}

func cmAdj(a cm) cm {
	c := newCM(a.n, a.m)
	for i := range a.m {
		for j := range a.n {
			c.set(j, i, cmplx.Conj(a.at(i, j)))
		}
	}
	return c
}

// cmOrtho is ‖QᴴQ − I‖ (orthonormal columns).
func cmOrtho(q cm) float64 { return cmDiff(cmMul(cmAdj(q), q), cmEye(q.n)) }

// cmRel is err/scale, 0 for 0/0.
func cmRel(err, scale float64) float64 {
	if err == 0 {
		return 0
	}
	return err / scale
}

func cmMul(a, b cm) cm {
	if a.n != b.m {
		panic(fmt.Sprintf("cmMul: %dx%d times %dx%d", a.m, a.n, b.m, b.n))
	}
	c := newCM(a.m, b.n)
	for i := range a.m {
		for k := range a.n {
			x := a.at(i, k)
			for j := range b.n {
				c.add(i, j, x*b.at(k, j))
			}
		}
	}
	return c
}

// cmDet is the determinant by Gaussian elimination with partial pivoting.
func cmDet(a cm) complex128 {
	a = cm{a.m, a.n, slices.Clone(a.d)}
	det := complex128(1)
	for k := range a.n {
		p := k
		for i := k + 1; i < a.n; i++ {
			if cmplx.Abs(a.at(i, k)) > cmplx.Abs(a.at(p, k)) {
				p = i
			}
		}
		if p != k {
			for j := range a.n {
				x := a.at(k, j)
				a.set(k, j, a.at(p, j))
				a.set(p, j, x)
			}
			det = -det
		}
		if a.at(k, k) == 0 {
			return 0
		}
		det *= a.at(k, k)
		for i := k + 1; i < a.n; i++ {
			f := a.at(i, k) / a.at(k, k)
			for j := k; j < a.n; j++ {
				a.add(i, j, -f*a.at(k, j))
			}
		}
	}
	return det
}

// triangular reports whether a is zero below (upper) or above its diagonal.
func triangular(a cm, upper bool) bool {
	for i := range a.m {
		for j := range a.n {
			if (upper && i > j || !upper && j > i) && a.at(i, j) != 0 {
				return false
			}
		}
	}
	return true
}

// numpyMats splits a tensor of NumPy shape (batch..., m, n) into its
// matrices, batch items in C order; a vector (batch..., n) gives n×1
// matrices when vec is set.
func numpyMats(t *testing.T, x *tf.Tensor[complex128], vec bool) []cm {
	t.Helper()
	s := x.Shape()
	mr := 2
	if vec {
		mr = 1
	}
	batch, m, n := s[:len(s)-mr], s[len(s)-mr], 1
	if !vec {
		n = s[len(s)-1]
	}
	var out []cm
	idx := make([]int, len(s))
	for q := range tf.Numel(batch) {
		r := q
		for d := len(batch) - 1; d >= 0; d-- {
			idx[d], r = r%batch[d], r/batch[d]
		}
		a := newCM(m, n)
		for i := range m {
			for j := range n {
				idx[len(batch)] = i
				if !vec {
					idx[len(batch)+1] = j
				}
				v, err := x.At(idx...)
				if err != nil {
					t.Fatal(err)
				}
				a.set(i, j, v)
			}
		}
		out = append(out, a)
	}
	return out
}

// scalars lists a tensor of NumPy shape (batch...) in C order.
func scalars(t *testing.T, x *tf.Tensor[complex128]) []complex128 {
	t.Helper()
	v, err := x.Unsqueeze(x.Rank(), x.Rank()+1)
	if err != nil {
		t.Fatal(err)
	}
	var s []complex128
	for _, a := range numpyMats(t, v, false) {
		s = append(s, a.d[0])
	}
	return s
}

// drawNumPy returns a tensor of NumPy shape (batch..., m, n) of kind k:
// general (R + √n·I, n = min(m, n)), spd, or plain R.
func drawNumPy[T tf.Scalar](seed uint64, k inputKind, shape ...int) *tf.Tensor[T] {
	r := len(shape)
	m, n := shape[r-2], shape[r-1]
	items := tf.Numel(shape[:r-2])
	mats := make([]cm, items)
	rng := rand.New(rand.NewPCG(seed, 17))
	cplx := tf.DTypeOf[T]().IsComplex()
	for q := range mats {
		a := newCM(m, n)
		for i := range a.d {
			a.d[i] = complex(2*rng.Float64()-1, 0)
			if cplx {
				a.d[i] += complex(0, 2*rng.Float64()-1)
			}
		}
		switch k {
		case generalIn:
			setDiagAdd(a, complex(math.Sqrt(float64(min(m, n))), 0))
		case scaledIn:
			for i := range a.d {
				a.d[i] /= complex(math.Sqrt(float64(max(n, 1))), 0)
			}
		case hermitianIn:
			h := cmAdj(a)
			for i := range h.d {
				h.d[i] = (h.d[i] + a.d[i]) / 2
			}
			a = h
		case spdIn:
			h := cmMul(a, cmAdj(a))
			setDiagAdd(h, complex(float64(n), 0))
			a = h
		}
		mats[q] = a
	}
	// Column-major data of the NumPy-shaped tensor: axis 0 fastest.
	data := make([]T, tf.Numel(shape))
	idx := make([]int, r)
	for p := range data {
		rem := p
		for d := range r {
			idx[d], rem = rem%shape[d], rem/shape[d]
		}
		q := 0
		for d := range r - 2 {
			q = q*shape[d] + idx[d]
		}
		data[p] = fromC128[T](mats[q].at(idx[r-2], idx[r-1]))
	}
	x, err := tf.FromSlice(data, shape...)
	if err != nil {
		panic(err)
	}
	return x
}

func setDiagAdd(a cm, v complex128) {
	for i := range min(a.m, a.n) {
		a.add(i, i, v)
	}
}

func fromC128[T tf.Scalar](v complex128) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(float32(real(v))).(T)
	case float64:
		return any(real(v)).(T)
	case complex64:
		return any(complex64(v)).(T)
	}
	return any(v).(T)
}

// writeIn writes x as a .npy file in dir (Fortran order, as package npy
// writes tensors) and returns its path.
func writeIn[T tf.Scalar](t *testing.T, dir, name string, x *tf.Tensor[T]) string {
	t.Helper()
	p := filepath.Join(dir, name+".npy")
	if err := npy.WriteTensorFile(p, x); err != nil {
		t.Fatal(err)
	}
	return p
}

// readOut reads PREFIX.NAME.npy, checking that it is in C order and of
// dtype want, and returns it as complex128.
func readOut(t *testing.T, prefix, name string, want tf.DType) *tf.Tensor[complex128] {
	t.Helper()
	p := prefix + "." + name + ".npy"
	a, err := npy.ReadFile(p)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if a.Fortran {
		t.Errorf("%s: written in Fortran order, want C order", name)
	}
	v, err := npy.ReadValueFile(p)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if v.DType() != want {
		t.Fatalf("%s: dtype %v, want %v", name, v.DType(), want)
	}
	c, err := tf.Convert(v, tf.Complex128)
	if err != nil {
		t.Fatal(err)
	}
	x, err := tf.As[complex128](c)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// runLinalg runs `tenferro linalg` and fails t unless it succeeds quietly.
func runLinalg(t *testing.T, args ...string) {
	t.Helper()
	code, out, errs := runCLI(t, append([]string{"linalg"}, args...)...)
	if code != 0 || out != "" || errs != "" {
		t.Fatalf("linalg %v: exit %d, stdout %q, stderr %q", args, code, out, errs)
	}
}

// linalgShapes are the NumPy shapes the per-op tests run: single
// matrices of awkward orders and batches of one and two axes.
var linalgShapes = [][]int{{0, 0}, {1, 1}, {2, 2}, {5, 5}, {17, 17}, {3, 4, 4}, {2, 3, 7, 7}, {2, 0, 3, 3}}

func TestLinalgCmd(t *testing.T) {
	t.Run("f32", testLinalgCmd[float32])
	t.Run("f64", testLinalgCmd[float64])
	t.Run("c64", testLinalgCmd[complex64])
	t.Run("c128", testLinalgCmd[complex128])
}

func testLinalgCmd[T tf.Scalar](t *testing.T) {
	eps, _ := epsOf[T]()
	dt := tf.DTypeOf[T]()
	dir := t.TempDir()
	pre := filepath.Join(dir, "out")
	out := func(name string) []cm { return numpyMats(t, readOut(t, pre, name, dt), false) }
	for si, shape := range linalgShapes {
		n := shape[len(shape)-1]
		tol := 30 * float64(n+1) * eps
		name := fmt.Sprint(shape)
		a := drawNumPy[T](uint64(si+1), generalIn, shape...)
		s := drawNumPy[T](uint64(si+101), spdIn, shape...)
		bshape := append(slices.Clone(shape[:len(shape)-1]), 3)
		b := drawNumPy[T](uint64(si+201), rhsIn, bshape...)
		fa, fs, fb := writeIn(t, dir, "a", a), writeIn(t, dir, "s", s), writeIn(t, dir, "b", b)
		am, sm, bm := numpyMats(t, c128(t, a), false), numpyMats(t, c128(t, s), false), numpyMats(t, c128(t, b), false)
		if len(am) != tf.Numel(shape[:len(shape)-2]) {
			t.Fatalf("%s: %d matrices", name, len(am))
		}

		runLinalg(t, "solve", "-o", pre, fa, fb)
		for q, x := range out("x") {
			if r := cmRel(cmDiff(cmMul(am[q], x), bm[q]), cmFro(am[q])*cmFro(x)+cmFro(bm[q])); r > tol {
				t.Errorf("%s solve item %d: residual %g > %g", name, q, r, tol)
			}
		}
		for _, upper := range []bool{false, true} {
			args, fn := []string{"cholesky", "-o", pre, fs}, "l"
			if upper {
				args, fn = append(args, "--upper"), "u"
			}
			runLinalg(t, args...)
			for q, l := range out(fn) {
				prod := cmMul(l, cmAdj(l))
				if upper {
					prod = cmMul(cmAdj(l), l)
				}
				if r := cmRel(cmDiff(prod, sm[q]), cmFro(sm[q])); r > tol || !triangular(l, upper) {
					t.Errorf("%s cholesky upper=%v item %d: residual %g, triangular %v", name, upper, q, r, triangular(l, upper))
				}
			}
		}
		// The triangular solves: S's lower (upper) triangle as L (U), and the
		// Cholesky factor just written.
		tri := func(upper, unit bool) []cm {
			var ts []cm
			for _, m := range sm {
				c := newCM(n, n)
				for i := range n {
					for j := range n {
						if i == j && unit {
							c.set(i, j, 1)
						} else if upper && j >= i || !upper && j <= i {
							c.set(i, j, m.at(i, j))
						}
					}
				}
				ts = append(ts, c)
			}
			return ts
		}
		bwide := drawNumPy[T](uint64(si+401), rhsIn, append(slices.Clone(shape[:len(shape)-2]), 2, n)...)
		fbw, bwm := writeIn(t, dir, "bw", bwide), numpyMats(t, c128(t, bwide), false)
		for _, c := range []struct {
			args        []string
			upper, unit bool
			right       bool
		}{{nil, false, false, false}, {[]string{"--upper"}, true, false, false}, {[]string{"--unit-diagonal"}, false, true, false},
			{[]string{"--right", "--upper"}, true, false, true}, {[]string{"--lower", "--right", "--unit-diagonal"}, false, true, true}} {
			rhs, rm := fb, bm
			if c.right {
				rhs, rm = fbw, bwm
			}
			runLinalg(t, append([]string{"solve_triangular", "-o", pre, fs, rhs}, c.args...)...)
			ts := tri(c.upper, c.unit)
			for q, x := range out("x") {
				var prod cm
				if c.right {
					prod = cmMul(x, ts[q])
				} else {
					prod = cmMul(ts[q], x)
				}
				if r := cmRel(cmDiff(prod, rm[q]), cmFro(ts[q])*cmFro(x)+cmFro(rm[q])); r > tol {
					t.Errorf("%s solve_triangular %v item %d: residual %g", name, c.args, q, r)
				}
			}
		}
		for _, upper := range []bool{false, true} {
			fn, args := "l", []string{"--lower"}
			if upper {
				fn, args = "u", []string{"--upper"}
			}
			runLinalg(t, append([]string{"cholesky", "-o", pre, fs}, args...)...)
			runLinalg(t, append([]string{"cholesky_solve", "-o", pre + "x", pre + "." + fn + ".npy", fb}, args...)...)
			for q, x := range numpyMats(t, readOut(t, pre+"x", "x", dt), false) {
				if r := cmRel(cmDiff(cmMul(sm[q], x), bm[q]), cmFro(sm[q])*cmFro(x)+cmFro(bm[q])); r > tol {
					t.Errorf("%s cholesky_solve %v item %d: residual %g", name, args, q, r)
				}
			}
		}
		runLinalg(t, "inv", "-o", pre, fa)
		for q, x := range out("inv") {
			// A is well conditioned (R + √n·I): its condition is a small constant.
			if r := cmDiff(cmMul(am[q], x), cmEye(n)); r > 10*tol {
				t.Errorf("%s inv item %d: ‖A·X − I‖ = %g", name, q, r)
			}
		}
		runLinalg(t, "det", "-o", pre, fa)
		dets := scalars(t, readOut(t, pre, "det", dt))
		runLinalg(t, "slogdet", "-o", pre, fa)
		signs, logabs := scalars(t, readOut(t, pre, "sign", dt)), scalars(t, readOut(t, pre, "logabs", dt.Real()))
		if len(dets) != len(am) || len(signs) != len(am) || len(logabs) != len(am) {
			t.Fatalf("%s: %d det, %d sign, %d logabs for %d matrices", name, len(dets), len(signs), len(logabs), len(am))
		}
		for q, d := range dets {
			want := cmDet(am[q])
			if cmplx.Abs(d-want) > tol*cmplx.Abs(want) {
				t.Errorf("%s det item %d: %v, want %v", name, q, d, want)
			}
			if got := signs[q] * complex(math.Exp(real(logabs[q])), 0); cmplx.Abs(got-want) > tol*cmplx.Abs(want) {
				t.Errorf("%s slogdet item %d: sign·exp(logabs) = %v, want %v", name, q, got, want)
			}
		}
		x := drawNumPy[T](uint64(si+301), scaledIn, shape...)
		runLinalg(t, "expm", "-o", pre, writeIn(t, dir, "x", x))
		for q, xq := range numpyMats(t, c128(t, x), false) {
			want := cmExpm(xq)
			if d := cmRel(cmDiff(out("expm")[q], want), cmFro(want)); d > tol {
				t.Errorf("%s expm item %d: relative error %g", name, q, d)
			}
		}
		runLinalg(t, "lu", "-o", pre, fa)
		ps, ls, us := out("p"), out("l"), out("u")
		for q := range am {
			if r := cmRel(cmDiff(cmMul(ps[q], cmMul(ls[q], us[q])), am[q]), cmFro(am[q])); r > tol || !triangular(ls[q], false) || !triangular(us[q], true) {
				t.Errorf("%s lu item %d: ‖A − P·L·U‖/‖A‖ = %g", name, q, r)
			}
		}
		runLinalg(t, "lu", "--packed", "-o", pre, fa)
		lus, pivs := out("lu"), numpyMats(t, readOut(t, pre, "piv", tf.Int64), true)
		for q := range am {
			if r := cmRel(cmDiff(unpackLU(lus[q], pivs[q]), am[q]), cmFro(am[q])); r > tol {
				t.Errorf("%s lu --packed item %d: ‖A − P·L·U‖/‖A‖ = %g", name, q, r)
			}
		}
	}
}

// cmExpm is exp(A) by scaling and squaring a Taylor series: the oracle,
// good to a few complex128 roundoffs for the small norms of the tests.
func cmExpm(a cm) cm {
	sq := 0
	for f := cmFro(a); f > 0.25; f /= 2 {
		sq++
	}
	b := cm{a.m, a.n, slices.Clone(a.d)}
	for i := range b.d {
		b.d[i] /= complex(math.Ldexp(1, sq), 0)
	}
	sum, term := cmEye(a.n), cmEye(a.n)
	for k := 1; k <= 30; k++ {
		term = cmMul(term, b)
		for i := range term.d {
			term.d[i] /= complex(float64(k), 0)
			sum.d[i] += term.d[i]
		}
	}
	for range sq {
		sum = cmMul(sum, sum)
	}
	return sum
}

// unpackLU rebuilds A from LAPACK's packed factors and 0-based pivots.
func unpackLU(lu, piv cm) cm {
	n := lu.n
	l, u := newCM(n, n), newCM(n, n)
	for i := range n {
		for j := range n {
			switch {
			case i > j:
				l.set(i, j, lu.at(i, j))
			default:
				u.set(i, j, lu.at(i, j))
			}
		}
		l.set(i, i, 1)
	}
	a := cmMul(l, u)
	for i := n - 1; i >= 0; i-- {
		p := int(real(piv.d[i]))
		for j := range n {
			x := a.at(i, j)
			a.set(i, j, a.at(p, j))
			a.set(p, j, x)
		}
	}
	return a
}

// c128 converts x to complex128.
func c128[T tf.Scalar](t *testing.T, x *tf.Tensor[T]) *tf.Tensor[complex128] {
	t.Helper()
	v, err := tf.Convert(tf.ValueOf(x), tf.Complex128)
	if err != nil {
		t.Fatal(err)
	}
	c, err := tf.As[complex128](v)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestLinalgCmdSolveShapes checks NumPy's broadcasting of solve's
// operands and the vector right side, dtype promotion, and --threads.
func TestLinalgCmdSolveShapes(t *testing.T) {
	dir := t.TempDir()
	pre := filepath.Join(dir, "out")
	for i, c := range []struct{ a, b, x []int }{
		{[]int{4, 4}, []int{4}, []int{4}},
		{[]int{3, 4, 4}, []int{4}, []int{3, 4}},
		{[]int{2, 3, 4, 4}, []int{3, 4, 2}, []int{2, 3, 4, 2}},
		{[]int{4, 4}, []int{2, 4, 5}, []int{2, 4, 5}},
		{[]int{3, 1, 4, 4}, []int{2, 4, 1}, []int{3, 2, 4, 1}},
	} {
		a := drawNumPy[float32](uint64(i+1), generalIn, c.a...)
		bs := c.b
		vec := len(bs) == 1
		if vec {
			bs = []int{bs[0], 1}
		}
		b := drawNumPy[float64](uint64(i+11), rhsIn, bs...)
		if vec {
			var err error
			if b, err = b.Reshape(c.b...); err != nil {
				t.Fatal(err)
			}
		}
		// Odd cases run on a team engine.
		runLinalg(t, "solve", "--threads", fmt.Sprint(1+i%2), "-o", pre, writeIn(t, dir, "a", a), writeIn(t, dir, "b", b))
		x := readOut(t, pre, "x", tf.Float64) // float32 A and float64 B promote
		if !slices.Equal(x.Shape(), c.x) {
			t.Errorf("a %v b %v: x %v, want %v", c.a, c.b, x.Shape(), c.x)
			continue
		}
		// Check each item against its broadcast operands.
		am, bm := numpyMats(t, c128(t, a), false), numpyMats(t, c128(t, b), vec)
		xm := numpyMats(t, x, vec)
		batch := c.x[:len(c.x)-vecMat(vec)]
		for q, xq := range xm {
			aq, bq := am[broadcastItem(q, batch, c.a[:len(c.a)-2])], bm[0]
			if !vec {
				bq = bm[broadcastItem(q, batch, c.b[:len(c.b)-2])]
			}
			if r := cmRel(cmDiff(cmMul(aq, xq), bq), cmFro(aq)*cmFro(xq)+cmFro(bq)); r > 1e-5 {
				t.Errorf("a %v b %v item %d: residual %g", c.a, c.b, q, r)
			}
		}
	}
}

// broadcastItem maps item q of the batch shape out (C order) to the item
// of the batch shape in that NumPy broadcasts to it (right-aligned,
// extent-1 axes repeated).
func broadcastItem(q int, out, in []int) int {
	idx := make([]int, len(out))
	for d := len(out) - 1; d >= 0; d-- {
		idx[d], q = q%out[d], q/out[d]
	}
	p := 0
	for d, x := range in {
		i := idx[len(out)-len(in)+d]
		if x == 1 {
			i = 0
		}
		p = p*x + i
	}
	return p
}

// TestLinalgCmdRank checks matrix_rank on matrices of known rank, with
// NumPy's default tolerance and with --atol and --rtol.
func TestLinalgCmdRank(t *testing.T) {
	dir := t.TempDir()
	pre := filepath.Join(dir, "out")
	// Item q < 5 of the batch is Σ_{r<q} u_r·v_rᵀ for random u_r (6) and
	// v_r (5), of rank q; item 5 is item 4 plus 1e-9·u₅·v₅ᵀ, of rank 5
	// with NumPy's tolerance and 4 with a looser one.
	a, _ := tf.Zeros[float64](6, 6, 5)
	u := drawNumPy[float64](1, rhsIn, 6, 6)
	v := drawNumPy[float64](2, rhsIn, 6, 5)
	for q := range 6 {
		for i := range 6 {
			for j := range 5 {
				x := 0.0
				for r := range min(q, 4) {
					uu, _ := u.At(r, i)
					vv, _ := v.At(r, j)
					x += uu * vv
				}
				if q == 5 {
					uu, _ := u.At(5, i)
					vv, _ := v.At(5, j)
					x += 1e-9 * uu * vv
				}
				a.Set(x, q, i, j)
			}
		}
	}
	fa := writeIn(t, dir, "a", a)
	for _, c := range []struct {
		args []string
		want []int64
	}{
		{nil, []int64{0, 1, 2, 3, 4, 5}},
		{[]string{"--atol", "1e-6"}, []int64{0, 1, 2, 3, 4, 4}},
		{[]string{"--rtol", "1e-6"}, []int64{0, 1, 2, 3, 4, 4}},
		{[]string{"--atol", "1e3"}, []int64{0, 0, 0, 0, 0, 0}},
	} {
		runLinalg(t, append([]string{"matrix_rank", "-o", pre, fa}, c.args...)...)
		r, err := npy.ReadTensorFile[int64](pre + ".rank.npy")
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := r.Data(); !slices.Equal(got, c.want) {
			t.Errorf("%v: ranks %v, want %v", c.args, got, c.want)
		}
	}
}

// TestLinalgCmdErrors checks that bad input exits with status 2 and one
// line on stderr, and that an unwritable output exits with status 1.
func TestLinalgCmdErrors(t *testing.T) {
	dir := t.TempDir()
	a := writeIn(t, dir, "a", drawNumPy[float64](1, generalIn, 3, 3))
	wide := writeIn(t, dir, "wide", drawNumPy[float64](2, rhsIn, 2, 3))
	vec, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	v := writeIn(t, dir, "v", vec)
	// Two matrices, the identity and a singular one (item 1).
	sing, _ := tf.Zeros[float64](2, 3, 3)
	for i := range 3 {
		sing.Set(1, 0, i, i)
	}
	sing.Set(1, 1, 0, 0)
	zero := writeIn(t, dir, "zero", sing)
	negI, _ := tf.FromSlice([]complex128{-1, 0, 0, -1}, 2, 2)
	neg := writeIn(t, dir, "neg", negI)
	nan, _ := tf.FromSlice([]float32{1, float32(math.NaN()), 0, 1}, 2, 2)
	fnan := writeIn(t, dir, "nan", nan)
	ints := filepath.Join(dir, "ints.npy")
	if err := npy.WriteFile(ints, []int{2, 2}, []int64{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	junk := filepath.Join(dir, "junk.npy")
	if err := os.WriteFile(junk, []byte("not a npy file"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := filepath.Join(dir, "out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate", "-o", o, a}, "unknown operation"},
		{[]string{"det", "-o", o, filepath.Join(dir, "missing.npy")}, "no such file"},
		{[]string{"det", "-o", o, junk}, "npy"},
		{[]string{"det", "-o", o, ints}, "dtype i64"},
		{[]string{"det", "-o", o, wide}, "square"},
		{[]string{"inv", "-o", o, v}, "square"},
		{[]string{"cholesky", "-o", o, wide}, "square"},
		{[]string{"solve", "-o", o, a, wide}, "shape"},
		{[]string{"inv", "-o", o, zero}, "batch item (1)"},
		{[]string{"solve", "-o", o, zero, zero}, "singular"},
		{[]string{"cholesky", "-o", o, neg}, "positive definite"},
		{[]string{"lu", "-o", o, fnan}, "NaN"},
		{[]string{"det", "--bogus", "-o", o, a}, "bogus"},
		{[]string{"det", "--upper", "-o", o, a}, "does not apply"},
		{[]string{"qr", "--packed", "-o", o, a}, "does not apply"},
		{[]string{"cholesky", "--upper", "--lower", "-o", o, a}, "exclude"},
		{[]string{"qr", "--mode", "full", "-o", o, a}, "--mode"},
		{[]string{"lq", "--mode", "r", "-o", o, a}, "--mode"},
		{[]string{"det", a}, "-o"},
		{[]string{"det", "-o", o}, "input file"},
		{[]string{"solve", "-o", o, a}, "input file"},
		{[]string{"det", "-o", o, a, a}, "input file"},
		{[]string{"det", "--threads", "0", "-o", o, a}, "--threads"},
		{[]string{"eigh", "-o", o, wide}, "square"},
		{[]string{"eigh", "--full", "-o", o, a}, "does not apply"},
		{[]string{"svd", "--max-rank", "1", "-o", o, zero}, "single matrix"},
		{[]string{"svd", "--max-rank", "0", "-o", o, a}, "--max-rank"},
		{[]string{"svd", "--cutoff", "x", "-o", o, a}, "--cutoff"},
		{[]string{"svd", "--values-only", "--full", "-o", o, a}, "excludes"},
		{[]string{"svd", "--full", "--max-rank", "2", "-o", o, a}, "excludes"},
		{[]string{"svd", "-o", o, v}, "shape"},
		{[]string{"pinv", "--rcond", "nan", "-o", o, a}, "--rcond"},
		{[]string{"lstsq", "-o", o, a, wide}, "shape"},
		{[]string{"lstsq", "-o", o, v, v}, "matrix"},
		{[]string{"norm", "--ord", "3", "-o", o, a}, "--ord"},
		{[]string{"cond", "--ord", "1", "-o", o, wide}, "square"},
		{[]string{"det", "--ord", "1", "-o", o, a}, "does not apply"},
		{[]string{"solve_triangular", "-o", o, zero, zero}, "singular"},
		{[]string{"cholesky_solve", "--right", "-o", o, a, a}, "does not apply"},
		{[]string{"solve_triangular", "--right", "-o", o, a, v}, "shape"},
		{[]string{"matrix_rank", "--atol", "-1", "-o", o, a}, "--atol"},
		{[]string{"qr", "--pivoting", "--mode", "r", "-o", o, a}, "--pivoting"},
	} {
		code, out, errs := runCLI(t, append([]string{"linalg"}, c.args...)...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "tenferro linalg ") || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q (want one line with %q)", c.args, code, out, errs, c.want)
		}
		if !strings.HasPrefix(errs, "tenferro linalg "+c.args[0]+": ") {
			t.Errorf("%v: stderr %q does not name the operation", c.args, errs)
		}
	}
	if entries, _ := filepath.Glob(o + ".*"); len(entries) > 0 {
		t.Errorf("failed runs wrote %v", entries)
	}
	code, _, errs := runCLI(t, "linalg", "det", "-o", filepath.Join(dir, "no", "such", "dir", "out"), a)
	if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "cannot write") {
		t.Errorf("unwritable output: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := runCLI(t, "linalg"); code != 2 || !strings.Contains(errs, "usage") {
		t.Errorf("no operation: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(t, "linalg", "qr", "-h"); code != 0 || !strings.Contains(errs, "-positive") {
		t.Errorf("-h: exit %d, %q", code, errs)
	}
}
