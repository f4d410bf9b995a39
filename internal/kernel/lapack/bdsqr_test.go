package lapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"gonum.org/v1/gonum/lapack/gonum"
)

func TestLasv2(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	const ep = 0x1p-53
	val := func() float64 {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return math.Ldexp(rng.NormFloat64(), rng.IntN(400)-200)
		}
		return rng.NormFloat64()
	}
	for it := 0; it < 20000; it++ {
		f, g, h := val(), val(), val()
		smin, smax, sinr, cosr, sinl, cosl := lasv2(f, g, h)
		// [cl sl; −sl cl]·[f g; 0 h]·[cr −sr; sr cr] = diag(smax, smin).
		l := [2][2]float64{{cosl, sinl}, {-sinl, cosl}}
		r := [2][2]float64{{cosr, -sinr}, {sinr, cosr}}
		b := [2][2]float64{{f, g}, {0, h}}
		var p [2][2]float64
		for i := range 2 {
			for j := range 2 {
				for a := range 2 {
					for c := range 2 {
						p[i][j] += l[i][a] * b[a][c] * r[c][j]
					}
				}
			}
		}
		scale := max(math.Abs(f), math.Abs(g), math.Abs(h))
		tol := 16 * ep * scale
		name := fmt.Sprintf("lasv2(%g, %g, %g)", f, g, h)
		if math.Abs(p[0][0]-smax) > tol || math.Abs(p[1][1]-smin) > tol || math.Abs(p[0][1]) > tol || math.Abs(p[1][0]) > tol {
			t.Fatalf("%s: L·B·R = %v, want diag(%g, %g)", name, p, smax, smin)
		}
		if math.Abs(cosl*cosl+sinl*sinl-1) > 16*ep || math.Abs(cosr*cosr+sinr*sinr-1) > 16*ep {
			t.Fatalf("%s: rotations not normalized", name)
		}
		if math.Abs(smin) > math.Abs(smax) {
			t.Fatalf("%s: |smin| %g > |smax| %g", name, smin, smax)
		}
		// High relative accuracy: |smin·smax| = |f·h| to a few ulps.
		if det := math.Abs(f * h); det > 0 && !math.IsInf(det, 0) && det > 1e-290 {
			if rel := math.Abs(math.Abs(smin*smax)-det) / det; rel > 16*ep {
				t.Fatalf("%s: |smin·smax| off by %.3g relative", name, rel)
			}
		}
		lo, hi := las2(f, g, h)
		if math.Abs(lo-math.Abs(smin)) > 8*ep*math.Abs(smin) || math.Abs(hi-math.Abs(smax)) > 8*ep*math.Abs(smax) {
			t.Fatalf("%s: las2 = (%g, %g), lasv2 = (%g, %g)", name, lo, hi, smin, smax)
		}
	}
}

// bidiagCase is a test bidiagonal matrix: its diagonal and off-diagonal.
type bidiagCase struct {
	name string
	d, e []float64
}

// bidiagCases returns bidiagonal test matrices of order n.
func bidiagCases(rng *rand.Rand, n int) []bidiagCase {
	mk := func(name string, fd, fe func(i int) float64) bidiagCase {
		c := bidiagCase{name: name, d: make([]float64, n), e: make([]float64, max(n-1, 0))}
		for i := range c.d {
			c.d[i] = fd(i)
		}
		for i := range c.e {
			c.e[i] = fe(i)
		}
		return c
	}
	grade := func(i int) float64 {
		if n == 1 {
			return 1
		}
		return math.Pow(10, -15*float64(i)/float64(n-1))
	}
	zeroAt := rng.IntN(n)
	return []bidiagCase{
		mk("random", func(int) float64 { return rng.NormFloat64() }, func(int) float64 { return rng.NormFloat64() }),
		mk("graded", func(i int) float64 { return grade(i) * (1 + rng.Float64()) }, func(i int) float64 { return grade(i) * rng.Float64() }),
		mk("reverse-graded", func(i int) float64 { return grade(n-1-i) * (1 + rng.Float64()) }, func(i int) float64 { return grade(n-1-i) * rng.Float64() }),
		mk("clustered", func(i int) float64 { return 1 + 1e-12*rng.Float64() }, func(int) float64 { return 1e-9 * rng.NormFloat64() }),
		mk("repeated", func(i int) float64 { return []float64{2, -2, 1}[i%3] }, func(int) float64 { return 0 }),
		mk("ones", func(int) float64 { return 1 }, func(int) float64 { return 1 }),
		mk("zero-diagonal", func(i int) float64 {
			if i == zeroAt || i%4 == 3 {
				return 0
			}
			return rng.NormFloat64()
		}, func(int) float64 { return rng.NormFloat64() }),
		mk("zero-offdiagonal", func(int) float64 { return rng.NormFloat64() }, func(i int) float64 {
			if i%3 == 1 {
				return 0
			}
			return rng.NormFloat64()
		}),
		mk("zero", func(int) float64 { return 0 }, func(int) float64 { return 0 }),
		mk("tiny", func(int) float64 { return 1e-250 * rng.NormFloat64() }, func(int) float64 { return 1e-250 * rng.NormFloat64() }),
		mk("huge", func(int) float64 { return 1e300 * rng.NormFloat64() }, func(int) float64 { return 1e300 * rng.NormFloat64() }),
	}
}

// dqdsValues returns the singular values of the bidiagonal (d, e) by
// gonum's dqds (Dlasq1), an independent algorithm of high relative
// accuracy, in descending order.
func dqdsValues(t *testing.T, d, e []float64) []float64 {
	var impl gonum.Implementation
	n := len(d)
	s := append([]float64(nil), d...)
	ee := append(append([]float64(nil), e...), 0)
	if info := impl.Dlasq1(n, s, ee, make([]float64, 4*n)); info != 0 {
		t.Fatalf("Dlasq1 info %d", info)
	}
	return s
}

func testBdsqr[T Scalar](t *testing.T, sizes []int) {
	rng := rand.New(rand.NewPCG(3, uint64(len(sizes))))
	ep := eps[T]()
	for _, n := range sizes {
		for ci, bc := range bidiagCases(rng, n) {
			for ui, upper := range []bool{true, false} {
				// Work without a rotation log, with a log that holds only
				// short sweeps, and with the full log.
				wl := []int{4 * n, 4*n + 3 + 4*3, BdsqrWork(n)}[(ci+ui)%3]
				l := layout((n + len(bc.name)) % int(nLayouts))
				name := fmt.Sprintf("%s n=%d %s upper=%v %v work=%d", typeName[T](), n, bc.name, upper, l, wl)
				// Rows of extra data in vt and u check that all columns
				// (rows) are rotated.
				nru, ncvt := n+2, n+1
				id := func(i, j int) complex128 {
					if i == j {
						return 1
					}
					return 0
				}
				vt := newMat[T](n, ncvt, l, id)
				u := newMat[T](nru, n, (l+1)%nLayouts, func(i, j int) complex128 {
					if i >= n {
						return rnd[T](rng)
					}
					return id(i, j)
				})
				u0 := toDense(u)
				d := append([]float64(nil), bc.d...)
				e := append([]float64(nil), bc.e...)
				info := Bdsqr(upper, n, ncvt, nru, d, e, vt.Mat, u.Mat, make([]float64, wl))
				checkGuards(t, vt)
				checkGuards(t, u)
				if info != 0 {
					t.Fatalf("%s: info %d", name, info)
				}
				for i := 0; i < n; i++ {
					if !(d[i] >= 0) || i > 0 && d[i] > d[i-1] {
						t.Fatalf("%s: values not descending and non-negative: %v", name, d)
					}
				}
				// B = U·S·Vᵀ with U the first n rows of u, V's rows the first
				// n columns of vt.
				b := newDense(n, n)
				bnorm := 0.0
				for i := 0; i < n; i++ {
					b.set(i, i, complex(bc.d[i], 0))
					bnorm = max(bnorm, math.Abs(bc.d[i]))
					if i+1 < n {
						if upper {
							b.set(i, i+1, complex(bc.e[i], 0))
						} else {
							b.set(i+1, i, complex(bc.e[i], 0))
						}
						bnorm = max(bnorm, math.Abs(bc.e[i]))
					}
				}
				ud := toDense(u)
				uq := newDense(n, n)
				for j := 0; j < n; j++ {
					for i := 0; i < n; i++ {
						uq.set(i, j, ud.at(i, j))
					}
				}
				vd := toDense(vt)
				vq := newDense(n, n)
				for j := 0; j < n; j++ {
					for i := 0; i < n; i++ {
						vq.set(i, j, vd.at(i, j))
					}
				}
				sd := newDense(n, n)
				for i := 0; i < n; i++ {
					sd.set(i, i, complex(d[i], 0))
				}
				tol := 16 * float64(max(n, 1)) * ep
				if bnorm > 0 {
					r := sub(b, mul(mul(uq, sd), vq))
					for i := range r.d {
						r.d[i] /= complex(bnorm, 0)
					}
					if res := r.norm(); !(res <= tol*math.Sqrt(float64(n))) {
						t.Fatalf("%s: ‖B − USVᵀ‖/max|B| = %.3g > %.3g", name, res, tol)
					}
				}
				if res := orthErr(uq); !(res <= tol) {
					t.Fatalf("%s: ‖UᵀU − I‖ = %.3g", name, res)
				}
				if res := orthErr(vq.op(ConjTrans)); !(res <= tol) {
					t.Fatalf("%s: ‖VᵀV − I‖ = %.3g", name, res)
				}
				// The extra column of vt and the extra rows of u were rotated
				// along: u[n:, :] = u0[n:, :n]·Q and vt[:, n] = Vᵀ·e_n = 0.
				for i := n; i < nru; i++ {
					for j := 0; j < n; j++ {
						var want complex128
						for p := 0; p < n; p++ {
							want += u0.at(i, p) * uq.at(p, j)
						}
						if dd := abs(ud.at(i, j) - want); dd > tol*math.Sqrt(float64(n)) {
							t.Fatalf("%s: extra row %d of u off by %.3g", name, i, dd)
						}
					}
				}
				for i := 0; i < n; i++ {
					if v := abs(vd.at(i, n)); v != 0 {
						t.Fatalf("%s: extra column of vt became %v", name, v)
					}
				}
				// Values alone: the same values, and against dqds to high
				// relative accuracy.
				d2 := append([]float64(nil), bc.d...)
				e2 := append([]float64(nil), bc.e...)
				if info := Bdsqr[T](upper, n, 0, 0, d2, e2, gemm.Mat[T]{}, gemm.Mat[T]{}, make([]float64, 4*n)); info != 0 {
					t.Fatalf("%s: values-only info %d", name, info)
				}
				ref := dqdsValues(t, bc.d, bc.e)
				rtol := 8 * float64(max(n, 1)) * 0x1p-53
				for i := 0; i < n; i++ {
					if dd := math.Abs(d2[i] - d[i]); dd > rtol*d[i] {
						t.Fatalf("%s: values-only σ%d = %g, with vectors %g", name, i, d2[i], d[i])
					}
					if dd := math.Abs(d[i] - ref[i]); dd > rtol*ref[i] {
						t.Fatalf("%s: σ%d = %.17g, dqds %.17g (rel %.3g)", name, i, d[i], ref[i], dd/ref[i])
					}
				}
			}
		}
	}
}

func TestBdsqr(t *testing.T) {
	sizes := []int{1, 2, 3, 4, 5, 7, 10, 17, 32, 61}
	testBdsqr[float64](t, sizes)
	testBdsqr[complex128](t, sizes[:7])
	testBdsqr[float32](t, sizes[:7])
	testBdsqr[complex64](t, sizes[:7])
	if !testing.Short() {
		testBdsqr[float64](t, []int{150})
	}
}

func TestBdsqrNonFinite(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, n := range []int{1, 2, 5, 30} {
			for _, where := range []int{0, 1} {
				d := make([]float64, n)
				e := make([]float64, n)
				for i := range d {
					d[i], e[i] = 1, 0.5
				}
				if where == 0 || n == 1 {
					d[n/2] = bad
				} else {
					e[(n-1)/2] = bad
				}
				u := gemm.Mat[float64]{Data: make([]float64, n*n), RS: 1, CS: n}
				if info := Bdsqr(true, n, n, n, d, e, u, u, make([]float64, 4*n)); info != n {
					t.Errorf("n=%d %v at %d: info %d, want %d", n, bad, where, info, n)
				}
			}
		}
	}
	// Values that overflow in the iteration would be caught the same way;
	// an empty matrix is valid.
	if info := Bdsqr[float64](true, 0, 0, 0, nil, nil, gemm.Mat[float64]{}, gemm.Mat[float64]{}, nil); info != 0 {
		t.Errorf("n=0: info %d", info)
	}
}
