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
	"gonum.org/v1/gonum/mat"
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

func TestLinalgCmdQR(t *testing.T) {
	t.Run("f32", testLinalgCmdQR[float32])
	t.Run("f64", testLinalgCmdQR[float64])
	t.Run("c64", testLinalgCmdQR[complex64])
	t.Run("c128", testLinalgCmdQR[complex128])
}

// testLinalgCmdQR checks qr and lq in every mode on tall, wide and square
// matrices and batches: A = Q·R (L·Q), orthonormal Q, triangular R (L),
// the shapes of numpy.linalg.qr, and a non-negative diagonal with
// --positive.
func testLinalgCmdQR[T tf.Scalar](t *testing.T) {
	eps, _ := epsOf[T]()
	dt := tf.DTypeOf[T]()
	dir := t.TempDir()
	pre := filepath.Join(dir, "out")
	out := func(name string) []cm { return numpyMats(t, readOut(t, pre, name, dt), false) }
	for si, shape := range [][]int{{0, 3}, {1, 1}, {7, 4}, {4, 7}, {13, 13}, {3, 5, 2}, {2, 2, 2, 6}} {
		r := len(shape)
		m, n := shape[r-2], shape[r-1]
		k := min(m, n)
		tol := 30 * float64(max(m, n)+1) * eps
		a := drawNumPy[T](uint64(si+1), rhsIn, shape...)
		fa := writeIn(t, dir, "a", a)
		am := numpyMats(t, c128(t, a), false)
		for _, mode := range []string{"reduced", "complete", "tri"} {
			for _, pos := range []bool{false, true} {
				name := fmt.Sprint(shape, mode, pos)
				// qr: Q (m, k|m), R (k|m, n); lq: L (m, k|n), Q (k|n, n).
				for _, lq := range []bool{false, true} {
					op, tri, uni := "qr", "r", "q"
					if lq {
						op, tri = "lq", "l"
					}
					args := []string{op, "-o", pre, fa}
					if mode == "tri" {
						args = append(args, "--mode", tri)
					} else {
						args = append(args, "--mode", mode)
					}
					if pos {
						args = append(args, "--positive")
					}
					os.Remove(pre + ".q.npy")
					runLinalg(t, args...)
					ts := out(tri)
					for q := range am {
						f := ts[q]
						wantRows, wantCols := k, n
						if lq {
							wantRows, wantCols = m, k
						}
						if mode == "complete" {
							if lq {
								wantCols = n
							} else {
								wantRows = m
							}
						}
						if f.m != wantRows || f.n != wantCols || !triangular(f, !lq) {
							t.Fatalf("%s %s: %s is %dx%d (want %dx%d), triangular %v", op, name, tri, f.m, f.n, wantRows, wantCols, triangular(f, !lq))
						}
						for i := range min(f.m, f.n) {
							if d := f.at(i, i); pos && (real(d) < 0 || imag(d) != 0) {
								t.Errorf("%s %s: %s[%d, %d] = %v with --positive", op, name, tri, i, i, d)
							}
						}
					}
					if mode == "tri" {
						if _, err := os.Stat(pre + ".q.npy"); err == nil {
							t.Errorf("%s %s: wrote Q with --mode %s", op, name, tri)
						}
						continue
					}
					for q, u := range out(uni) {
						var prod cm
						var ortho float64
						if lq {
							prod, ortho = cmMul(ts[q], u), cmOrtho(cmAdj(u))
						} else {
							prod, ortho = cmMul(u, ts[q]), cmOrtho(u)
						}
						if res := cmRel(cmDiff(prod, am[q]), cmFro(am[q])); res > tol || ortho > tol {
							t.Errorf("%s %s item %d: ‖A − QR‖/‖A‖ = %g, orthogonality %g", op, name, q, res, ortho)
						}
					}
				}
			}
		}
	}
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

// linalgNumPyScript writes the inputs of each case (mode "gen": NumPy
// random arrays, batch axes first, in the case's memory order) or checks
// the CLI's outputs against numpy.linalg (mode "check"): the dtype, the
// shape and C order of every file, and values within 100·n·eps of NumPy's
// (relative to the operands' scale) for the unique results, and by
// reconstruction (Q·R = A, L·Q = A, P·L·U = A) where the factors depend
// on a gauge. It prints {name: "ok" or a message}.
const linalgNumPyScript = `
import json, sys, glob, os
import numpy as np
cfg = json.load(sys.stdin)
rng = np.random.default_rng(3)
res = {}
def draw(shape, dt, kind):
    x = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    if kind == "hermitian":
        x = (x + np.conj(np.swapaxes(x, -1, -2))) / 2
    elif kind == "spd":
        x = x @ np.conj(np.swapaxes(x, -1, -2)) + shape[-1] * np.eye(shape[-1])
    elif kind == "general":
        x = x + np.sqrt(shape[-1]) * np.eye(shape[-2], shape[-1])
    return x.astype(dt)
for c in cfg["cases"]:
    base = os.path.join(cfg["dir"], c["name"])
    if cfg["mode"] == "gen":
        for k, i in enumerate(c["inputs"]):
            np.save("%s_in%d.npy" % (base, k), np.array(draw(tuple(i["shape"]), i["dtype"], i["kind"]), order=i["order"]))
        continue
    ins = [np.load("%s_in%d.npy" % (base, k)) for k in range(len(c["inputs"]))]
    out = {os.path.basename(f)[len(c["name"]) + 5:-4]: np.load(f) for f in glob.glob(base + "_out.*.npy")}
    a = ins[0]
    eps = np.finfo(np.result_type(*ins)).eps
    n = max(a.shape[-2:]) if a.ndim >= 2 else 1
    tol = 100 * (n + 1) * eps
    sc = lambda x: max(np.max(np.abs(x)), 1e-300) if x.size else 1
    def close(got, want, scale):
        if got.shape != want.shape:
            return "shape %s, want %s" % (got.shape, want.shape)
        if got.dtype != want.dtype:
            return "dtype %s, want %s" % (got.dtype, want.dtype)
        err = np.max(np.abs(got - want)) if got.size else 0
        return "ok" if err <= tol * scale else "error %g > %g" % (err, tol * scale)
    op, msgs, c["flags"] = c["op"], [], c["flags"] or []
    for k, v in out.items():
        if v.ndim >= 2 and not v.flags["C_CONTIGUOUS"]:
            msgs.append(k + " not C-contiguous")
    try:
        if op == "solve":
            # NumPy 2's rule (only a 1-D b is a vector), whatever NumPy runs.
            b = ins[1][:, None] if ins[1].ndim == 1 else ins[1]
            r = max(a.ndim, b.ndim)
            a2, b2 = a.reshape((1,) * (r - a.ndim) + a.shape), b.reshape((1,) * (r - b.ndim) + b.shape)
            want = np.linalg.solve(a2, b2)
            if ins[1].ndim == 1:
                want = want[..., 0]
            msgs.append(close(out["x"], want, sc(out["x"]) * sc(a) * n))
        elif op == "cholesky":
            msgs.append(close(out["l"], np.linalg.cholesky(a), sc(a) ** 0.5))
        elif op == "inv":
            msgs.append(close(out["inv"], np.linalg.inv(a), sc(out["inv"])))
        elif op == "det":
            d = np.linalg.det(a)
            msgs.append(close(out["det"], d, sc(d)))
        elif op == "slogdet":
            s, l = np.linalg.slogdet(a)
            msgs.append(close(out["sign"], s, 1))
            msgs.append(close(out["logabs"], l, sc(l)))
        elif op in ("qr", "lq"):
            mode = c["flags"][1] if c["flags"] else "reduced"
            x = a if op == "qr" else np.conj(np.swapaxes(a, -1, -2))
            want = np.linalg.qr(x, mode={"l": "r"}.get(mode, mode))
            wr = want if mode in ("r", "l") else want[1]
            tri = out["r" if op == "qr" else "l"]
            if op == "lq":
                tri = np.conj(np.swapaxes(tri, -1, -2))
            d = lambda r: np.abs(np.diagonal(r, axis1=-2, axis2=-1))
            msgs.append(close(d(tri).astype(wr.real.dtype), d(wr).astype(wr.real.dtype), sc(a)))
            if mode not in ("r", "l"):
                prod = out["q"] @ out["r"] if op == "qr" else out["l"] @ out["q"]
                msgs.append(close(prod, a, sc(a) * n))
                wq = want[0].shape if op == "qr" else want[0].shape[:-2] + want[0].shape[-2:][::-1]
                msgs.append("ok" if out["q"].shape == wq else "q shape %s, want %s" % (out["q"].shape, wq))
        elif op == "lu":
            msgs.append(close(out["p"] @ out["l"] @ out["u"], a, sc(a) * n))
        elif op == "svd":
            sv = np.linalg.svd(a, compute_uv=False)
            msgs.append(close(out["s"], sv, sc(sv)))
            if "u" in out:
                wu, _, wvh = np.linalg.svd(a, full_matrices="--full" in c["flags"])
                msgs.append("ok" if out["u"].shape == wu.shape and out["vh"].shape == wvh.shape else "shapes %s %s, want %s %s" % (out["u"].shape, out["vh"].shape, wu.shape, wvh.shape))
                kk = sv.shape[-1]
                msgs.append(close((out["u"][..., :kk] * out["s"][..., None, :]) @ out["vh"][..., :kk, :], a, sc(a) * n))
        elif op == "eigh":
            uplo = "U" if "--upper" in c["flags"] else "L"
            w = np.linalg.eigvalsh(a, UPLO=uplo)
            msgs.append(close(out["w"], w, sc(w)))
            if "v" in out:
                h = np.linalg.eigh(a, UPLO=uplo)[1]
                msgs.append(close(a @ out["v"], out["v"] * out["w"][..., None, :], sc(a) * n) if out["v"].shape == h.shape else "v shape %s" % (out["v"].shape,))
        elif op == "lstsq":
            xs = [np.linalg.lstsq(x, y, rcond=None) for x, y in zip(a.reshape((-1,) + a.shape[-2:]), ins[1].reshape((-1,) + ins[1].shape[-2:]))]
            want = np.stack([x[0] for x in xs]).reshape(out["x"].shape)
            msgs.append(close(out["x"], want, sc(want) * n))
            msgs.append("ok" if np.array_equal(out["rank"], np.array([x[2] for x in xs]).reshape(a.shape[:-2])) else "rank %s" % out["rank"])
            msgs.append(close(out["s"], np.linalg.svd(a, compute_uv=False), sc(a) * n))
        elif op == "expm":
            try:
                import scipy.linalg as sl
            except ImportError:
                sl = None
            if sl is not None:
                want = sl.expm(a)
                msgs.append(close(out["expm"], want, sc(want) * n))
        elif op == "norm":
            o = c["flags"][1]
            o = {"fro": "fro", "nuc": "nuc", "inf": np.inf, "-inf": -np.inf}.get(o) or int(o)
            want = np.linalg.norm(a, o, axis=(-2, -1))
            msgs.append(close(out["norm"], want.astype(out["norm"].dtype), sc(a) * n))
        elif op == "cond":
            want = np.linalg.cond(a)
            msgs.append(close(out["cond"], want.astype(out["cond"].dtype), sc(want) * 10))
        elif op == "matrix_rank":
            want = np.linalg.matrix_rank(a)
            msgs.append("ok" if np.array_equal(out["rank"], want) else "rank %s, want %s" % (out["rank"], want))
        elif op == "pinv":
            msgs.append(close(out["pinv"], np.linalg.pinv(a), sc(out["pinv"]) * n))
    except Exception as e:
        msgs.append("%s: %s" % (type(e).__name__, e))
    bad = [m for m in msgs if m != "ok"]
    res[c["name"]] = "; ".join(bad) if bad else "ok"
print(json.dumps(res))
`

// linalgNumPyCase is one end-to-end case of TestLinalgCmdNumPy.
type linalgNumPyCase struct {
	Name   string   `json:"name"`
	Op     string   `json:"op"`
	Flags  []string `json:"flags"`
	Inputs []struct {
		Shape []int  `json:"shape"`
		DType string `json:"dtype"`
		Kind  string `json:"kind"`
		Order string `json:"order"`
	} `json:"inputs"`
}

// TestLinalgCmdNumPy runs every operation on files NumPy wrote (C and
// Fortran order, batch axes first) and checks the results with NumPy.
func TestLinalgCmdNumPy(t *testing.T) {
	if !numpyOK() {
		t.Skip(pythonPath + " lacks numpy")
	}
	type in = struct {
		Shape []int  `json:"shape"`
		DType string `json:"dtype"`
		Kind  string `json:"kind"`
		Order string `json:"order"`
	}
	var cases []linalgNumPyCase
	add := func(op string, flags []string, ins ...in) {
		cases = append(cases, linalgNumPyCase{Name: fmt.Sprintf("c%d_%s", len(cases), op), Op: op, Flags: flags, Inputs: ins})
	}
	for i, dt := range []string{"float32", "float64", "complex64", "complex128"} {
		order := []string{"C", "F"}[i%2]
		add("solve", nil, in{[]int{2, 3, 6, 6}, dt, "general", order}, in{[]int{3, 6, 2}, dt, "plain", "C"})
		add("solve", nil, in{[]int{5, 5}, dt, "general", "C"}, in{[]int{5}, dt, "plain", "C"})
		add("cholesky", nil, in{[]int{3, 7, 7}, dt, "spd", order})
		add("inv", nil, in{[]int{4, 9, 9}, dt, "general", order})
		add("det", nil, in{[]int{2, 2, 5, 5}, dt, "general", order})
		add("det", nil, in{[]int{6, 6}, dt, "general", "C"})
		add("slogdet", nil, in{[]int{3, 8, 8}, dt, "general", order})
		add("lu", nil, in{[]int{3, 6, 6}, dt, "general", order})
		for _, mode := range []string{"reduced", "complete", "r"} {
			add("qr", []string{"--mode", mode}, in{[]int{2, 9, 4}, dt, "plain", order})
			add("qr", []string{"--mode", mode}, in{[]int{4, 9}, dt, "plain", "C"})
			lm := map[string]string{"r": "l"}[mode]
			if lm == "" {
				lm = mode
			}
			add("lq", []string{"--mode", lm}, in{[]int{3, 4, 7}, dt, "plain", order})
		}
		for _, flags := range [][]string{nil, {"--full"}, {"--values-only"}} {
			add("svd", flags, in{[]int{2, 8, 5}, dt, "plain", order})
			add("svd", flags, in{[]int{5, 8}, dt, "plain", "C"})
		}
		for _, flags := range [][]string{nil, {"--upper"}, {"--values-only"}} {
			add("eigh", flags, in{[]int{3, 7, 7}, dt, "hermitian", order})
		}
		add("lstsq", nil, in{[]int{2, 9, 4}, dt, "plain", order}, in{[]int{2, 9, 3}, dt, "plain", "C"})
		add("lstsq", nil, in{[]int{4, 9}, dt, "plain", "C"}, in{[]int{4, 2}, dt, "plain", order})
		add("pinv", nil, in{[]int{2, 3, 6, 4}, dt, "plain", order})
		add("expm", nil, in{[]int{3, 6, 6}, dt, "plain", order})
		for _, o := range []string{"fro", "nuc", "1", "-1", "2", "-2", "inf", "-inf"} {
			add("norm", []string{"--ord", o}, in{[]int{2, 7, 5}, dt, "plain", order})
		}
		add("cond", nil, in{[]int{2, 7, 5}, dt, "plain", order})
		add("matrix_rank", nil, in{[]int{3, 4, 6}, dt, "plain", order})
	}
	add("solve", nil, in{[]int{4, 4}, "float32", "general", "C"}, in{[]int{4, 2}, "complex128", "plain", "F"})
	dir := t.TempDir()
	runNumpyDir := func(mode string) map[string]string {
		return runNumpy(t, linalgNumPyScript, map[string]any{"mode": mode, "dir": dir, "cases": cases})
	}
	runNumpyDir("gen")
	for _, c := range cases {
		args := append([]string{c.Op, "-o", filepath.Join(dir, c.Name+"_out")}, c.Flags...)
		for k := range c.Inputs {
			args = append(args, filepath.Join(dir, fmt.Sprintf("%s_in%d.npy", c.Name, k)))
		}
		runLinalg(t, args...)
	}
	res := runNumpyDir("check")
	for _, c := range cases {
		if r := res[c.Name]; r != "ok" {
			t.Errorf("%s %v %v: %s", c.Op, c.Flags, c.Inputs, r)
		}
	}
}

func TestLinalgCmdSpectral(t *testing.T) {
	t.Run("f32", testLinalgCmdSpectral[float32])
	t.Run("f64", testLinalgCmdSpectral[float64])
	t.Run("c64", testLinalgCmdSpectral[complex64])
	t.Run("c128", testLinalgCmdSpectral[complex128])
}

// testLinalgCmdSpectral checks svd (thin, full, values alone, truncated),
// pinv (the four Penrose conditions) and lstsq (X = A⁺·B, rank and
// singular values) on tall, wide and square matrices and batches, and
// eigh (both triangles, values alone) on Hermitian ones; the singular and
// eigenvalues of float64 inputs also against gonum.
func testLinalgCmdSpectral[T tf.Scalar](t *testing.T) {
	eps, _ := epsOf[T]()
	dt, rdt := tf.DTypeOf[T](), tf.DTypeOf[T]().Real()
	dir := t.TempDir()
	pre := filepath.Join(dir, "out")
	outT := func(name string, d tf.DType) []cm { return numpyMats(t, readOut(t, pre, name, d), false) }
	vecs := func(name string, d tf.DType) []cm { return numpyMats(t, readOut(t, pre, name, d), true) }
	for si, shape := range [][]int{{0, 3}, {1, 1}, {7, 4}, {4, 7}, {13, 13}, {3, 5, 2}, {2, 2, 2, 6}} {
		r := len(shape)
		m, n := shape[r-2], shape[r-1]
		k := min(m, n)
		tol := 30 * float64(max(m, n)+1) * eps
		name := fmt.Sprint(shape)
		a := drawNumPy[T](uint64(si+1), rhsIn, shape...)
		bshape := append(slices.Clone(shape[:r-1]), 3)
		b := drawNumPy[T](uint64(si+31), rhsIn, bshape...)
		fa, fb := writeIn(t, dir, "a", a), writeIn(t, dir, "b", b)
		am, bm := numpyMats(t, c128(t, a), false), numpyMats(t, c128(t, b), false)

		runLinalg(t, "svd", "-o", pre, fa)
		us, ss, vhs := outT("u", dt), vecs("s", rdt), outT("vh", dt)
		for q := range am {
			s := ss[q]
			if us[q].m != m || us[q].n != k || s.m != k || vhs[q].m != k || vhs[q].n != n {
				t.Fatalf("%s svd: U %dx%d, S %d, Vᴴ %dx%d", name, us[q].m, us[q].n, s.m, vhs[q].m, vhs[q].n)
			}
			us2 := cmMul(us[q], diagCM(s))
			if res := cmRel(cmDiff(cmMul(us2, vhs[q]), am[q]), cmFro(am[q])); res > tol || cmOrtho(us[q]) > tol || cmOrtho(cmAdj(vhs[q])) > tol {
				t.Errorf("%s svd item %d: residual %g, ‖UᴴU − I‖ %g, ‖VᴴV − I‖ %g", name, q, res, cmOrtho(us[q]), cmOrtho(cmAdj(vhs[q])))
			}
			for i := range k {
				if imag(s.d[i]) != 0 || real(s.d[i]) < 0 || i > 0 && real(s.d[i]) > real(s.d[i-1]) {
					t.Errorf("%s svd item %d: S %v not descending and ≥ 0", name, q, s.d)
					break
				}
			}
			if dt == tf.Float64 && k > 0 {
				var g mat.SVD
				if !g.Factorize(denseOf(am[q]), mat.SVDNone) {
					t.Fatal("gonum SVD failed")
				}
				for i, v := range g.Values(nil) {
					if math.Abs(v-real(s.d[i])) > tol*real(s.d[0]) {
						t.Errorf("%s svd item %d: σ%d = %v, gonum %v", name, q, i, real(s.d[i]), v)
					}
				}
			}
		}
		checkNorms(t, name, pre, fa, am, ss, tol, dt)
		runLinalg(t, "qr", "--pivoting", "-o", pre, fa)
		perms := numpyMats(t, readOut(t, pre, "perm", tf.Int64), true)
		for q, qq := range outT("q", dt) {
			rr, p := outT("r", dt)[q], perms[q]
			ap := newCM(m, n)
			seen := make([]bool, n)
			for j := range n {
				c := int(real(p.d[j]))
				if c < 0 || c >= n || seen[c] {
					t.Fatalf("%s qr --pivoting item %d: perm %v", name, q, p.d)
				}
				seen[c] = true
				for i := range m {
					ap.set(i, j, am[q].at(i, c))
				}
			}
			res := cmRel(cmDiff(cmMul(qq, rr), ap), cmFro(am[q]))
			for j := 1; j < k; j++ {
				if cmplx.Abs(rr.at(j, j)) > cmplx.Abs(rr.at(j-1, j-1))*(1+tol) {
					t.Errorf("%s qr --pivoting item %d: |R[%d, %d]| increases", name, q, j, j)
				}
			}
			if res > tol || cmOrtho(qq) > tol || !triangular(rr, true) {
				t.Errorf("%s qr --pivoting item %d: ‖A[:, perm] − QR‖/‖A‖ = %g, orthogonality %g", name, q, res, cmOrtho(qq))
			}
		}
		runLinalg(t, "svd", "--full", "-o", pre, fa)
		for q, u := range outT("u", dt) {
			vh := outT("vh", dt)[q]
			if u.m != m || u.n != m || vh.m != n || vh.n != n || cmOrtho(u) > tol || cmOrtho(vh) > tol {
				t.Errorf("%s svd --full item %d: U %dx%d, Vᴴ %dx%d, orthogonality %g, %g", name, q, u.m, u.n, vh.m, vh.n, cmOrtho(u), cmOrtho(vh))
			}
		}
		runLinalg(t, "svd", "--values-only", "-o", pre, fa)
		for q, s := range vecs("s", rdt) {
			if d := cmDiff(s, ss[q]); d > tol*cmFro(ss[q]) {
				t.Errorf("%s svd --values-only item %d: %v, the thin SVD's %v", name, q, s.d, ss[q].d)
			}
		}
		if r == 2 {
			runLinalg(t, "svd", "--max-rank", "2", "-o", pre, fa)
			u, s, vh := outT("u", dt)[0], vecs("s", rdt)[0], outT("vh", dt)[0]
			kk := min(k, 2)
			if u.m != m || u.n != kk || s.m != kk || vh.m != kk || vh.n != n || cmDiff(s, cm{kk, 1, ss[0].d[:kk]}) > tol*cmFro(ss[0]) {
				t.Errorf("%s svd --max-rank 2: U %dx%d, S %v, Vᴴ %dx%d", name, u.m, u.n, s.d, vh.m, vh.n)
			}
		}

		runLinalg(t, "pinv", "-o", pre, fa)
		ps := outT("pinv", dt)
		for q, p := range ps {
			a := am[q]
			ap := cmMul(a, p)
			pa := cmMul(p, a)
			sc := cmFro(a) * cmFro(p)
			errs := []float64{cmRel(cmDiff(cmMul(ap, a), a), cmFro(a)*sc), cmRel(cmDiff(cmMul(pa, p), p), cmFro(p)*sc),
				cmRel(cmDiff(cmAdj(ap), ap), sc), cmRel(cmDiff(cmAdj(pa), pa), sc)}
			if p.m != n || p.n != m || slices.Max(errs) > tol {
				t.Errorf("%s pinv item %d: %dx%d, Penrose residuals %v", name, q, p.m, p.n, errs)
			}
		}
		runLinalg(t, "lstsq", "-o", pre, fa, fb)
		ranks := scalars(t, readOut(t, pre, "rank", tf.Int64))
		for q, x := range outT("x", dt) {
			want := cmMul(ps[q], bm[q])
			if d := cmDiff(x, want); d > tol*(cmFro(ps[q])*cmFro(bm[q])+1e-300) || ranks[q] != complex(float64(k), 0) {
				t.Errorf("%s lstsq item %d: ‖X − A⁺B‖ = %g, rank %v", name, q, d, ranks[q])
			}
		}
		for q, s := range vecs("s", rdt) {
			if cmDiff(s, ss[q]) > tol*cmFro(ss[q]) {
				t.Errorf("%s lstsq item %d: s %v, svd's %v", name, q, s.d, ss[q].d)
			}
		}

		if m != n {
			continue
		}
		h := drawNumPy[T](uint64(si+61), hermitianIn, shape...)
		fh := writeIn(t, dir, "h", h)
		hm := numpyMats(t, c128(t, h), false)
		for _, args := range [][]string{nil, {"--upper"}, {"--lower"}} {
			runLinalg(t, append([]string{"eigh", "-o", pre, fh}, args...)...)
			ws, vs := vecs("w", rdt), outT("v", dt)
			runLinalg(t, append([]string{"eigh", "--values-only", "-o", pre, fh}, args...)...)
			wv := vecs("w", rdt)
			for q, hq := range hm {
				w, v := ws[q], vs[q]
				res := cmRel(cmDiff(cmMul(hq, v), cmMul(v, diagCM(w))), cmFro(hq))
				if res > tol || cmOrtho(v) > tol || cmDiff(w, wv[q]) > tol*cmFro(w) {
					t.Errorf("%s eigh %v item %d: ‖HV − VW‖/‖H‖ = %g, orthogonality %g, values alone differ by %g", name, args, q, res, cmOrtho(v), cmDiff(w, wv[q]))
				}
				for i := 1; i < n; i++ {
					if real(w.d[i]) < real(w.d[i-1]) {
						t.Errorf("%s eigh item %d: W %v not ascending", name, q, w.d)
						break
					}
				}
				if dt == tf.Float64 && n > 0 {
					var es mat.EigenSym
					if !es.Factorize(mat.NewSymDense(n, denseOf(hq).RawMatrix().Data), false) {
						t.Fatal("gonum EigenSym failed")
					}
					for i, g := range es.Values(nil) {
						if math.Abs(g-real(w.d[i])) > tol*cmFro(hq) {
							t.Errorf("%s eigh item %d: λ%d = %v, gonum %v", name, q, i, real(w.d[i]), g)
						}
					}
				}
			}
		}
	}
}

// checkNorms runs norm in every order, cond (2-norm) and matrix_rank on
// the file fa holding the matrices am, whose singular values ss the svd
// command returned, and checks them against sums of moduli computed here
// and against the singular values.
func checkNorms(t *testing.T, name, pre, fa string, am, ss []cm, tol float64, dt tf.DType) {
	t.Helper()
	sums := func(a cm, cols bool) []float64 {
		var v []float64
		outer, inner := a.m, a.n
		if cols {
			outer, inner = a.n, a.m
		}
		for o := range outer {
			s := 0.0
			for i := range inner {
				if cols {
					s += cmplx.Abs(a.at(i, o))
				} else {
					s += cmplx.Abs(a.at(o, i))
				}
			}
			v = append(v, s)
		}
		return v
	}
	ext := func(v []float64, big bool) float64 {
		if len(v) == 0 {
			return 0
		}
		if big {
			return slices.Max(v)
		}
		return slices.Min(v)
	}
	sv := func(s cm, i int) float64 {
		if s.m == 0 {
			return 0
		}
		return real(s.d[(i+s.m)%s.m])
	}
	for _, c := range []struct {
		ord  string
		want func(a, s cm) float64
	}{
		{"fro", func(a, _ cm) float64 { return cmFro(a) }},
		{"nuc", func(_, s cm) float64 { return real(sumCM(s)) }},
		{"1", func(a, _ cm) float64 { return ext(sums(a, true), true) }},
		{"-1", func(a, _ cm) float64 { return ext(sums(a, true), false) }},
		{"2", func(_, s cm) float64 { return sv(s, 0) }},
		{"-2", func(_, s cm) float64 { return sv(s, -1) }},
		{"inf", func(a, _ cm) float64 { return ext(sums(a, false), true) }},
		{"-inf", func(a, _ cm) float64 { return ext(sums(a, false), false) }},
	} {
		runLinalg(t, "norm", "--ord", c.ord, "-o", pre, fa)
		for q, got := range scalars(t, readOut(t, pre, "norm", dt.Real())) {
			if want := c.want(am[q], ss[q]); math.Abs(real(got)-want) > tol*(cmFro(am[q])+1e-300) {
				t.Errorf("%s norm --ord %s item %d: %v, want %v", name, c.ord, q, real(got), want)
			}
		}
	}
	runLinalg(t, "cond", "-o", pre, fa)
	for q, got := range scalars(t, readOut(t, pre, "cond", dt.Real())) {
		if want := sv(ss[q], 0) / sv(ss[q], -1); ss[q].m > 0 && math.Abs(real(got)-want) > 10*tol*want {
			t.Errorf("%s cond item %d: %v, want σ₀/σₖ₋₁ = %v", name, q, real(got), want)
		}
	}
	runLinalg(t, "matrix_rank", "-o", pre, fa)
	for q, got := range scalars(t, readOut(t, pre, "rank", tf.Int64)) {
		if want := ss[q].m; got != complex(float64(want), 0) {
			t.Errorf("%s matrix_rank item %d: %v, want %d", name, q, got, want)
		}
	}
}

func sumCM(a cm) complex128 {
	var s complex128
	for _, v := range a.d {
		s += v
	}
	return s
}

// diagCM is the diagonal matrix of the vector (k×1) s.
func diagCM(s cm) cm {
	d := newCM(s.m, s.m)
	for i := range s.m {
		d.set(i, i, s.d[i])
	}
	return d
}

// denseOf is the real part of a as a gonum matrix.
func denseOf(a cm) *mat.Dense {
	d := mat.NewDense(max(a.m, 1), max(a.n, 1), nil)
	for i := range a.m {
		for j := range a.n {
			d.Set(i, j, real(a.at(i, j)))
		}
	}
	return d
}
