package linalg_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
	gmat "gonum.org/v1/gonum/mat"
)

func TestSVD(t *testing.T) {
	forTypes(t, testSVD[float32, float32], testSVD[float64, float64], testSVD[float32, complex64], testSVD[float64, complex128])
}

// lowRank returns an m×n matrix of rank at most r.
func lowRank[T tf.Scalar](rng *rand.Rand, m, n, r int) mat {
	return round[T](mul(randMat[T](rng, m, r), randMat[T](rng, r, n)))
}

func testSVD[R tf.Float, T tf.Scalar](t *testing.T) {
	e := engine(t)
	rng := rand.New(rand.NewPCG(51, 52))
	ep := eps[T]()
	for _, n := range sizes {
		for _, batch := range batches {
			if n > 33 && batch != nil {
				continue
			}
			nb := tf.Numel(batch)
			for _, m := range []int{n, n + 3, 2*n + 1, max(n-2, 0)} {
				for _, kind := range []string{"random", "rank-deficient", "zero", "ill", "clustered"} {
					as := many(nb, func() mat {
						switch kind {
						case "ill", "clustered":
							return designed[T](rng, m, n, spectrum(rng, min(m, n), kind, illCond[T]()), false)
						case "rank-deficient":
							return lowRank[T](rng, m, n, min(m, n)/2)
						case "zero":
							return newMat(m, n)
						}
						return randMat[T](rng, m, n)
					})
					for li, layout := range layouts {
						if (kind != "random" || n > 33) && li > 1 || n > 33 && (kind != "random" || li > 0 || m > 2*n) || testing.Short() && (n > 33 || li > 0 && kind != "random") {
							continue
						}
						a := place[T](t, as, m, n, batch, layout)
						for _, full := range []bool{false, true} {
							u, s, vh := runSVD[R, T](t, e, a, full, li%2 == 1, layouts[(li+1)%len(layouts)])
							sv, err := linalg.SVDVals[R](e, a)
							if err != nil {
								t.Fatal(err)
							}
							ss, svs := scalars(t, s), scalars(t, sv)
							k := min(m, n)
							for q, uq := range items(t, u) {
								vq := items(t, vh)[q]
								sq := ss[q*k : (q+1)*k]
								nrm := fro(as[q])
								sm := newMat(uq.n, vq.m)
								for i := range k {
									sm.v[i+i*sm.m] = sq[i]
									if real(sq[i]) < 0 || i > 0 && real(sq[i]) > real(sq[i-1]) {
										t.Fatalf("singular values not descending and ≥ 0: %v", sq)
									}
									if d := math.Abs(real(sq[i]) - real(svs[q*k+i])); d > 20*float64(max(m, n))*ep*(nrm+1e-300) {
										t.Fatalf("SVDVals differs from SVD by %g", d)
									}
								}
								bound(t, "‖UᴴU − I‖", orthoErr(uq, false), 30, max(m, n), ep)
								bound(t, "‖VᴴV − I‖", orthoErr(vq, true), 30, max(m, n), ep)
								if nrm > 0 {
									bound(t, "‖A − USVᴴ‖/‖A‖", fro(sub(as[q], mul(mul(uq, sm), vq)))/nrm, 30, max(m, n), ep)
								}
							}
						}
					}
				}
			}
		}
	}
}

func runSVD[R tf.Float, T tf.Scalar](t *testing.T, e tf.Engine, a *tf.Tensor[T], full, into bool, layout string) (u *tf.Tensor[T], s *tf.Tensor[R], vh *tf.Tensor[T]) {
	t.Helper()
	var err error
	if !into {
		var opts []linalg.Option
		if full {
			opts = append(opts, linalg.Complete)
		}
		if u, s, vh, err = linalg.SVD[R](e, a, opts...); err != nil {
			t.Fatalf("SVD of %v: %v", a.Shape(), err)
		}
		return u, s, vh
	}
	sh := a.Shape()
	m, n, batch := sh[0], sh[1], sh[2:]
	k := min(m, n)
	ku, kv := k, k
	if full {
		ku, kv = m, n
	}
	nb := tf.Numel(batch)
	u = place[T](t, many(nb, func() mat { return newMat(m, ku) }), m, ku, batch, layout)
	vh = place[T](t, many(nb, func() mat { return newMat(kv, n) }), kv, n, batch, layout)
	s, _ = tf.Zeros[R](append([]int{k}, batch...)...)
	if err := linalg.SVDInto(e, u, s, vh, a); err != nil {
		t.Fatalf("SVDInto of %v: %v", a.Shape(), err)
	}
	return u, s, vh
}

// TestSVDGonum compares float64 singular values with gonum's.
func TestSVDGonum(t *testing.T) {
	e := engine(t)
	rng := rand.New(rand.NewPCG(53, 54))
	for _, sz := range [][2]int{{1, 1}, {7, 3}, {3, 7}, {64, 64}, {150, 40}} {
		m, n := sz[0], sz[1]
		a := randMat[float64](rng, m, n)
		d := gmat.NewDense(m, n, nil)
		for j := range n {
			for i := range m {
				d.Set(i, j, real(a.at(i, j)))
			}
		}
		var g gmat.SVD
		if !g.Factorize(d, gmat.SVDNone) {
			t.Fatal("gonum failed")
		}
		want := g.Values(nil)
		s, err := linalg.SVDVals[float64](e, place[float64](t, []mat{a}, m, n, nil, "transposed"))
		if err != nil {
			t.Fatal(err)
		}
		got := mustData(t, s)
		for i := range want {
			if d := math.Abs(got[i] - want[i]); d > 20*float64(max(m, n))*eps[float64]()*want[0] {
				t.Errorf("%dx%d: σ[%d] = %v, gonum %v", m, n, i, got[i], want[i])
			}
		}
	}
}

func TestSVDErrors(t *testing.T) {
	e := engine(t)
	a, _ := tf.Zeros[complex128](3, 4)
	_ = a.Set(complex(math.NaN(), 0), 1, 1)
	if _, _, _, err := linalg.SVD[float64](e, a); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("SVD of NaN: %v, want ErrArgument", err)
	}
	if _, _, _, err := linalg.SVD[float32](e, a); !errors.Is(err, tf.ErrDType) {
		t.Errorf("SVD[float32] of complex128: %v, want ErrDType", err)
	}
	u, _ := tf.Full[complex128](2, 3, 3)
	s, _ := tf.Full[float64](2, 3)
	vh, _ := tf.Full[complex128](2, 3, 4)
	if err := linalg.SVDInto(e, u, s, vh, a); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("SVDInto of NaN: %v", err)
	}
	for _, v := range mustData(t, s) {
		if v != 2 {
			t.Fatal("a failed SVDInto wrote s")
		}
	}
	if err := linalg.SVDInto(e, u, s, nil, a); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("SVDInto with nil vh only: %v, want ErrArgument", err)
	}
	bad, _ := tf.Zeros[complex128](3, 4)
	_ = a.Set(1, 1, 1)
	if err := linalg.SVDInto(e, bad, s, vh, a); !errors.Is(err, tf.ErrShape) {
		t.Errorf("SVDInto with u 3×4: %v, want ErrShape", err)
	}
}

// illCond is the condition number of the ill-conditioned test matrices:
// 1e12 in double precision, 1e5 in single.
func illCond[T tf.Scalar]() float64 {
	if eps[T]() > 1e-10 {
		return 1e5
	}
	return 1e12
}
