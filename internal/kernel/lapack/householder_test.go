package lapack

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// reflector returns the dense n×n H = I − τ·v·vᴴ.
func reflector(v []complex128, tau complex128) dense128 {
	n := len(v)
	h := newDense(n, n)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			x := -tau * v[i] * cmplx.Conj(v[j])
			if i == j {
				x++
			}
			h.set(i, j, x)
		}
	}
	return h
}

// checkLarfg generates a reflector from y (scaled by 2^-e inside T) and
// checks Hᴴ·y = β·e1 in the exactly rescaled y, that H is unitary and that
// |β| = ‖y‖.
func checkLarfg[T Scalar](t *testing.T, name string, y []complex128, e int) {
	t.Helper()
	n := len(y)
	x := make([]T, 2*n+1)
	for i := range x {
		x[i] = guard
	}
	sc := func(z complex128, k int) complex128 {
		return complex(math.Ldexp(real(z), k), math.Ldexp(imag(z), k))
	}
	for i := 1; i < n; i++ {
		x[1+2*(i-1)] = fromC128[T](sc(y[i], -e))
	}
	alpha := fromC128[T](sc(y[0], -e))
	beta, tau := Larfg(n, alpha, x, 1, 2)
	for i := range x {
		if (i == 0 || i%2 == 0 || i >= 2*n-1) && x[i] != guard {
			t.Fatalf("%s: guard %d overwritten", name, i)
		}
	}
	if imag(toC128(beta)) != 0 {
		t.Fatalf("%s: β = %v not real", name, beta)
	}
	tc := toC128(tau)
	if tol := 8 * eps[T](); tc != 0 && !(real(tc) >= 1-tol && real(tc) <= 2+tol && cmplx.Abs(tc-1) <= 1+tol) {
		t.Fatalf("%s: τ = %v", name, tc)
	}
	v := make([]complex128, n)
	v[0] = 1
	yy := make([]complex128, n)
	ynorm := 0.0
	for i := range yy {
		// y as stored in T, scaled back by the exact power of two.
		yy[i] = sc(toC128(fromC128[T](sc(y[i], -e))), e)
		if i > 0 {
			v[i] = toC128(x[1+2*(i-1)])
		}
		ynorm = math.Hypot(ynorm, cmplx.Abs(yy[i]))
	}
	bb := sc(toC128(beta), e)
	h := reflector(v, tc)
	hy := mul(h.op(ConjTrans), dense128{n, 1, yy})
	if d := math.Abs(cmplx.Abs(bb) - ynorm); !(d <= 4*float64(n)*eps[T]()*ynorm) && ynorm > 0 {
		t.Fatalf("%s: |β| = %v, ‖y‖ = %v", name, cmplx.Abs(bb), ynorm)
	}
	hy.d[0] -= bb
	if res := hy.norm(); !(res <= 8*float64(n)*eps[T]()*ynorm) && ynorm > 0 {
		t.Fatalf("%s: ‖Hᴴ·y − β·e1‖ = %v, ‖y‖ = %v", name, res, ynorm)
	}
	e1 := mul(h.op(ConjTrans), h)
	for i := 0; i < n; i++ {
		e1.set(i, i, e1.at(i, i)-1)
	}
	if res := e1.norm(); !(res <= 8*float64(n)*eps[T]()) {
		t.Fatalf("%s: ‖HᴴH − I‖ = %v", name, res)
	}
}

func testLarfg[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 2))
	// Scales 2^-tiny put β below the safe minimum; 2^-huge overflow a
	// plain sum of squares (float64 only: float32 sums in float64).
	tiny, huge := 1000, -1000
	if eps[T]() > 1e-10 {
		tiny, huge = 110, -120
	}
	for _, n := range []int{1, 2, 3, 7, 31} {
		for _, e := range []int{0, tiny, huge} {
			y := make([]complex128, n)
			for i := range y {
				y[i] = rnd[T](rng)
			}
			checkLarfg[T](t, fmt.Sprintf("n=%d e=%d", n, e), y, e)
			// α = 0, and a zero x with a complex α.
			y[0] = 0
			checkLarfg[T](t, fmt.Sprintf("n=%d e=%d α=0", n, e), y, e)
		}
	}
	// A zero vector, and a real α with x = 0, give τ = 0 and β = α.
	x := []T{0, 0, 0}
	if beta, tau := Larfg(4, -3, x, 0, 1); beta != -3 || tau != 0 {
		t.Fatalf("x = 0: β = %v, τ = %v", beta, tau)
	}
	if beta, tau := Larfg(4, 0, x, 0, 1); beta != 0 || tau != 0 {
		t.Fatalf("zero vector: β = %v, τ = %v", beta, tau)
	}
	// NaN gives NaN and terminates.
	x = []T{1, fromReal[T](math.NaN()), 2}
	if beta, tau := Larfg(4, 1, x, 0, 1); !cmplx.IsNaN(toC128(beta)) || !cmplx.IsNaN(toC128(tau)) {
		t.Fatalf("NaN: β = %v, τ = %v", beta, tau)
	}
}

func TestLarfg(t *testing.T) {
	t.Run("float64", testLarfg[float64])
	t.Run("complex128", testLarfg[complex128])
	t.Run("float32", testLarfg[float32])
	t.Run("complex64", testLarfg[complex64])
}

func TestNrm2(t *testing.T) {
	for _, s := range []float64{1, 1e300, 1e-300, 1e-320, 0x1p-1074} {
		x := []float64{3 * s, 4 * s}
		want := 5 * s
		if s == 0x1p-1074 {
			want = math.Hypot(x[0], x[1])
		}
		if got := nrm2(x, 0, 2, 1); math.Abs(got-want) > 1e-15*want {
			t.Errorf("nrm2(%v) = %v, want %v", x, got, want)
		}
	}
	if got := nrm2([]float64{math.Inf(-1), 1}, 0, 2, 1); !math.IsInf(got, 1) {
		t.Errorf("nrm2(-Inf, 1) = %v", got)
	}
}

// testLarfb checks Larf, Larft and Larfb against dense products of the
// reflectors, both sides and both ops, on strided views.
func testLarfb[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 3))
	var ws Workspace
	for _, s := range [][3]int{{1, 1, 1}, {5, 3, 4}, {9, 9, 2}, {40, 17, 23}, {70, 33, 5}} {
		mv, k, nc := s[0], s[1], s[2]
		k = min(k, mv)
		name := fmt.Sprintf("%s mv=%d k=%d nc=%d", typeName[T](), mv, k, nc)
		// Reflectors from a QR panel.
		v := store[T](randDense[T](rng, mv, k), padded)
		tau := make([]T, k)
		Geqr2(mv, k, v.Mat, tau)
		// Dense Q = H1···Hk.
		q := newDense(mv, mv)
		for i := 0; i < mv; i++ {
			q.set(i, i, 1)
		}
		for i := 0; i < k; i++ {
			vi := make([]complex128, mv)
			vi[i] = 1
			for p := i + 1; p < mv; p++ {
				vi[p] = v.c128(p, i)
			}
			q = mul(q, reflector(vi, toC128(tau[i])))
		}
		tt := newMat[T](k, k, transposed, func(i, j int) complex128 { return guard })
		Larft(&ws, nil, mv, k, v.Mat, tau, tt.Mat)
		checkGuards(t, tt)
		for j := 0; j < k; j++ {
			for i := j + 1; i < k; i++ {
				if tt.at(i, j) != 0 {
					t.Fatalf("%s: T(%d,%d) = %v below the diagonal", name, i, j, tt.at(i, j))
				}
			}
		}
		for _, side := range []Side{Left, Right} {
			for _, op := range []Op{NoTrans, ConjTrans} {
				m, n := mv, nc
				if side == Right {
					m, n = nc, mv
				}
				c := newMat[T](m, n, layout((m+int(op))%int(nLayouts)), func(i, j int) complex128 { return rnd[T](rng) })
				c0 := toDense(c)
				Larfb(&ws, nil, side, op, m, n, k, v.Mat, tt.Mat, c.Mat)
				checkGuards(t, c)
				var want dense128
				if side == Left {
					want = mul(q.op(op), c0)
				} else {
					want = mul(c0, q.op(op))
				}
				if res := sub(toDense(c), want).norm(); !(res <= 8*float64(mv)*eps[T]()*c0.norm()) {
					t.Fatalf("%s side=%d op=%d: Larfb error %.3g", name, side, op, res)
				}
			}
		}
		// Larf with the first reflector, v read in full from a copy.
		v1 := make([]T, 2*mv)
		v1[0] = 1
		for p := 1; p < mv; p++ {
			v1[2*p] = v.at(p, 0)
		}
		vi := make([]complex128, mv)
		for p := range vi {
			vi[p] = toC128(v1[2*p])
		}
		h := reflector(vi, toC128(tau[0]))
		for _, side := range []Side{Left, Right} {
			m, n := mv, nc
			if side == Right {
				m, n = nc, mv
			}
			c := newMat[T](m, n, layout(m%int(nLayouts)), func(i, j int) complex128 { return rnd[T](rng) })
			c0 := toDense(c)
			Larf(side, m, n, v1, 0, 2, tau[0], c.Mat)
			checkGuards(t, c)
			var want dense128
			if side == Left {
				want = mul(h, c0)
			} else {
				want = mul(c0, h)
			}
			if res := sub(toDense(c), want).norm(); !(res <= 8*float64(mv)*eps[T]()*c0.norm()) {
				t.Fatalf("%s side=%d: Larf error %.3g", name, side, res)
			}
		}
	}
}

func TestLarfb(t *testing.T) {
	t.Run("float64", testLarfb[float64])
	t.Run("complex128", testLarfb[complex128])
	t.Run("float32", testLarfb[float32])
	t.Run("complex64", testLarfb[complex64])
}
