package linalg_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
	gmat "gonum.org/v1/gonum/mat"
)

func TestEigh(t *testing.T) {
	forTypes(t, testEigh[float32, float32], testEigh[float64, float64], testEigh[float32, complex64], testEigh[float64, complex128])
}

// hermitian returns a random Hermitian matrix of the given kind: random,
// with a repeated eigenvalue (a projector plus identity), graded, or zero.
func hermitian[T tf.Scalar](r *rand.Rand, n int, kind string) mat {
	b := randMat[T](r, n, n)
	var a mat
	switch kind {
	case "ill", "clustered":
		return designed[T](r, n, n, spectrum(r, n, kind, illCond[T]()), true)
	case "random":
		a = mul(b, adj(b))
		for i := range n {
			a.v[i+i*n] -= complex(float64(n)*0.5, 0)
		}
	case "repeated":
		// I + 2·P, P the projector onto the first ⌈n/2⌉ columns of a unitary.
		q := unitary[T](r, n)
		a = eye(n)
		for j := range (n + 1) / 2 {
			for i := range n {
				for l := range n {
					a.v[i+l*n] += 2 * q.at(i, j) * conj(q.at(l, j))
				}
			}
		}
	case "graded":
		a = mul(b, adj(b))
		for j := range n {
			for i := range n {
				a.v[i+j*n] *= complex(math.Pow(10, -float64(i+j)/float64(max(n, 1))*4), 0)
			}
		}
	case "zero":
		a = newMat(n, n)
	}
	a = round[T](a)
	for j := range n {
		a.v[j+j*n] = complex(real(a.v[j+j*n]), 0)
		for i := j + 1; i < n; i++ {
			a.v[j+i*n] = conj(a.v[i+j*n])
		}
	}
	return a
}

func conj(z complex128) complex128 { return complex(real(z), -imag(z)) }

func testEigh[R tf.Float, T tf.Scalar](t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(41, 42))
	ep := eps[T]()
	for _, n := range sizes {
		for _, batch := range batches {
			if n > 33 && batch != nil {
				continue
			}
			nb := tf.Numel(batch)
			for _, kind := range []string{"random", "repeated", "graded", "zero", "ill", "clustered"} {
				as := many(nb, func() mat { return hermitian[T](r, n, kind) })
				for li, layout := range layouts {
					if n > 33 && (li > 0 || kind == "graded") || testing.Short() && (n > 33 || li > 0 && kind != "random") {
						continue
					}
					for _, upper := range []bool{false, true} {
						// Garbage in the triangle that is not read.
						ag := make([]mat, nb)
						for q := range as {
							ag[q] = newMat(n, n)
							copy(ag[q].v, as[q].v)
							for j := range n {
								for i := range n {
									if upper && i > j || !upper && i < j {
										ag[q].v[i+j*n] = complex(1e3, 7)
									}
								}
							}
						}
						a := place[T](t, ag, n, n, batch, layout)
						var opts []linalg.Option
						if upper {
							opts = append(opts, linalg.Upper)
						}
						var w *tf.Tensor[R]
						var v *tf.Tensor[T]
						var err error
						if li%2 == 0 {
							w, v, err = linalg.Eigh[R](e, a, opts...)
						} else {
							w, _ = tf.Zeros[R](append([]int{n}, batch...)...)
							v = place[T](t, many(nb, func() mat { return newMat(n, n) }), n, n, batch, layouts[(li+1)%len(layouts)])
							err = linalg.EighInto(e, w, v, a, opts...)
						}
						if err != nil {
							t.Fatalf("Eigh n=%d %s %s: %v", n, kind, layout, err)
						}
						wo, err := linalg.Eigvalsh[R](e, a, opts...)
						if err != nil {
							t.Fatal(err)
						}
						ws, wos := scalars(t, w), scalars(t, wo)
						for q, vq := range items(t, v) {
							aq := as[q]
							wq := ws[q*n : (q+1)*n]
							nrm := fro(aq)
							lam := newMat(n, n)
							for i := range n {
								lam.v[i+i*n] = wq[i]
								if i > 0 && real(wq[i]) < real(wq[i-1]) {
									t.Fatalf("eigenvalues not ascending: %v", wq)
								}
								if d := math.Abs(real(wq[i]) - real(wos[q*n+i])); d > 20*float64(n)*ep*(nrm+1e-300) {
									t.Fatalf("Eigvalsh differs from Eigh by %g", d)
								}
							}
							bound(t, "orthogonality", orthoErr(vq, false), 30, n, ep)
							if nrm > 0 {
								bound(t, "‖AV − VΛ‖/‖A‖", fro(sub(mul(aq, vq), mul(vq, lam)))/nrm, 30, n, ep)
							}
						}
					}
				}
			}
		}
	}
}

// TestEighGonum compares float64 eigenvalues with gonum's.
func TestEighGonum(t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(43, 44))
	for _, n := range []int{1, 5, 64, 150} {
		a := hermitian[float64](r, n, "random")
		sym := gmat.NewSymDense(n, nil)
		for j := range n {
			for i := range n {
				sym.SetSym(i, j, real(a.at(i, j)))
			}
		}
		var es gmat.EigenSym
		if !es.Factorize(sym, false) {
			t.Fatal("gonum failed")
		}
		want := es.Values(nil)
		slices.Sort(want)
		w, err := linalg.Eigvalsh[float64](e, place[float64](t, []mat{a}, n, n, nil, "compact"))
		if err != nil {
			t.Fatal(err)
		}
		got := mustData(t, w)
		for i := range n {
			if d := math.Abs(got[i] - want[i]); d > 50*float64(n)*eps[float64]()*fro(a) {
				t.Errorf("n=%d: λ[%d] = %v, gonum %v", n, i, got[i], want[i])
			}
		}
	}
}

func TestEighErrors(t *testing.T) {
	e := engine(t)
	a, _ := tf.Zeros[float64](3, 3)
	_ = a.Set(math.Inf(1), 2, 0) // in the lower triangle
	if _, _, err := linalg.Eigh[float64](e, a); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("Eigh of Inf: %v, want ErrArgument", err)
	}
	if _, _, err := linalg.Eigh[float64](e, a, linalg.Upper); err != nil {
		t.Errorf("Eigh reading the upper triangle read the lower one: %v", err)
	}
	if _, _, err := linalg.Eigh[float32](e, a); !errors.Is(err, tf.ErrDType) {
		t.Errorf("Eigh[float32] of float64: %v, want ErrDType", err)
	}
	b, _ := tf.Zeros[float64](3, 2)
	if _, err := linalg.Eigvalsh[float64](e, b); !errors.Is(err, tf.ErrShape) {
		t.Errorf("Eigvalsh of 3×2: %v, want ErrShape", err)
	}
	w, _ := tf.Full[float64](9, 3)
	v, _ := tf.Full[float64](9, 3, 3)
	if err := linalg.EighInto(e, w, v, a); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("EighInto of Inf: %v", err)
	}
	for _, x := range [][]float64{mustData(t, w), mustData(t, v)} {
		for _, y := range x {
			if y != 9 {
				t.Fatal("a failed EighInto wrote its destinations")
			}
		}
	}
}
