package lapack

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// permuteRows applies ipiv to the rows of a copy of a, as P·A.
func permuteRows(a dense128, ipiv []int) dense128 {
	p := newDense(a.r, a.c)
	copy(p.d, a.d)
	for i, k := range ipiv {
		for j := 0; j < a.c; j++ {
			x, y := p.at(i, j), p.at(k, j)
			p.set(i, j, y)
			p.set(k, j, x)
		}
	}
	return p
}

// luFactors splits an m×n LU result into L (m×min) and U (min×n).
func luFactors[T Scalar](a testMat[T]) (l, u dense128) {
	mn := min(a.r, a.c)
	l, u = newDense(a.r, mn), newDense(mn, a.c)
	for j := 0; j < a.c; j++ {
		for i := 0; i < a.r; i++ {
			switch {
			case i == j && j < mn:
				l.set(i, j, 1)
				u.set(i, j, a.c128(i, j))
			case i > j && j < mn:
				l.set(i, j, a.c128(i, j))
			case i < j && i < mn:
				u.set(i, j, a.c128(i, j))
			}
		}
	}
	return l, u
}

// checkLU checks P·A = L·U, the pivots and the bound on |L| for a factored a of
// the reference ref.
func checkLU[T Scalar](t *testing.T, name string, ref dense128, a testMat[T], ipiv []int) {
	t.Helper()
	m, n := ref.r, ref.c
	for i, p := range ipiv[:min(m, n)] {
		if p < i || p >= m {
			t.Fatalf("%s: ipiv[%d] = %d", name, i, p)
		}
	}
	l, u := luFactors(a)
	// Pivoting by |Re|+|Im| bounds |L| by √2 for complex types.
	lmax := 1.0
	if isComplex[T]() {
		lmax = math.Sqrt2
	}
	for _, v := range l.d {
		if !(cmplx.Abs(v) <= lmax*(1+4*eps[T]())) {
			t.Fatalf("%s: |L| entry %v > 1", name, v)
		}
	}
	res := sub(permuteRows(ref, ipiv[:min(m, n)]), mul(l, u)).norm() / (ref.norm() + 1e-300)
	if tol := 4 * float64(min(m, n)+1) * eps[T](); !(res <= tol) {
		t.Fatalf("%s: ‖PA − LU‖/‖A‖ = %.3g > %.3g", name, res, tol)
	}
}

func randDense[T Scalar](rng *rand.Rand, m, n int) dense128 {
	a := newDense(m, n)
	for i := range a.d {
		a.d[i] = rnd[T](rng)
	}
	return a
}

func store[T Scalar](ref dense128, l layout) testMat[T] {
	return newMat[T](ref.r, ref.c, l, func(i, j int) complex128 { return ref.at(i, j) })
}

func testGetrf[T Scalar](t *testing.T, shapes [][2]int) {
	rng := rand.New(rand.NewPCG(7, uint64(len(shapes))))
	var ws Workspace
	for _, s := range shapes {
		m, n := s[0], s[1]
		for l := range nLayouts {
			name := fmt.Sprintf("%s m=%d n=%d %v", typeName[T](), m, n, l)
			ref := randDense[T](rng, m, n)
			a := store[T](ref, l)
			ipiv := make([]int, min(m, n))
			if info := Getrf(&ws, nil, m, n, a.Mat, ipiv); info != 0 {
				t.Fatalf("%s: info %d", name, info)
			}
			checkGuards(t, a)
			checkLU(t, name, ref, a, ipiv)
			if m != n {
				continue
			}
			for _, op := range []Op{NoTrans, Trans, ConjTrans} {
				nrhs := 1 + (n+int(op))%4
				b := newMat[T](n, nrhs, layout((n+int(op))%int(nLayouts)), func(i, j int) complex128 { return rnd[T](rng) })
				b0 := toDense(b)
				Getrs(&ws, nil, op, n, nrhs, a.Mat, ipiv, b.Mat)
				checkGuards(t, b)
				x, opa := toDense(b), ref.op(op)
				res := sub(mul(opa, x), b0).norm() / (opa.norm()*x.norm() + b0.norm() + 1e-300)
				if tol := 8 * float64(n+1) * eps[T](); !(res <= tol) {
					t.Fatalf("%s op=%d: solve backward error %.3g > %.3g", name, op, res, tol)
				}
			}
			inv := newMat[T](n, n, layout((n+1)%int(nLayouts)), func(i, j int) complex128 { return 0 })
			Getri(&ws, nil, n, a.Mat, ipiv, inv.Mat)
			checkGuards(t, inv)
			xi := toDense(inv)
			e := mul(ref, xi)
			for i := 0; i < n; i++ {
				e.set(i, i, e.at(i, i)-1)
			}
			cond := ref.norm() * xi.norm()
			if tol := 4 * float64(n+1) * cond * eps[T](); !(e.norm() <= tol) {
				t.Fatalf("%s: ‖A·inv(A) − I‖ = %.3g > %.3g (cond %.3g)", name, e.norm(), tol, cond)
			}
		}
	}
}

func square(sizes ...int) [][2]int {
	var s [][2]int
	for _, n := range sizes {
		s = append(s, [2]int{n, n})
	}
	return s
}

var getrfShapes = append(square(0, 1, 2, 3, 7, 15, 16, 17, 31, 33, 67, 131),
	[2]int{5, 0}, [2]int{0, 5}, [2]int{1, 9}, [2]int{9, 1}, [2]int{40, 7}, [2]int{7, 40},
	[2]int{100, 33}, [2]int{33, 100}, [2]int{131, 67}, [2]int{17, 131})

func TestGetrf(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testGetrf[float32](t, getrfShapes) })
	t.Run("float64", func(t *testing.T) { testGetrf[float64](t, getrfShapes) })
	t.Run("complex64", func(t *testing.T) { testGetrf[complex64](t, getrfShapes) })
	t.Run("complex128", func(t *testing.T) { testGetrf[complex128](t, getrfShapes) })
	withLeaves(2, 2, 2, 2, func() {
		shapes := append(square(3, 4, 5, 9), [2]int{11, 4}, [2]int{4, 11}, [2]int{3, 8})
		t.Run("leaf2/float64", func(t *testing.T) { testGetrf[float64](t, shapes) })
		t.Run("leaf2/complex128", func(t *testing.T) { testGetrf[complex128](t, shapes) })
	})
	if !testing.Short() {
		t.Run("large/float64", func(t *testing.T) { testGetrf[float64](t, square(257)) })
		t.Run("large/complex64", func(t *testing.T) { testGetrf[complex64](t, [][2]int{{257, 257}, {300, 257}}) })
	}
}

// TestGetrsIllConditioned solves with A = P·L0·U0 whose U0 diagonal falls
// geometrically to 1/cond: the backward error stays at rounding level.
func TestGetrsIllConditioned(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testGetrsIll[float32](t, 1e5) })
	t.Run("float64", func(t *testing.T) { testGetrsIll[float64](t, 1e12) })
	t.Run("complex64", func(t *testing.T) { testGetrsIll[complex64](t, 1e5) })
	t.Run("complex128", func(t *testing.T) { testGetrsIll[complex128](t, 1e12) })
}

func testGetrsIll[T Scalar](t *testing.T, cond float64) {
	rng := rand.New(rand.NewPCG(11, 1))
	var ws Workspace
	for _, n := range []int{33, 67, 131} {
		l0, u0 := newDense(n, n), newDense(n, n)
		for j := 0; j < n; j++ {
			l0.set(j, j, 1)
			u0.set(j, j, complex(math.Pow(cond, -float64(j)/float64(n-1)), 0))
			for i := 0; i < n; i++ {
				if i > j {
					l0.set(i, j, rnd[T](rng)/complex(float64(n), 0))
				} else if i < j {
					u0.set(i, j, rnd[T](rng)*u0.at(i, i))
				}
			}
		}
		ref := mul(l0, u0)
		perm := rng.Perm(n)
		pa := newDense(n, n)
		for i, p := range perm {
			for j := 0; j < n; j++ {
				pa.set(p, j, ref.at(i, j))
			}
		}
		a := store[T](pa, padded)
		ipiv := make([]int, n)
		if info := Getrf(&ws, nil, n, n, a.Mat, ipiv); info != 0 {
			t.Fatalf("n=%d: info %d", n, info)
		}
		for _, op := range []Op{NoTrans, ConjTrans} {
			b := newMat[T](n, 3, dense, func(i, j int) complex128 { return rnd[T](rng) })
			b0 := toDense(b)
			Getrs(&ws, nil, op, n, 3, a.Mat, ipiv, b.Mat)
			x, opa := toDense(b), pa.op(op)
			res := sub(mul(opa, x), b0).norm() / (opa.norm()*x.norm() + b0.norm())
			if tol := 8 * float64(n+1) * eps[T](); !(res <= tol) {
				t.Fatalf("%s n=%d op=%d: backward error %.3g > %.3g", typeName[T](), n, op, res, tol)
			}
		}
	}
}

func TestGetrfSingular(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	var ws Workspace
	for _, n := range []int{1, 5, 17, 33, 67} {
		for _, k := range []int{0, n / 2, n - 1} {
			ref := randDense[float64](rng, n, n)
			for i := 0; i < n; i++ {
				ref.set(i, k, 0)
			}
			a := store[float64](ref, transposed)
			ipiv := make([]int, n)
			if info := Getrf(&ws, nil, n, n, a.Mat, ipiv); info != k+1 {
				t.Fatalf("n=%d zero column %d: info %d, want %d", n, k, info, k+1)
			}
			checkLU(t, fmt.Sprintf("singular n=%d k=%d", n, k), ref, a, ipiv)
			if s, la := Slogdet(n, a.Mat, ipiv); s != 0 || !math.IsInf(la, -1) {
				t.Fatalf("n=%d: Slogdet = %v, %v", n, s, la)
			}
			if d := Det(n, a.Mat, ipiv); d != 0 {
				t.Fatalf("n=%d: Det = %v", n, d)
			}
		}
	}
}

func TestGetrfNonFinite(t *testing.T) {
	var ws Workspace
	rng := rand.New(rand.NewPCG(17, 1))
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, n := range []int{4, 40} {
			ref := randDense[float64](rng, n, n)
			ref.set(n/2, n/3, complex(v, 0))
			a := store[float64](ref, padded)
			ipiv := make([]int, n)
			Getrf(&ws, nil, n, n, a.Mat, ipiv)
			checkGuards(t, a)
			for i, p := range ipiv {
				if p < i || p >= n {
					t.Fatalf("ipiv[%d] = %d", i, p)
				}
			}
			if _, la := Slogdet(n, a.Mat, ipiv); !math.IsNaN(la) && !math.IsInf(la, 0) {
				t.Fatalf("%v at n=%d: log|det| %v is finite", v, n, la)
			}
		}
	}
}

// detRef returns det(a) by the Leibniz formula (small n only).
func detRef(a dense128) complex128 {
	n := a.r
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	var sum complex128
	var rec func(k int, sign float64)
	rec = func(k int, sign float64) {
		if k == n {
			p := complex(sign, 0)
			for i, j := range perm {
				p *= a.at(i, j)
			}
			sum += p
			return
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			s := sign
			if i != k {
				s = -s
			}
			rec(k+1, s)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	rec(0, 1)
	return sum
}

func testDet[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 1))
	for n := 0; n <= 6; n++ {
		for trial := 0; trial < 5; trial++ {
			ref := randDense[T](rng, n, n)
			a := store[T](ref, layout(trial%int(nLayouts)))
			ipiv := make([]int, n)
			Getrf(nil, nil, n, n, a.Mat, ipiv)
			want := detRef(ref)
			// Hadamard's bound scales the tolerance.
			h := 1.0
			for i := 0; i < n; i++ {
				var s float64
				for j := 0; j < n; j++ {
					s += cmplx.Abs(ref.at(i, j)) * cmplx.Abs(ref.at(i, j))
				}
				h *= math.Sqrt(s)
			}
			tol := 8 * float64(n+1) * eps[T]() * h
			d := toC128(Det(n, a.Mat, ipiv))
			if !(cmplx.Abs(d-want) <= tol) {
				t.Fatalf("%s n=%d: Det %v, want %v", typeName[T](), n, d, want)
			}
			s, la := Slogdet(n, a.Mat, ipiv)
			if got := toC128(s) * complex(math.Exp(la), 0); !(cmplx.Abs(got-want) <= tol) {
				t.Fatalf("%s n=%d: Slogdet gives %v, want %v", typeName[T](), n, got, want)
			}
			if as := abs(s); math.Abs(as-1) > 4*eps[T]() {
				t.Fatalf("%s n=%d: |sign| = %v", typeName[T](), n, as)
			}
		}
	}
}

func TestDet(t *testing.T) {
	t.Run("float32", testDet[float32])
	t.Run("float64", testDet[float64])
	t.Run("complex64", testDet[complex64])
	t.Run("complex128", testDet[complex128])
}

// TestSlogdetLarge checks that Slogdet does not overflow where Det does.
func TestSlogdetLarge(t *testing.T) {
	n := 300
	ref := newDense(n, n)
	for i := 0; i < n; i++ {
		ref.set(i, i, 1e3)
	}
	ref.set(0, 1, 1)
	a := store[float64](ref, dense)
	ipiv := make([]int, n)
	Getrf(new(Workspace), nil, n, n, a.Mat, ipiv)
	s, la := Slogdet(n, a.Mat, ipiv)
	if want := float64(n) * math.Log(1e3); s != 1 || math.Abs(la-want) > 1e-12*want {
		t.Fatalf("Slogdet = %v, %v, want 1, %v", s, la, want)
	}
}
