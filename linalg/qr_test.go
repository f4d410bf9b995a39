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

func TestQR(t *testing.T) {
	forTypes(t, testQR[float32], testQR[float64], testQR[complex64], testQR[complex128])
}

// orthoErr is ‖QᴴQ − I‖ (columns) or ‖QQᴴ − I‖ (rows).
func orthoErr(q mat, rows bool) float64 {
	if rows {
		q = adj(q)
	}
	return fro(sub(mul(adj(q), q), eye(q.n)))
}

// checkTriangle fails t when the part of f that should be zero is not:
// below the diagonal (lower false) or above it.
func checkZeroPart(t *testing.T, what string, f mat, lower bool) {
	t.Helper()
	for j := range f.n {
		for i := range f.m {
			if (lower && j > i || !lower && i > j) && f.at(i, j) != 0 {
				t.Fatalf("%s[%d, %d] = %v, want 0", what, i, j, f.at(i, j))
			}
		}
	}
}

// checkPositiveDiag fails t when f's diagonal is not real and ≥ 0.
func checkPositiveDiag(t *testing.T, what string, f mat) {
	t.Helper()
	for i := range min(f.m, f.n) {
		if d := f.at(i, i); imag(d) != 0 || real(d) < 0 {
			t.Fatalf("%s[%d, %d] = %v, want real ≥ 0", what, i, i, d)
		}
	}
}

func testQR[T tf.Scalar](t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(21, 22))
	ep := eps[T]()
	for _, n := range sizes {
		for _, batch := range batches {
			if n > 33 && batch != nil {
				continue
			}
			nb := tf.Numel(batch)
			for _, m := range []int{n, n + 3, max(n-2, 0)} {
				as := many(nb, func() mat { return randMat[T](r, m, n) })
				if nb > 1 && m*n > 0 {
					// A rank-deficient item: a repeated column.
					for i := range m {
						as[1].v[i+(n-1)*m] = as[1].v[i]
					}
				}
				for li, layout := range layouts {
					if n > 33 && li > 1 {
						continue
					}
					a := place[T](t, as, m, n, batch, layout)
					for _, lq := range []bool{false, true} {
						for oi, opts := range [][]linalg.Option{nil, {linalg.Complete}, {linalg.PositiveDiagonal}, {linalg.Complete, linalg.PositiveDiagonal}} {
							x, y := runFactor[T](t, e, a, lq, opts, (li+oi)%2 == 1, layouts[(li+1)%len(layouts)])
							pos := len(opts) > 0 && opts[len(opts)-1] == linalg.PositiveDiagonal
							xs, ys := items(t, x), items(t, y)
							for q := range as {
								tri, uni := ys[q], xs[q]
								if lq {
									tri, uni = xs[q], ys[q]
								}
								checkZeroPart(t, "triangular factor", tri, lq)
								if pos {
									checkPositiveDiag(t, "triangular factor", tri)
								}
								bound(t, "orthogonality", orthoErr(uni, lq), 8, max(m, n), ep)
								if m*n > 0 {
									bound(t, "‖A − factors‖/‖A‖", fro(sub(as[q], mul(xs[q], ys[q])))/fro(as[q]), 30, max(m, n), ep)
								}
							}
						}
					}
				}
			}
		}
	}
}

// runFactor computes QR or LQ of a with opts, through the allocating form
// or (into) through the Into form with destinations in layout.
func runFactor[T tf.Scalar](t *testing.T, e tf.Engine, a *tf.Tensor[T], lq bool, opts []linalg.Option, into bool, layout string) (x, y *tf.Tensor[T]) {
	t.Helper()
	var err error
	if !into {
		if lq {
			x, y, err = linalg.LQ(e, a, opts...)
		} else {
			x, y, err = linalg.QR(e, a, opts...)
		}
		if err != nil {
			t.Fatalf("QR/LQ %v of %v: %v", opts, a.Shape(), err)
		}
		return x, y
	}
	s := a.Shape()
	m, n, batch := s[0], s[1], s[2:]
	k := min(m, n)
	complete, pos := false, []linalg.Option(nil)
	for _, o := range opts {
		if o == linalg.Complete {
			complete = true
		} else {
			pos = append(pos, o)
		}
	}
	xs, ys := [2]int{m, k}, [2]int{k, n}
	switch {
	case complete && !lq:
		xs, ys = [2]int{m, m}, [2]int{m, n}
	case complete:
		xs, ys = [2]int{m, n}, [2]int{n, n}
	}
	nb := tf.Numel(batch)
	x = place[T](t, many(nb, func() mat { return newMat(xs[0], xs[1]) }), xs[0], xs[1], batch, layout)
	y = place[T](t, many(nb, func() mat { return newMat(ys[0], ys[1]) }), ys[0], ys[1], batch, layout)
	if lq {
		err = linalg.LQInto(e, x, y, a, pos...)
	} else {
		err = linalg.QRInto(e, x, y, a, pos...)
	}
	if err != nil {
		t.Fatalf("QRInto/LQInto %v of %v: %v", opts, a.Shape(), err)
	}
	return x, y
}

// TestQRTriangleOnly checks that QRInto and LQInto with a nil unitary
// factor compute the same triangular factor.
func TestQRTriangleOnly(t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(23, 24))
	as := many(1, func() mat { return randMat[complex128](r, 9, 5) })
	a := place[complex128](t, as, 9, 5, nil, "strided")
	q, rr, err := linalg.QR(e, a, linalg.PositiveDiagonal)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := tf.Zeros[complex128](5, 5)
	if err := linalg.QRInto(e, nil, r2, a, linalg.PositiveDiagonal); err != nil {
		t.Fatal(err)
	}
	if d := fro(sub(items(t, rr)[0], items(t, r2)[0])); d > 1e-13 {
		t.Errorf("R alone differs from R with Q by %g", d)
	}
	_ = q
	at, _ := a.Transpose()
	l2, _ := tf.Zeros[complex128](5, 5)
	if err := linalg.LQInto(e, l2, nil, at, linalg.PositiveDiagonal); err != nil {
		t.Fatal(err)
	}
	// L of Aᵀ is Rᵀ up to conjugation: R's diagonal is real, L = conj(R)ᵀ… = Rᵀ
	// for the plain transpose only when real; compare ‖L‖ = ‖R‖ entrywise in modulus.
	lr, rr2 := items(t, l2)[0], items(t, r2)[0]
	for j := range 5 {
		for i := range 5 {
			if d := math.Abs(cmplx.Abs(lr.at(i, j)) - cmplx.Abs(rr2.at(j, i))); d > 1e-13 {
				t.Fatalf("|L[%d,%d]| differs from |R[%d,%d]| by %g", i, j, j, i, d)
			}
		}
	}
}

// TestQRUnique checks that with PositiveDiagonal the factors of a matrix
// of full column rank do not depend on the layout or on Complete: they are
// unique, so any two computations agree to rounding.
func TestQRUnique(t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(25, 26))
	as := many(1, func() mat { return randMat[complex128](r, 12, 7) })
	var ref []mat
	for _, layout := range layouts {
		a := place[complex128](t, as, 12, 7, nil, layout)
		q, rr, err := linalg.QR(e, a, linalg.PositiveDiagonal, linalg.Complete)
		if err != nil {
			t.Fatal(err)
		}
		qi, ri := items(t, q)[0], items(t, rr)[0]
		got := []mat{cols(qi, 7), rows(ri, 7)}
		if ref == nil {
			ref = got
			continue
		}
		for i := range got {
			if d := fro(sub(got[i], ref[i])); d > 1e-12 {
				t.Errorf("%s: factor %d differs by %g", layout, i, d)
			}
		}
	}
}

func cols(a mat, k int) mat {
	c := newMat(a.m, k)
	copy(c.v, a.v[:a.m*k])
	return c
}

func rows(a mat, k int) mat {
	c := newMat(k, a.n)
	for j := range a.n {
		for i := range k {
			c.v[i+j*k] = a.at(i, j)
		}
	}
	return c
}

func TestQRErrors(t *testing.T) {
	e := engine(t)
	a, _ := tf.Zeros[float64](4, 3)
	_ = a.Set(math.NaN(), 2, 1)
	if _, _, err := linalg.QR(e, a); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("QR of NaN: %v, want ErrArgument", err)
	}
	q, _ := tf.Full[float64](5, 4, 3)
	r, _ := tf.Full[float64](5, 3, 3)
	if err := linalg.QRInto(e, q, r, a); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("QRInto of NaN: %v, want ErrArgument", err)
	}
	for _, x := range [][]float64{mustData(t, q), mustData(t, r)} {
		for _, v := range x {
			if v != 5 {
				t.Fatal("a failed QRInto wrote its destinations")
			}
		}
	}
	_ = a.Set(1, 2, 1)
	bad, _ := tf.Zeros[float64](4, 4)
	if err := linalg.QRInto(e, bad, r, a); !errors.Is(err, tf.ErrShape) {
		t.Errorf("QRInto with a 4×4 q for a reduced r: %v, want ErrShape", err)
	}
	if err := linalg.QRInto(e, q, nil, a); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("QRInto with nil r: %v, want ErrArgument", err)
	}
	if err := linalg.QRInto(e, a, r, a); !errors.Is(err, tf.ErrAlias) {
		t.Errorf("QRInto with q = a: %v, want ErrAlias", err)
	}
	if err := linalg.QRInto(e, q, r, a, linalg.Complete); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("QRInto with Complete: %v, want ErrArgument (the shapes choose the mode)", err)
	}
	v, _ := tf.Zeros[float64](4)
	if _, _, err := linalg.LQ(e, v); !errors.Is(err, tf.ErrShape) {
		t.Errorf("LQ of a vector: %v, want ErrShape", err)
	}
}

func mustData[T tf.Elem](t *testing.T, x *tf.Tensor[T]) []T {
	t.Helper()
	d, err := x.Data()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestQRPivoted checks A[:, perm] = Q·R with |R[j, j]| non-increasing on
// batched, strided, rank-deficient inputs.
func TestQRPivoted(t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(27, 28))
	for _, sz := range [][3]int{{9, 6, 3}, {6, 9, 6}, {5, 5, 5}, {1, 4, 1}} {
		m, n, rank := sz[0], sz[1], sz[2]
		as := many(6, func() mat { return lowRank[complex128](r, m, n, rank) })
		a := place[complex128](t, as, m, n, []int{2, 3}, "strided")
		q, rr, perm, err := linalg.QRPivoted(e, a, linalg.PositiveDiagonal)
		if err != nil {
			t.Fatal(err)
		}
		ps := mustData(t, perm)
		for i, qi := range items(t, q) {
			ri := items(t, rr)[i]
			pi := ps[i*n : (i+1)*n]
			ap := newMat(m, n)
			for j, c := range pi {
				for row := range m {
					ap.v[row+j*m] = as[i].at(row, int(c))
				}
			}
			bound(t, "‖A[:, perm] − QR‖/‖A‖", fro(sub(ap, mul(qi, ri)))/fro(as[i]), 8, max(m, n), eps[complex128]())
			checkPositiveDiag(t, "R", ri)
			for j := 1; j < min(m, n); j++ {
				if real(ri.at(j, j)) > real(ri.at(j-1, j-1))*(1+1e-12) {
					t.Fatalf("|R[%d,%d]| grows", j, j)
				}
			}
			if rank < min(m, n) && real(ri.at(rank, rank)) > 1e-12*fro(as[i]) {
				t.Errorf("R[%d,%d] = %v does not reveal rank %d", rank, rank, ri.at(rank, rank), rank)
			}
		}
	}
}
