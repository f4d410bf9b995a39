package lapack

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// withQRBlock runs f with QRBlock and QRLeaf set, then restores them.
func withQRBlock(nb, leaf int, f func()) {
	b0, l0 := QRBlock, QRLeaf
	QRBlock, QRLeaf = nb, leaf
	defer func() { QRBlock, QRLeaf = b0, l0 }()
	f()
}

// upperR returns the k×n upper trapezoid of a.
func upperR[T Scalar](a testMat[T], k int) dense128 {
	r := newDense(k, a.c)
	for j := 0; j < a.c; j++ {
		for i := 0; i <= min(j, k-1); i++ {
			r.set(i, j, a.c128(i, j))
		}
	}
	return r
}

// lowerL returns the m×k lower trapezoid of a.
func lowerL[T Scalar](a testMat[T], k int) dense128 {
	l := newDense(a.r, k)
	for j := 0; j < k; j++ {
		for i := j; i < a.r; i++ {
			l.set(i, j, a.c128(i, j))
		}
	}
	return l
}

// orthErr returns ‖Qᴴ·Q − I‖ for the columns of q.
func orthErr(q dense128) float64 {
	e := mul(q.op(ConjTrans), q)
	for i := 0; i < e.r; i++ {
		e.set(i, i, e.at(i, i)-1)
	}
	return e.norm()
}

// reflCols returns an r×c test matrix in layout l whose first k columns are
// those of a (the reflectors), the rest random.
func reflCols[T Scalar](rng *rand.Rand, a testMat[T], r, c, k int, l layout) testMat[T] {
	return newMat[T](r, c, l, func(i, j int) complex128 {
		if j < k {
			return a.c128(i, j)
		}
		return rnd[T](rng)
	})
}

// checkQR checks a Geqrf result a, tau of ref: R, the thin and full Q from
// Orgqr, A = Q·R, orthogonality, Ormqr against the explicit Q for both
// sides and ops, and the positive-diagonal gauge.
func checkQR[T Scalar](t *testing.T, rng *rand.Rand, ws *Workspace, name string, ref dense128, a testMat[T], tau []T) {
	t.Helper()
	m, n := ref.r, ref.c
	k := min(m, n)
	ep := eps[T]()
	tol := 8 * float64(max(m, n, 1)) * ep
	rr := upperR(a, k)
	q := reflCols(rng, a, m, k, k, layout((m+n)%int(nLayouts)))
	Orgqr(ws, nil, m, k, k, q.Mat, tau)
	checkGuards(t, q)
	qd := toDense(q)
	if res := sub(ref, mul(qd, rr)).norm(); !(res <= tol*ref.norm()) {
		t.Fatalf("%s: ‖A − QR‖/‖A‖ = %.3g > %.3g", name, res/ref.norm(), tol)
	}
	if res := orthErr(qd); !(res <= tol) {
		t.Fatalf("%s: ‖QᴴQ − I‖ = %.3g > %.3g", name, res, tol)
	}
	qf := reflCols(rng, a, m, m, k, layout((m+n+1)%int(nLayouts)))
	Ungqr(ws, nil, m, m, k, qf.Mat, tau)
	checkGuards(t, qf)
	qfd := toDense(qf)
	if res := orthErr(qfd); !(res <= tol) {
		t.Fatalf("%s: full ‖QᴴQ − I‖ = %.3g > %.3g", name, res, tol)
	}
	for j := 0; j < k; j++ {
		for i := 0; i < m; i++ {
			if d := cmplx.Abs(qfd.at(i, j) - qd.at(i, j)); !(d <= tol) {
				t.Fatalf("%s: full Q(%d,%d) = %v, thin %v", name, i, j, qfd.at(i, j), qd.at(i, j))
			}
		}
	}
	for _, side := range []Side{Left, Right} {
		for _, op := range []Op{NoTrans, ConjTrans, Trans} {
			nc := 1 + (m+int(op))%5
			cm, cn := m, nc
			if side == Right {
				cm, cn = nc, m
			}
			c := newMat[T](cm, cn, layout((cm+int(op)+int(side))%int(nLayouts)), func(i, j int) complex128 { return rnd[T](rng) })
			c0 := toDense(c)
			a0 := append([]T(nil), a.Data...)
			f := Ormqr[T]
			if op == Trans {
				f = Unmqr[T]
			}
			f(ws, nil, side, op, cm, cn, k, a.Mat, tau, c.Mat)
			checkGuards(t, c)
			for i := range a0 {
				if a0[i] != a.Data[i] && !(a0[i] != a0[i]) {
					t.Fatalf("%s: Ormqr modified a", name)
				}
			}
			qop := qfd.op(op)
			if op == Trans {
				qop = qfd.op(ConjTrans)
			}
			var want dense128
			if side == Left {
				want = mul(qop, c0)
			} else {
				want = mul(c0, qop)
			}
			if res := sub(toDense(c), want).norm(); !(res <= tol*c0.norm()) {
				t.Fatalf("%s side=%d op=%d: Ormqr error %.3g", name, side, op, res/c0.norm())
			}
		}
	}
	// Gauge: diag(R) real and ≥ 0, Q·R unchanged.
	rg := newMat[T](k, n, transposed, func(i, j int) complex128 { return rr.at(i, j) })
	PositiveDiag(m, n, k, q.Mat, rg.Mat)
	checkGuards(t, q)
	checkGuards(t, rg)
	for i := 0; i < k; i++ {
		if d := rg.c128(i, i); imag(d) != 0 || real(d) < 0 {
			t.Fatalf("%s: gauged R(%d,%d) = %v", name, i, i, d)
		}
	}
	if res := sub(ref, mul(toDense(q), toDense(rg))).norm(); !(res <= tol*ref.norm()) {
		t.Fatalf("%s: gauged ‖A − QR‖/‖A‖ = %.3g > %.3g", name, res/ref.norm(), tol)
	}
}

func testGeqrf[T Scalar](t *testing.T, shapes [][2]int) {
	rng := rand.New(rand.NewPCG(47, uint64(len(shapes))))
	var ws Workspace
	for _, s := range shapes {
		m, n := s[0], s[1]
		for l := range nLayouts {
			name := fmt.Sprintf("%s m=%d n=%d %v nb=%d leaf=%d", typeName[T](), m, n, l, QRBlock, QRLeaf)
			ref := randDense[T](rng, m, n)
			a := store[T](ref, l)
			tau := make([]T, min(m, n)+2)
			tau[len(tau)-2], tau[len(tau)-1] = guard, guard
			Geqrf(&ws, nil, m, n, a.Mat, tau)
			checkGuards(t, a)
			if tau[len(tau)-2] != guard || tau[len(tau)-1] != guard {
				t.Fatalf("%s: tau guard overwritten", name)
			}
			checkQR(t, rng, &ws, name, ref, a, tau)
		}
	}
}

// qrShapes returns square, tall and wide shapes around the block size nb.
func qrShapes(nb int, extra ...int) [][2]int {
	sizes := append([]int{0, 1, 2, 3, 7, nb - 1, nb, nb + 1, 2*nb + 1}, extra...)
	var s [][2]int
	for _, n := range sizes {
		if n < 0 {
			continue
		}
		s = append(s, [2]int{n, n}, [2]int{n + 5, n}, [2]int{n, n + 4}, [2]int{2*n + 3, max(n/2, 1)})
	}
	return s
}

func TestGeqrf(t *testing.T) {
	for _, c := range []struct{ nb, leaf int }{{4, 2}, {8, 3}, {0, 8}} {
		extra := []int{31}
		if c.nb == 0 {
			extra = []int{31, 67, 131}
		}
		nb := c.nb
		if nb == 0 {
			nb = 32
		}
		withQRBlock(c.nb, c.leaf, func() {
			t.Run(fmt.Sprintf("nb=%d", c.nb), func(t *testing.T) {
				t.Run("float64", func(t *testing.T) { testGeqrf[float64](t, qrShapes(nb, extra...)) })
				t.Run("complex128", func(t *testing.T) { testGeqrf[complex128](t, qrShapes(nb, extra...)) })
				t.Run("float32", func(t *testing.T) { testGeqrf[float32](t, qrShapes(nb, extra...)) })
				t.Run("complex64", func(t *testing.T) { testGeqrf[complex64](t, qrShapes(nb, extra...)) })
			})
		})
	}
}

// TestGeqrfLarge runs the default blocking on 257-sized problems.
func TestGeqrfLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	t.Run("float64", func(t *testing.T) { testGeqrf[float64](t, [][2]int{{257, 257}, {300, 200}}) })
	t.Run("complex128", func(t *testing.T) { testGeqrf[complex128](t, [][2]int{{257, 260}}) })
	t.Run("float32", func(t *testing.T) { testGeqrf[float32](t, [][2]int{{257, 257}}) })
	t.Run("complex64", func(t *testing.T) { testGeqrf[complex64](t, [][2]int{{200, 257}}) })
}

// testQRSpecial factors zero, rank-deficient and badly scaled matrices.
func testQRSpecial[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(53, 1))
	var ws Workspace
	ep := eps[T]()
	withQRBlock(4, 2, func() {
		// Zero matrix: τ = 0, R = 0, Q = I.
		for _, s := range [][2]int{{9, 6}, {6, 9}} {
			m, n := s[0], s[1]
			ref := newDense(m, n)
			a := store[T](ref, padded)
			tau := make([]T, min(m, n))
			Geqrf(&ws, nil, m, n, a.Mat, tau)
			for i, v := range tau {
				if v != 0 {
					t.Fatalf("zero %dx%d: τ[%d] = %v", m, n, i, v)
				}
			}
			for _, v := range a.Data {
				if v != 0 && v != guard {
					t.Fatalf("zero %dx%d: factor entry %v", m, n, v)
				}
			}
			checkQR(t, rng, &ws, fmt.Sprintf("zero %dx%d", m, n), ref, a, tau)
		}
		// Rank deficient: rank-3 product, zero and repeated columns.
		m, n := 23, 17
		x, y := randDense[T](rng, m, 3), randDense[T](rng, 3, n)
		ref := mul(x, y)
		for i := 0; i < m; i++ {
			ref.set(i, 5, 0)
			ref.set(i, 9, ref.at(i, 2))
		}
		a := store[T](ref, transposed)
		tau := make([]T, n)
		Geqrf(&ws, nil, m, n, a.Mat, tau)
		checkQR(t, rng, &ws, "rank 3", ref, a, tau)
		// Column scales across the exponent range: the error of each column
		// is small relative to that column (Householder QR is columnwise
		// backward stable).
		scales := []float64{1e300, 1, 1e-300, 1e-160, 1e150}
		if ep > 1e-10 {
			scales = []float64{1e37, 1, 1e-37, 1e-20, 1e19}
		}
		m, n = 12, len(scales)
		ref = newDense(m, n)
		for j, s := range scales {
			for i := 0; i < m; i++ {
				ref.set(i, j, rnd[T](rng)*complex(s, 0))
			}
		}
		a = store[T](ref, padded)
		ref = toDense(a) // as rounded to T
		tau = make([]T, n)
		Geqrf(&ws, nil, m, n, a.Mat, tau)
		q := reflCols(rng, a, m, n, n, dense)
		Orgqr(&ws, nil, m, n, n, q.Mat, tau)
		if res := orthErr(toDense(q)); !(res <= 8*float64(m)*ep) {
			t.Fatalf("scaled: ‖QᴴQ − I‖ = %.3g", res)
		}
		qr := mul(toDense(q), upperR(a, n))
		for j := 0; j < n; j++ {
			var amax, emax float64
			for i := 0; i < m; i++ {
				amax = max(amax, cmplx.Abs(ref.at(i, j)))
				emax = max(emax, cmplx.Abs(ref.at(i, j)-qr.at(i, j)))
			}
			if !(emax <= 8*float64(m)*ep*amax) {
				t.Fatalf("scaled: column %d (scale %g) error %.3g of %.3g", j, scales[j], emax, amax)
			}
		}
		// NaN input terminates, and the NaN reaches R.
		ref = randDense[T](rng, 20, 20)
		ref.set(7, 3, cmplx.NaN())
		a = store[T](ref, dense)
		tau = make([]T, 20)
		Geqrf(&ws, nil, 20, 20, a.Mat, tau)
		if !cmplx.IsNaN(a.c128(19, 19)) {
			t.Fatalf("NaN input: R(19,19) = %v", a.at(19, 19))
		}
	})
}

func TestQRSpecial(t *testing.T) {
	t.Run("float64", testQRSpecial[float64])
	t.Run("complex128", testQRSpecial[complex128])
	t.Run("float32", testQRSpecial[float32])
	t.Run("complex64", testQRSpecial[complex64])
}

// TestPositiveDiagZero leaves a zero diagonal entry and a real positive
// one as they are.
func TestPositiveDiagZero(t *testing.T) {
	q := newMat[complex128](2, 2, dense, func(i, j int) complex128 { return complex(float64(i+1), float64(j)) })
	r := newMat[complex128](2, 2, dense, func(i, j int) complex128 { return [][]complex128{{0, 1i}, {0, -2}}[i][j] })
	PositiveDiag(2, 2, 2, q.Mat, r.Mat)
	if r.at(0, 0) != 0 || r.at(0, 1) != 1i || r.at(1, 1) != 2 || q.at(0, 0) != 1 || q.at(0, 1) != complex(-1, -1) {
		t.Fatalf("q %v r %v", q.Data, r.Data)
	}
	if math.Signbit(real(r.at(1, 1))) {
		t.Fatal("negative zero")
	}
}
