package linalg_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
)

func TestCholesky(t *testing.T) {
	forTypes(t, testCholesky[float32], testCholesky[float64], testCholesky[complex64], testCholesky[complex128])
}

// testCholesky checks ‖A − L·Lᴴ‖/‖A‖ (and Uᴴ·U) ≤ c·n·eps, the zero
// triangle, and CholeskySolve's residual, over sizes, batches, input and
// destination layouts.
func testCholesky[T tf.Scalar](t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range sizes {
		for _, batch := range batches {
			if n > 33 && batch != nil {
				continue
			}
			nb := tf.Numel(batch)
			as := many(nb, func() mat { return hpd[T](r, n) })
			for li, layout := range layouts {
				a := place[T](t, as, n, n, batch, layout)
				for _, up := range []bool{false, true} {
					var opts []linalg.Option
					if up {
						opts = append(opts, linalg.Upper)
					}
					var l *tf.Tensor[T]
					var err error
					if li%2 == 0 {
						l, err = linalg.Cholesky(e, a, opts...)
					} else { // into a destination of another layout
						l = place[T](t, many(nb, func() mat { return newMat(n, n) }), n, n, batch, layouts[(li+1)%len(layouts)])
						err = linalg.CholeskyInto(e, l, a, opts...)
					}
					if err != nil {
						t.Fatalf("n=%d %s upper=%v: %v", n, layout, up, err)
					}
					for q, f := range items(t, l) {
						for j := range n {
							for i := range n {
								if (up && i > j || !up && i < j) && f.at(i, j) != 0 {
									t.Fatalf("n=%d: other triangle not zero at (%d,%d)", n, i, j)
								}
							}
						}
						rec := mul(f, adj(f))
						if up {
							rec = mul(adj(f), f)
						}
						if n > 0 {
							bound(t, "‖A−LLᴴ‖/‖A‖", fro(sub(as[q], rec))/fro(as[q]), 4, n, eps[T]())
						}
					}
					// CholeskySolve with the factor just computed.
					bs := many(nb, func() mat { return randMat[T](r, n, 3) })
					b := place[T](t, bs, n, 3, batch, "compact")
					x, err := linalg.CholeskySolve(e, l, b, opts...)
					if err != nil {
						t.Fatal(err)
					}
					checkSolve(t, as, items(t, x), bs, n, 8*eps[T]())
				}
			}
		}
	}
}

// checkSolve checks ‖A·X − B‖/(‖A‖‖X‖ + ‖B‖) ≤ n·tol for each item.
func checkSolve(t *testing.T, as, xs, bs []mat, n int, tol float64) {
	t.Helper()
	for q := range xs {
		a, b := as[q%len(as)], bs[q%len(bs)]
		res := fro(sub(mul(a, xs[q]), b))
		if d := fro(a)*fro(xs[q]) + fro(b); d > 0 {
			bound(t, "solve residual", res/d, 1, n, tol)
		}
	}
}

func TestCholeskyErrors(t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(3, 4))
	as := many(6, func() mat { return hpd[float64](r, 4) })
	// Item (1, 2) of a (2, 3) batch is indefinite at its third leading minor.
	as[5].v[2+2*4] = -10
	a := place[float64](t, as, 4, 4, []int{2, 3}, "compact")
	dst := place[float64](t, many(6, func() mat { return newMat(4, 4) }), 4, 4, []int{2, 3}, "compact")
	before := scalars(t, dst)
	err := linalg.CholeskyInto(e, dst, a)
	if !errors.Is(err, tf.ErrNotPositiveDefinite) || !strings.Contains(err.Error(), "batch item (1, 2)") || !strings.Contains(err.Error(), "order 3") {
		t.Fatalf("got %v, want ErrNotPositiveDefinite naming item (1, 2) and order 3", err)
	}
	if got := scalars(t, dst); !equalC(got, before) {
		t.Fatal("dst written on failure")
	}
	as[5] = hpd[float64](r, 4)
	nan := as[2]
	nan.v[1+0*4] = complex(nanF(), 0)
	a = place[float64](t, as, 4, 4, []int{2, 3}, "compact")
	if _, err := linalg.Cholesky(e, a); !errors.Is(err, tf.ErrArgument) || !strings.Contains(err.Error(), "batch item (0, 1)") {
		t.Fatalf("NaN: got %v", err)
	}
	sq, _ := tf.Zeros[float64](3, 4)
	if _, err := linalg.Cholesky(e, sq); !errors.Is(err, tf.ErrShape) || !strings.Contains(err.Error(), ": a:") {
		t.Fatalf("non-square: got %v", err)
	}
	if err := linalg.CholeskyInto(e, a, a); !errors.Is(err, tf.ErrAlias) {
		t.Fatalf("alias: got %v", err)
	}
	if _, err := linalg.Cholesky(e, a, linalg.Right); !errors.Is(err, tf.ErrArgument) {
		t.Fatalf("bad option: got %v", err)
	}
}

func equalC(a, b []complex128) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && (a[i] == a[i] || b[i] == b[i]) {
			return false
		}
	}
	return true
}
