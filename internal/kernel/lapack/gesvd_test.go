package lapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

// svdKind names a family of Gesvd test matrices.
type svdKind int

const (
	svdRandom svdKind = iota
	svdRankDeficient
	svdZero
	svdIdentity
	svdHuge
	svdTiny
	svdGraded
	nSVDKinds
)

func (k svdKind) String() string {
	return [...]string{"random", "rank-deficient", "zero", "identity", "huge", "tiny", "graded"}[k]
}

// svdInput returns an m×n test matrix of the given kind.
func svdInput[T Scalar](rng *rand.Rand, kind svdKind, m, n int) dense128 {
	a := randDense[T](rng, m, n)
	big := 1e150
	if eps[T]() > 1e-10 {
		big = 1e30
	}
	switch kind {
	case svdRankDeficient:
		r := max(min(m, n)/2, 1)
		a = mul(randDense[T](rng, m, r), randDense[T](rng, r, n))
	case svdZero:
		a = newDense(m, n)
	case svdIdentity:
		a = newDense(m, n)
		for i := 0; i < min(m, n); i++ {
			a.set(i, i, 1)
		}
	case svdHuge, svdTiny:
		s := big
		if kind == svdTiny {
			s = 1 / big
		}
		for i := range a.d {
			a.d[i] *= complex(s, 0)
		}
	case svdGraded:
		for j := 0; j < n; j++ {
			g := math.Pow(10, -6*float64(j)/float64(max(n-1, 1)))
			for i := 0; i < m; i++ {
				a.set(i, j, a.at(i, j)*complex(g, 0))
			}
		}
	}
	return a
}

// scaledNorm returns ‖d‖/s, computed without overflow for s ≈ ‖d‖.
func scaledNorm(d dense128, s float64) float64 {
	if s == 0 {
		return d.norm()
	}
	c := newDense(d.r, d.c)
	for i, v := range d.d {
		c.d[i] = v / complex(s, 0)
	}
	return c.norm()
}

// gonumValues returns the singular values of the float64 matrix a by
// gonum's Dgesvd.
func gonumValues(t *testing.T, a dense128) []float64 {
	var impl gonum.Implementation
	m, n := a.r, a.c
	g := make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			g[i*n+j] = real(a.at(i, j))
		}
	}
	s := make([]float64, min(m, n))
	work := make([]float64, 1)
	impl.Dgesvd(lapack.SVDNone, lapack.SVDNone, m, n, g, max(n, 1), s, nil, 1, nil, 1, work, -1)
	work = make([]float64, int(work[0]))
	if !impl.Dgesvd(lapack.SVDNone, lapack.SVDNone, m, n, g, max(n, 1), s, nil, 1, nil, 1, work, len(work)) {
		t.Fatalf("gonum Dgesvd failed")
	}
	return s
}

func testGesvd[T Scalar](t *testing.T, shapes [][2]int, kinds []svdKind) {
	rng := rand.New(rand.NewPCG(17, uint64(len(shapes))))
	var ws Workspace
	ep := eps[T]()
	for _, sh := range shapes {
		m, n := sh[0], sh[1]
		k := min(m, n)
		for _, kind := range kinds {
			ref := svdInput[T](rng, kind, m, n)
			anorm := ref.norm()
			var sThin []float64
			for job := SVDValues; job <= SVDFull; job++ {
				l := layout((m + 2*n + int(kind) + int(job)) % int(nLayouts))
				name := fmt.Sprintf("%s m=%d n=%d %v job=%d %v", typeName[T](), m, n, kind, job, l)
				a := store[T](ref, l)
				ur, uc, vr := m, k, k
				if job == SVDFull {
					uc, vr = m, n
				}
				garbage := func(int, int) complex128 { return complex(math.NaN(), 0) }
				u := newMat[T](ur, uc, (l+1)%nLayouts, garbage)
				vt := newMat[T](vr, n, (l+2)%nLayouts, garbage)
				s := make([]float64, k+1)
				s[k] = guard
				info := Gesvd(&ws, nil, job, m, n, a.Mat, s[:k], u.Mat, vt.Mat)
				checkGuards(t, a)
				checkGuards(t, u)
				checkGuards(t, vt)
				if info != 0 {
					t.Fatalf("%s: info %d", name, info)
				}
				if s[k] != guard {
					t.Fatalf("%s: s[k] overwritten", name)
				}
				for i := 0; i < k; i++ {
					if !(s[i] >= 0) || i > 0 && s[i] > s[i-1] {
						t.Fatalf("%s: values not descending and non-negative: %v", name, s[:k])
					}
				}
				tol := 16 * float64(max(m, n, 1)) * ep
				if job == SVDValues {
					sThin = append(sThin[:0], s[:k]...)
					if isReal64[T]() && k > 0 {
						gv := gonumValues(t, ref)
						for i := 0; i < k; i++ {
							if d := math.Abs(s[i] - gv[i]); d > tol*max(gv[0], math.SmallestNonzeroFloat64) {
								t.Fatalf("%s: σ%d = %.17g, gonum %.17g", name, i, s[i], gv[i])
							}
						}
					}
					continue
				}
				for i := 0; i < k; i++ {
					if d := math.Abs(s[i] - sThin[i]); d > tol*math.Max(sThin[0], 0) {
						t.Fatalf("%s: σ%d = %g, values-only %g", name, i, s[i], sThin[i])
					}
				}
				ud, vd := toDense(u), toDense(vt)
				if m == 0 || n == 0 {
					if job == SVDFull {
						for _, q := range []dense128{ud, vd} {
							if res := orthErr(q); res != 0 {
								t.Fatalf("%s: empty SVD factor not the identity", name)
							}
						}
					}
					continue
				}
				// A − U·S·Vᴴ over the first k columns of U and rows of Vᴴ.
				us := newDense(m, k)
				for j := 0; j < k; j++ {
					for i := 0; i < m; i++ {
						us.set(i, j, ud.at(i, j)*complex(s[j], 0))
					}
				}
				vk := newDense(k, n)
				for j := 0; j < n; j++ {
					for i := 0; i < k; i++ {
						vk.set(i, j, vd.at(i, j))
					}
				}
				if res := scaledNorm(sub(ref, mul(us, vk)), anorm); !(res <= tol) {
					t.Fatalf("%s: ‖A − USVᴴ‖/‖A‖ = %.3g > %.3g", name, res, tol)
				}
				if res := orthErr(ud); !(res <= tol) {
					t.Fatalf("%s: ‖UᴴU − I‖ = %.3g > %.3g", name, res, tol)
				}
				if res := orthErr(vd.op(ConjTrans)); !(res <= tol) {
					t.Fatalf("%s: ‖VᴴV − I‖ = %.3g > %.3g", name, res, tol)
				}
			}
		}
	}
}

var allSVDKinds = []svdKind{svdRandom, svdRankDeficient, svdZero, svdIdentity, svdHuge, svdTiny, svdGraded}

var gesvdShapes = [][2]int{
	{0, 0}, {0, 3}, {3, 0}, {1, 1}, {1, 5}, {5, 1}, {2, 2}, {3, 2}, {2, 3},
	{4, 4}, {7, 5}, {5, 7}, {10, 4}, {4, 10}, {11, 6}, {6, 11}, {16, 16},
	{17, 9}, {9, 17}, {31, 31}, {40, 12}, {12, 40}, {37, 29},
}

func TestGesvd(t *testing.T) {
	testGesvd[float64](t, gesvdShapes, allSVDKinds)
	testGesvd[complex128](t, gesvdShapes, allSVDKinds)
	testGesvd[float32](t, gesvdShapes, allSVDKinds)
	testGesvd[complex64](t, gesvdShapes, allSVDKinds)
}

// TestGesvdBlocked runs Gesvd through the blocked reductions: small
// Gebrd and QR blocks on small matrices, and the default blocks past their
// crossovers.
func TestGesvdBlocked(t *testing.T) {
	small := [][2]int{{13, 13}, {29, 21}, {21, 29}, {50, 19}, {19, 50}}
	withGebrd(4, 8, func() {
		withQRBlock(5, 2, func() {
			kinds := []svdKind{svdRandom, svdRankDeficient}
			testGesvd[float64](t, small, kinds)
			testGesvd[complex128](t, small, kinds)
			testGesvd[float32](t, small, kinds)
			testGesvd[complex64](t, small, kinds)
		})
	})
	big := [][2]int{{150, 140}, {300, 130}, {130, 160}}
	if testing.Short() {
		big = big[:1]
	}
	testGesvd[float64](t, big, []svdKind{svdRandom})
	testGesvd[complex128](t, big[:1], []svdKind{svdRandom})
}

func TestGesvdNonFinite(t *testing.T) {
	var ws Workspace
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		for _, sh := range [][2]int{{1, 1}, {5, 3}, {3, 5}, {20, 4}} {
			m, n := sh[0], sh[1]
			k := min(m, n)
			for job := SVDValues; job <= SVDFull; job++ {
				a := gemm.Mat[complex128]{Data: make([]complex128, m*n), RS: 1, CS: m}
				for i := range a.Data {
					a.Data[i] = complex(float64(i), 1)
				}
				a.Data[len(a.Data)/2] = complex(bad, 0)
				u := gemm.Mat[complex128]{Data: make([]complex128, m*m), RS: 1, CS: m}
				vt := gemm.Mat[complex128]{Data: make([]complex128, n*n), RS: 1, CS: n}
				s := make([]float64, k)
				if info := Gesvd(&ws, nil, job, m, n, a, s, u, vt); info != k {
					t.Errorf("%dx%d job %d %v: info %d, want %d", m, n, job, bad, info, k)
				}
				if !math.IsNaN(s[0]) {
					t.Errorf("%dx%d job %d %v: s = %v, want NaN", m, n, job, bad, s)
				}
			}
		}
	}
}

// TestGesvdRepeated checks exactly repeated singular values: A = Q1·S·Q2
// with orthonormal Q1, Q2 from QR and S with a repeated block.
func TestGesvdRepeated(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 9))
	var ws Workspace
	for _, n := range []int{6, 25} {
		want := make([]float64, n)
		for i := range want {
			want[i] = []float64{3, 3, 3, 1, 1, 0.5}[i%6]
		}
		sort.Sort(sort.Reverse(sort.Float64Slice(want)))
		q := func() dense128 {
			a := store[float64](randDense[float64](rng, n, n), dense)
			tau := make([]float64, n)
			Geqrf(&ws, nil, n, n, a.Mat, tau)
			Orgqr(&ws, nil, n, n, n, a.Mat, tau)
			return toDense(a)
		}
		sd := newDense(n, n)
		for i, v := range want {
			sd.set(i, i, complex(v, 0))
		}
		ref := mul(mul(q(), sd), q())
		a := store[float64](ref, padded)
		s := make([]float64, n)
		u := newMat[float64](n, n, dense, func(int, int) complex128 { return 0 })
		vt := newMat[float64](n, n, transposed, func(int, int) complex128 { return 0 })
		if info := Gesvd(&ws, nil, SVDThin, n, n, a.Mat, s, u.Mat, vt.Mat); info != 0 {
			t.Fatalf("n=%d: info %d", n, info)
		}
		tol := 16 * float64(n) * 0x1p-53
		for i := range s {
			if math.Abs(s[i]-want[i]) > tol*want[0] {
				t.Fatalf("n=%d: σ%d = %.17g, want %g", n, i, s[i], want[i])
			}
		}
		if res := orthErr(toDense(u)); res > tol {
			t.Fatalf("n=%d: ‖UᵀU − I‖ = %.3g", n, res)
		}
	}
}

// TestGesvdDivideConquer runs the Gesvd tests with the vectors from the
// bidiagonal divide and conquer down to small orders, with small leaves.
func TestGesvdDivideConquer(t *testing.T) {
	d0 := GesvdDCMin
	GesvdDCMin = 2
	defer func() { GesvdDCMin = d0 }()
	withBdsdcLeaf(3, func() {
		testGesvd[float64](t, gesvdShapes, allSVDKinds)
		testGesvd[complex128](t, gesvdShapes, allSVDKinds)
		testGesvd[float32](t, gesvdShapes, allSVDKinds)
		testGesvd[complex64](t, gesvdShapes, allSVDKinds)
	})
}

// TestGesvdDivideConquerFallback checks Gesvd's fallback to Bdsqr when
// the divide and conquer fails.
func TestGesvdDivideConquerFallback(t *testing.T) {
	d0 := GesvdDCMin
	GesvdDCMin = 2
	bdsdcFailForTest = true
	defer func() { GesvdDCMin, bdsdcFailForTest = d0, false }()
	shapes := [][2]int{{5, 5}, {12, 7}, {7, 12}, {40, 12}}
	testGesvd[float64](t, shapes, []svdKind{svdRandom, svdRankDeficient})
	testGesvd[complex128](t, shapes, []svdKind{svdRandom})
}
