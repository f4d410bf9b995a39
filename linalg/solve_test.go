package linalg_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
)

func TestSolve(t *testing.T) {
	forTypes(t, testSolve[float32], testSolve[float64], testSolve[complex64], testSolve[complex128])
}

// testSolve checks ‖A·X − B‖/(‖A‖‖X‖ + ‖B‖) ≤ c·n·eps for Solve and
// SolveTriangular and ‖A·inv(A) − I‖ ≤ c·n·cond·eps for Inv, over sizes,
// batches (with a broadcast right side) and layouts.
func testSolve[T tf.Scalar](t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range sizes {
		for _, batch := range batches {
			if n > 33 && batch != nil {
				continue
			}
			nb := tf.Numel(batch)
			as := many(nb, func() mat { return wellConditioned[T](r, n) })
			for li, layout := range layouts {
				a := place[T](t, as, n, n, batch, layout)
				bs := many(nb, func() mat { return randMat[T](r, n, 2) })
				b := place[T](t, bs, n, 2, batch, layouts[(li+1)%len(layouts)])
				x, err := linalg.Solve(e, a, b)
				if err != nil {
					t.Fatalf("n=%d %s: %v", n, layout, err)
				}
				checkSolve(t, as, items(t, x), bs, n, 8*eps[T]())
				// Into a strided destination.
				dst := place[T](t, many(nb, func() mat { return newMat(n, 2) }), n, 2, batch, layouts[(li+2)%len(layouts)])
				if err := linalg.SolveInto(e, dst, a, b); err != nil {
					t.Fatal(err)
				}
				checkSolve(t, as, items(t, dst), bs, n, 8*eps[T]())
				// One right side (n, 2) for every matrix, and a vector.
				b2 := place[T](t, bs[:1], n, 2, nil, "compact")
				if x, err = linalg.Solve(e, a, b2); err != nil {
					t.Fatal(err)
				}
				checkSolve(t, as, items(t, x), bs[:1], n, 8*eps[T]())
				v, _ := b2.Slice(1, 0, 1, 1)
				v1, err := v.Reshape(n)
				if err != nil {
					v1, _ = tf.Copy(e, v)
					v1, _ = v1.Reshape(n)
				}
				xv, err := linalg.Solve(e, a, v1)
				if err != nil {
					t.Fatal(err)
				}
				if want := append([]int{n}, batch...); !equalInts(xv.Shape(), want) {
					t.Fatalf("vector solve shape %v, want %v", xv.Shape(), want)
				}
				col := newMat(n, 1)
				copy(col.v, bs[0].v[:n])
				xs := items(t, mustReshape(t, xv, append([]int{n, 1}, batch...)))
				checkSolve(t, as, xs, []mat{col}, n, 8*eps[T]())
				// Inverse.
				inv, err := linalg.Inv(e, a)
				if err != nil {
					t.Fatal(err)
				}
				for q, ai := range items(t, inv) {
					if n == 0 {
						continue
					}
					cond := fro(as[q]) * fro(ai)
					bound(t, "‖A·inv(A)−I‖", fro(sub(mul(as[q], ai), eye(n))), 4*cond, n, eps[T]())
				}
			}
			testTriangular[T](t, e, r, n, batch)
		}
	}
}

func testTriangular[T tf.Scalar](t *testing.T, e tf.Engine, r *rand.Rand, n int, batch []int) {
	nb := tf.Numel(batch)
	for _, up := range []bool{false, true} {
		for _, right := range []bool{false, true} {
			for _, unit := range []bool{false, true} {
				// The triangle as solved (other triangle zero, unit diagonal
				// made explicit) and the operand with garbage around it.
				tri := many(nb, func() mat { return wellConditioned[T](r, n) })
				full := make([]mat, nb)
				for q, a := range tri {
					full[q] = mat{n, n, append([]complex128(nil), a.v...)}
					for j := range n {
						for i := range n {
							if up && i > j || !up && i < j {
								a.v[i+j*n] = 0
							}
							if unit && i == j {
								a.v[i+j*n] = 1
								full[q].v[i+j*n] = complex(nanF(), 0)
							}
						}
					}
				}
				var opts []linalg.Option
				bm, bn := n, 3
				if right {
					opts, bm, bn = append(opts, linalg.Right), 3, n
				}
				if unit {
					opts = append(opts, linalg.UnitDiagonal)
				}
				bs := many(nb, func() mat { return randMat[T](r, bm, bn) })
				x, err := linalg.SolveTriangular(e, place[T](t, full, n, n, batch, "transposed"), place[T](t, bs, bm, bn, batch, "strided"), up, opts...)
				if err != nil {
					t.Fatalf("n=%d up=%v right=%v unit=%v: %v", n, up, right, unit, err)
				}
				for q, xq := range items(t, x) {
					var prod mat
					if right {
						prod = mul(xq, tri[q])
					} else {
						prod = mul(tri[q], xq)
					}
					if d := fro(tri[q])*fro(xq) + fro(bs[q]); d > 0 {
						bound(t, "triangular residual", fro(sub(prod, bs[q]))/d, 8, n, eps[T]())
					}
				}
			}
		}
	}
}

func mustReshape[T tf.Scalar](t *testing.T, x *tf.Tensor[T], shape []int) *tf.Tensor[T] {
	t.Helper()
	y, err := x.Reshape(shape...)
	if err != nil {
		t.Fatal(err)
	}
	return y
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSolveErrors(t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(7, 8))
	as := many(6, func() mat { return wellConditioned[complex128](r, 3) })
	// Item (0, 2) has a zero column: its LU meets a zero pivot at U[1, 1].
	for i := range 3 {
		as[4].v[i+1*3] = 0
	}
	a := place[complex128](t, as, 3, 3, []int{2, 3}, "compact")
	b := place[complex128](t, many(6, func() mat { return randMat[complex128](r, 3, 2) }), 3, 2, []int{2, 3}, "compact")
	x, _ := tf.Zeros[complex128](3, 2, 2, 3)
	inv, _ := tf.Zeros[complex128](3, 3, 2, 3)
	for name, err := range map[string]error{"SolveInto": linalg.SolveInto(e, x, a, b), "InvInto": linalg.InvInto(e, inv, a)} {
		if !errors.Is(err, tf.ErrSingular) || !strings.Contains(err.Error(), "batch item (0, 2)") || !strings.Contains(err.Error(), "U[1, 1]") {
			t.Fatalf("%s: got %v, want ErrSingular naming item (0, 2) and U[1, 1]", name, err)
		}
	}
	for _, d := range [][]complex128{scalars(t, x), scalars(t, inv)} {
		for _, v := range d {
			if v != 0 {
				t.Fatal("destination written on ErrSingular")
			}
		}
	}
	// Det of the singular item is 0, not an error.
	det, err := linalg.Det(e, a)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := det.At(0, 2); v != 0 {
		t.Fatalf("det of a singular matrix = %v, want 0", v)
	}
	// Shapes, aliasing, released tensors.
	bad, _ := tf.Zeros[complex128](4, 2, 2, 3)
	if _, err := linalg.Solve(e, a, bad); !errors.Is(err, tf.ErrShape) || !strings.Contains(err.Error(), ": b:") {
		t.Fatalf("rows: got %v", err)
	}
	bad, _ = tf.Zeros[complex128](3, 2, 3, 3)
	if _, err := linalg.Solve(e, a, bad); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("batch: got %v", err)
	}
	rect, _ := tf.Zeros[complex128](3, 2)
	if _, err := linalg.Inv(e, rect); !errors.Is(err, tf.ErrShape) || !strings.Contains(err.Error(), ": a:") {
		t.Fatalf("square: got %v", err)
	}
	if err := linalg.SolveInto(e, b, a, b); !errors.Is(err, tf.ErrAlias) {
		t.Fatalf("alias: got %v", err)
	}
	xs, _ := x.Slice(2, 0, 1, 1)
	if err := linalg.SolveInto(e, xs, a, b); !errors.Is(err, tf.ErrShape) || !strings.Contains(err.Error(), "dst") {
		t.Fatalf("dst shape: got %v", err)
	}
	bc, _ := tf.Zeros[complex128](3, 1, 2, 3)
	bcast, _ := bc.Broadcast(3, 2, 2, 3)
	if err := linalg.SolveInto(e, bcast, a, b); !errors.Is(err, tf.ErrAlias) {
		t.Fatalf("repeated dst: got %v", err)
	}
	c, _ := tf.Copy(e, a)
	c.Release()
	if _, err := linalg.Inv(e, c); !errors.Is(err, tf.ErrReleased) {
		t.Fatalf("released: got %v", err)
	}
	if _, err := linalg.Inv[float64](nil, nil); !errors.Is(err, tf.ErrArgument) {
		t.Fatalf("nil: got %v", err)
	}
	// A zero on a triangular diagonal.
	tri := place[complex128](t, []mat{newMat(3, 3)}, 3, 3, nil, "compact")
	if _, err := linalg.SolveTriangular(e, tri, rect, true); !errors.Is(err, tf.ErrSingular) || !strings.Contains(err.Error(), "the matrix") {
		t.Fatalf("triangular: got %v", err)
	}
	if _, err := linalg.SolveTriangular(e, tri, rect, true, linalg.Upper); !errors.Is(err, tf.ErrArgument) {
		t.Fatalf("option: got %v", err)
	}
	// NaN in A is refused before any solve.
	as[4] = wellConditioned[complex128](r, 3)
	as[1].v[5] = complex(nanF(), 1)
	a = place[complex128](t, as, 3, 3, []int{2, 3}, "compact")
	if err := linalg.SolveInto(e, x, a, b); !errors.Is(err, tf.ErrArgument) || !strings.Contains(err.Error(), "batch item (1, 0)") || !strings.Contains(err.Error(), "(2, 1)") {
		t.Fatalf("NaN: got %v", err)
	}
}
