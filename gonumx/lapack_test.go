package gonumx

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// The tests below run gonum's own LAPACK and mat code with this package's
// BLAS installed, and check the results by their residuals (scaled by
// n·eps·‖A‖, so that a correct factorization gives a number of order 1),
// next to the same residuals of a run on gonum's own BLAS.

const residualLimit = 20

// withBLAS runs f with impl installed as gonum's float64 BLAS, and gonum's
// own BLAS back in place afterwards.
func withBLAS(impl blas.Float64, f func()) {
	blas64.Use(impl)
	defer blas64.Use(gonum.Implementation{})
	f()
}

// lapackBLAS returns the BLAS a factorization test runs on: gonum's own
// (the reference) and this package's, serial and with a team of two.
func lapackBLAS(t *testing.T) []struct {
	name string
	impl blas.Float64
} {
	impls := implsUnderTest(t)
	return []struct {
		name string
		impl blas.Float64
	}{{"gonum", gonum.Implementation{}}, {"serial", impls[0]}, {"threads=2", impls[1]}}
}

func randDense(rng *rand.Rand, r, c int) *mat.Dense {
	d := make([]float64, r*c)
	for i := range d {
		d[i] = rng.Float64()*2 - 1
	}
	return mat.NewDense(r, c, d)
}

// spd returns the symmetric positive definite M·Mᵀ + n·I.
func spd(rng *rand.Rand, n int) *mat.Dense {
	m := randDense(rng, n, n)
	var a mat.Dense
	a.Mul(m, m.T())
	for i := range n {
		a.Set(i, i, a.At(i, i)+float64(n))
	}
	return &a
}

// scaledResidual returns ‖got − want‖_F / (n·eps·scale).
func scaledResidual(got, want mat.Matrix, n int, scale float64) float64 {
	var d mat.Dense
	d.Sub(got, want)
	return mat.Norm(&d, 2) / (float64(max(n, 1)) * 0x1p-53 * scale)
}

func checkResidual(t *testing.T, what string, res float64) {
	t.Helper()
	if !(res < residualLimit) {
		t.Errorf("%s: scaled residual %.3g, want < %d", what, res, residualLimit)
	}
}

var lapackSizes = []int{1, 5, 67, 130, 257}

func TestPotrf(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range lapackSizes {
		a := spd(rng, n)
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			for _, b := range lapackBLAS(t) {
				f := mat.DenseCopyOf(a)
				raw := f.RawMatrix()
				var ok bool
				withBLAS(b.impl, func() {
					_, ok = lapack64.Potrf(blas64.Symmetric{N: n, Stride: raw.Stride, Data: raw.Data, Uplo: ul})
				})
				what := fmt.Sprintf("%s n=%d %c", b.name, n, ul)
				if !ok {
					t.Fatalf("%s: not positive definite", what)
				}
				// Keep the factor's triangle; A = UᵀU or LLᵀ.
				for i := range n {
					for j := range n {
						if ul == blas.Upper && j < i || ul == blas.Lower && j > i {
							f.Set(i, j, 0)
						}
					}
				}
				var p mat.Dense
				if ul == blas.Upper {
					p.Mul(f.T(), f)
				} else {
					p.Mul(f, f.T())
				}
				checkResidual(t, what+" A - LLᵀ", scaledResidual(&p, a, n, mat.Norm(a, 2)))
			}
		}
	}
}

func TestGetrf(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	shapes := [][2]int{{1, 1}, {5, 5}, {67, 67}, {130, 130}, {257, 257}, {300, 130}, {130, 200}}
	for _, sh := range shapes {
		m, n := sh[0], sh[1]
		a := randDense(rng, m, n)
		for _, b := range lapackBLAS(t) {
			f := mat.DenseCopyOf(a)
			ipiv := make([]int, min(m, n))
			withBLAS(b.impl, func() { lapack64.Getrf(f.RawMatrix(), ipiv) })
			k := min(m, n)
			l, u := mat.NewDense(m, k, nil), mat.NewDense(k, n, nil)
			for i := range m {
				for j := range n {
					switch {
					case i > j:
						l.Set(i, j, f.At(i, j))
					default:
						u.Set(i, j, f.At(i, j))
						if i == j {
							l.Set(i, i, 1)
						}
					}
				}
			}
			pa := mat.DenseCopyOf(a)
			for i, p := range ipiv {
				if p != i {
					ri, rp := slices.Clone(pa.RawRowView(i)), pa.RawRowView(p)
					pa.SetRow(i, rp)
					pa.SetRow(p, ri)
				}
			}
			var lu mat.Dense
			lu.Mul(l, u)
			checkResidual(t, fmt.Sprintf("%s %d×%d P·A - L·U", b.name, m, n), scaledResidual(&lu, pa, max(m, n), mat.Norm(a, 2)))
		}
	}
}

func TestGeqrf(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	shapes := [][2]int{{1, 1}, {5, 3}, {67, 67}, {130, 130}, {257, 257}, {300, 130}}
	for _, sh := range shapes {
		m, n := sh[0], sh[1]
		a := randDense(rng, m, n)
		for _, b := range lapackBLAS(t) {
			f := mat.DenseCopyOf(a)
			tau := make([]float64, n)
			q := mat.NewDense(m, n, nil)
			withBLAS(b.impl, func() {
				work := make([]float64, 1)
				lapack64.Geqrf(f.RawMatrix(), tau, work, -1)
				work = make([]float64, int(work[0]))
				lapack64.Geqrf(f.RawMatrix(), tau, work, len(work))
				q.Copy(f)
				lapack64.Orgqr(q.RawMatrix(), tau, work, len(work))
			})
			r := mat.NewDense(n, n, nil)
			for i := range n {
				for j := i; j < n; j++ {
					r.Set(i, j, f.At(i, j))
				}
			}
			var qr, qtq mat.Dense
			qr.Mul(q, r)
			qtq.Mul(q.T(), q)
			what := fmt.Sprintf("%s %d×%d", b.name, m, n)
			checkResidual(t, what+" A - QR", scaledResidual(&qr, a, m, mat.Norm(a, 2)))
			checkResidual(t, what+" QᵀQ - I", scaledResidual(&qtq, eye(n), m, 1))
		}
	}
}

func eye(n int) *mat.Dense {
	e := mat.NewDense(n, n, nil)
	for i := range n {
		e.Set(i, i, 1)
	}
	return e
}

func TestSyev(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, n := range lapackSizes {
		if tooBig(n * n * n) {
			continue
		}
		m := randDense(rng, n, n)
		var a mat.Dense
		a.Add(m, m.T())
		var ref []float64
		for _, b := range lapackBLAS(t) {
			v := mat.DenseCopyOf(&a)
			raw := v.RawMatrix()
			w := make([]float64, n)
			var ok bool
			withBLAS(b.impl, func() {
				sym := blas64.Symmetric{N: n, Stride: raw.Stride, Data: raw.Data, Uplo: blas.Upper}
				work := make([]float64, 1)
				lapack64.Syev(lapack.EVCompute, sym, w, work, -1)
				work = make([]float64, int(work[0]))
				ok = lapack64.Syev(lapack.EVCompute, sym, w, work, len(work))
			})
			what := fmt.Sprintf("%s n=%d", b.name, n)
			if !ok {
				t.Fatalf("%s: no convergence", what)
			}
			var av, vl, vtv mat.Dense
			av.Mul(&a, v)
			vl.Mul(v, mat.NewDiagDense(n, w))
			vtv.Mul(v.T(), v)
			norm := mat.Norm(&a, 2)
			checkResidual(t, what+" AV - VΛ", scaledResidual(&av, &vl, n, norm))
			checkResidual(t, what+" VᵀV - I", scaledResidual(&vtv, eye(n), n, 1))
			if ref == nil {
				ref = w
				continue
			}
			for i := range w {
				if d := math.Abs(w[i]-ref[i]) / (float64(n) * 0x1p-53 * norm); !(d < residualLimit) {
					t.Errorf("%s: eigenvalue %d = %v, gonum's %v (scaled difference %.3g)", what, i, w[i], ref[i], d)
				}
			}
		}
	}
}

// TestDenseMul checks mat.Dense.Mul with the BLAS installed by Use, on
// products of all transpose combinations.
func TestDenseMul(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	a, b := randDense(rng, 67, 130), randDense(rng, 130, 257)
	bt := mat.DenseCopyOf(b.T())
	at := mat.DenseCopyOf(a.T())
	cases := []struct {
		name string
		x, y mat.Matrix
	}{{"AB", a, b}, {"AᵀB", at.T(), b}, {"ABᵀ", a, bt.T()}, {"AᵀBᵀ", at.T(), bt.T()}}
	impl, err := Use()
	if err != nil {
		t.Fatal(err)
	}
	defer blas64.Use(gonum.Implementation{})
	for _, c := range cases {
		var got, want mat.Dense
		got.Mul(c.x, c.y)
		blas64.Use(gonum.Implementation{})
		want.Mul(c.x, c.y)
		blas64.Use(impl)
		// Entries of A·B are sums of 130 products of |·| ≤ 1.
		if d := scaledResidual(&got, &want, 130, math.Sqrt(67*257)); !(d < residualLimit) {
			t.Errorf("%s: scaled difference %.3g from gonum's product", c.name, d)
		}
	}
}
