package linalg_test

import (
	"errors"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
)

func TestExpm(t *testing.T) {
	forTypes(t, testExpm[float32], testExpm[float64], testExpm[complex64], testExpm[complex128])
}

func testExpm[T tf.Scalar](t *testing.T) {
	e := engine(t)
	rng := rand.New(rand.NewPCG(81, 82))
	ep := eps[T]()
	for _, n := range []int{0, 1, 2, 7, 20} {
		for _, batch := range batches {
			nb := tf.Numel(batch)
			// Hermitian H = V·Λ·Vᴴ with known eigenvalues: exp(H) = V·exp(Λ)·Vᴴ.
			vs := many(nb, func() mat { return unitary[T](rng, n) })
			lams := make([][]float64, nb)
			as := make([]mat, nb)
			for q := range as {
				lams[q] = make([]float64, n)
				l := newMat(n, n)
				for i := range n {
					lams[q][i] = 4*rng.Float64() - 2
					l.v[i+i*n] = complex(lams[q][i], 0)
				}
				as[q] = round[T](mul(mul(vs[q], l), adj(vs[q])))
			}
			for li, layout := range layouts {
				a := place[T](t, as, n, n, batch, layout)
				var x *tf.Tensor[T]
				var err error
				if li%2 == 0 {
					x, err = linalg.Expm(e, a)
				} else {
					x = place[T](t, many(nb, func() mat { return newMat(n, n) }), n, n, batch, layouts[(li+1)%len(layouts)])
					err = linalg.ExpmInto(e, x, a)
				}
				if err != nil {
					t.Fatal(err)
				}
				for q, xq := range items(t, x) {
					el := newMat(n, n)
					for i := range n {
						el.v[i+i*n] = complex(math.Exp(lams[q][i]), 0)
					}
					want := mul(mul(vs[q], el), adj(vs[q]))
					if n > 0 {
						bound(t, "‖exp(A) − V·exp(Λ)·Vᴴ‖/‖exp(A)‖", fro(sub(xq, want))/fro(want), 200, n, ep)
					}
				}
			}
		}
	}
	// A rotation generator: exp([[0, −θ], [θ, 0]]) is the rotation by θ.
	g := place[T](t, []mat{{2, 2, []complex128{0, 1.2, -1.2, 0}}}, 2, 2, nil, "compact")
	x, err := linalg.Expm(e, g)
	if err != nil {
		t.Fatal(err)
	}
	r := items(t, x)[0]
	c, s := math.Cos(1.2), math.Sin(1.2)
	for _, d := range []float64{cmplx.Abs(r.at(0, 0) - complex(c, 0)), cmplx.Abs(r.at(1, 0) - complex(s, 0)), cmplx.Abs(r.at(0, 1) + complex(s, 0))} {
		if d > 20*ep {
			t.Errorf("rotation off by %g", d)
		}
	}
}

func TestExpmErrors(t *testing.T) {
	e := engine(t)
	a, _ := tf.Zeros[float64](2, 2)
	_ = a.Set(math.NaN(), 0, 1)
	if _, err := linalg.Expm(e, a); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("Expm of NaN: %v, want ErrArgument", err)
	}
	b, _ := tf.Zeros[float64](2, 3)
	if _, err := linalg.Expm(e, b); !errors.Is(err, tf.ErrShape) {
		t.Errorf("Expm of 2×3: %v, want ErrShape", err)
	}
}
