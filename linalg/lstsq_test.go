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

func TestLstsqPinv(t *testing.T) {
	forTypes(t, testLstsq[float32, float32], testLstsq[float64, float64], testLstsq[float32, complex64], testLstsq[float64, complex128])
}

func testLstsq[R tf.Float, T tf.Scalar](t *testing.T) {
	e := engine(t)
	rng := rand.New(rand.NewPCG(71, 72))
	ep := eps[T]()
	for _, sz := range [][3]int{{1, 1, 1}, {7, 3, 2}, {3, 7, 2}, {20, 20, 3}, {30, 12, 1}, {12, 30, 4}} {
		m, n, k := sz[0], sz[1], sz[2]
		for _, rank := range []int{min(m, n), max(min(m, n)/2, 1)} {
			for _, batch := range batches {
				nb := tf.Numel(batch)
				as := many(nb, func() mat { return lowRank[T](rng, m, n, rank) })
				bs := many(nb, func() mat { return randMat[T](rng, m, k) })
				a := place[T](t, as, m, n, batch, "transposed")
				b := place[T](t, bs, m, k, batch, "strided")
				x, rk, s, err := linalg.Lstsq[R](e, a, b, 1e3*ep)
				if err != nil {
					t.Fatal(err)
				}
				p, err := linalg.Pinv(e, a, 1e3*ep)
				if err != nil {
					t.Fatal(err)
				}
				ranks := mustData(t, rk)
				ps, xs := items(t, p), items(t, x)
				sv, err := linalg.SVDVals[R](e, a)
				if err != nil {
					t.Fatal(err)
				}
				svs, ss := mustData(t, sv), mustData(t, s)
				for i, v := range svs {
					if d := math.Abs(float64(ss[i] - v)); d > 30*float64(max(m, n))*ep*float64(svs[0]) {
						t.Fatalf("Lstsq's singular value %d is %v, SVDVals' %v", i, ss[i], v)
					}
				}
				for q := range as {
					if int(ranks[q]) != rank {
						t.Errorf("%dx%d rank %d: Lstsq reports rank %d", m, n, rank, ranks[q])
					}
					aq, pq := as[q], ps[q]
					na := fro(aq)
					// The Penrose conditions.
					c := 50 * float64(max(m, n))
					bound(t, "‖AA⁺A − A‖/‖A‖", fro(sub(mul(mul(aq, pq), aq), aq))/na, c, 1, 10*ep)
					bound(t, "‖A⁺AA⁺ − A⁺‖/‖A⁺‖", fro(sub(mul(mul(pq, aq), pq), pq))/fro(pq), c, 1, 10*ep)
					ap := mul(aq, pq)
					bound(t, "‖(AA⁺)ᴴ − AA⁺‖/‖AA⁺‖", fro(sub(adj(ap), ap))/fro(ap), c, 1, 10*ep)
					// X = A⁺·B, the minimum-norm least-squares solution.
					want := mul(pq, bs[q])
					bound(t, "‖X − A⁺B‖/‖A⁺B‖", fro(sub(xs[q], want))/(fro(want)+1e-300), c, 1, 10*ep)
				}
			}
		}
	}
	// A vector right side of a matrix A gives a vector X.
	a := place[T](t, []mat{randMat[T](rng, 6, 4)}, 6, 4, nil, "compact")
	v, _ := tf.Zeros[T](6)
	x, _, _, err := linalg.Lstsq[R](e, a, v, -1)
	if err != nil || len(x.Shape()) != 1 || x.Shape()[0] != 4 {
		t.Fatalf("Lstsq with a vector: %v %v", x, err)
	}
}

func TestMatrixNormCondRank(t *testing.T) {
	e := engine(t)
	rng := rand.New(rand.NewPCG(73, 74))
	a0 := lowRank[complex128](rng, 6, 4, 4)
	a := place[complex128](t, []mat{a0}, 6, 4, nil, "reversed")
	_, s, _, err := linalg.SVD[float64](e, a)
	if err != nil {
		t.Fatal(err)
	}
	sv := mustData(t, s)
	col, row := make([]float64, 4), make([]float64, 6)
	for j := range 4 {
		for i := range 6 {
			col[j] += cmplx.Abs(a0.at(i, j))
			row[i] += cmplx.Abs(a0.at(i, j))
		}
	}
	mx := func(v []float64) float64 { return maxOf(v) }
	mn := func(v []float64) float64 { return -maxOf(negate(v)) }
	want := map[linalg.NormOrder]float64{
		linalg.NormFro: fro(a0), linalg.NormNuclear: sv[0] + sv[1] + sv[2] + sv[3],
		linalg.Norm1: mx(col), linalg.NormNeg1: mn(col), linalg.NormInf: mx(row), linalg.NormNegInf: mn(row),
		linalg.Norm2: sv[0], linalg.NormNeg2: sv[3],
	}
	for ord, w := range want {
		got, err := linalg.MatrixNorm[float64](e, a, ord)
		if err != nil {
			t.Fatal(err)
		}
		if g := mustData(t, got)[0]; math.Abs(g-w) > 1e-13*w {
			t.Errorf("MatrixNorm %d = %v, want %v", ord, g, w)
		}
	}
	c, _ := linalg.Cond[float64](e, a, linalg.Norm2)
	if g := mustData(t, c)[0]; math.Abs(g-sv[0]/sv[3]) > 1e-12*g {
		t.Errorf("Cond = %v, want %v", g, sv[0]/sv[3])
	}
	sq := place[float64](t, []mat{wellConditioned[float64](rng, 5)}, 5, 5, nil, "compact")
	inv, _ := linalg.Inv(e, sq)
	for _, ord := range []linalg.NormOrder{linalg.Norm1, linalg.NormInf, linalg.NormFro} {
		c, err := linalg.Cond[float64](e, sq, ord)
		if err != nil {
			t.Fatal(err)
		}
		n1, _ := linalg.MatrixNorm[float64](e, sq, ord)
		n2, _ := linalg.MatrixNorm[float64](e, inv, ord)
		if g, w := mustData(t, c)[0], mustData(t, n1)[0]*mustData(t, n2)[0]; math.Abs(g-w) > 1e-12*w {
			t.Errorf("Cond ord %d = %v, want %v", ord, g, w)
		}
	}
	sing, _ := tf.Zeros[float64](3, 3)
	if c, _ := linalg.Cond[float64](e, sing, linalg.Norm1); !math.IsInf(mustData(t, c)[0], 1) {
		t.Errorf("Cond of a singular matrix = %v, want +Inf", mustData(t, c)[0])
	}
	if _, err := linalg.Cond[float64](e, a, linalg.Norm1); !errors.Is(err, tf.ErrShape) {
		t.Errorf("Cond ord 1 of 6×4: %v, want ErrShape", err)
	}
	for _, r := range []int{0, 1, 3} {
		b := place[float64](t, []mat{lowRank[float64](rng, 7, 5, r)}, 7, 5, nil, "transposed")
		rk, err := linalg.MatrixRank(e, b, 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		if g := mustData(t, rk)[0]; g != int64(r) {
			t.Errorf("MatrixRank of a rank-%d matrix = %d", r, g)
		}
	}
	// The Frobenius norm neither overflows nor underflows.
	for _, scale := range []float64{1e200, 1e-200, 1} {
		x, _ := tf.Full[float64](3*scale, 2, 2)
		got, err := linalg.MatrixNorm[float64](e, x, linalg.NormFro)
		if err != nil {
			t.Fatal(err)
		}
		if g := mustData(t, got)[0]; math.Abs(g-6*scale) > 1e-15*6*scale {
			t.Errorf("Frobenius norm of 2×2 of %g = %g, want %g", 3*scale, g, 6*scale)
		}
	}
	if _, err := linalg.MatrixNorm[float64](e, a, linalg.NormOrder(42)); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("MatrixNorm ord 42: %v", err)
	}
}

func maxOf(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}

func negate(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = -x
	}
	return out
}

// TestEmptyNormsRank checks the per-matrix reductions of empty matrices:
// norms 0, rank 0, no panic.
func TestEmptyNormsRank(t *testing.T) {
	e := engine(t)
	for _, sh := range [][]int{{0, 3}, {3, 0}, {0, 0}, {0, 4, 2}} {
		a, _ := tf.Zeros[complex64](sh...)
		for _, ord := range []linalg.NormOrder{linalg.NormFro, linalg.Norm2, linalg.NormNeg2, linalg.NormNuclear, linalg.Norm1, linalg.NormInf} {
			nrm, err := linalg.MatrixNorm[float32](e, a, ord)
			if err != nil {
				t.Fatalf("%v ord %d: %v", sh, ord, err)
			}
			for _, v := range mustData(t, nrm) {
				if v != 0 {
					t.Errorf("%v ord %d: norm %v, want 0", sh, ord, v)
				}
			}
		}
		r, err := linalg.MatrixRank(e, a, 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range mustData(t, r) {
			if v != 0 {
				t.Errorf("%v: rank %d", sh, v)
			}
		}
		if _, err := linalg.Cond[float32](e, a, linalg.Norm2); err != nil {
			t.Errorf("%v: Cond: %v", sh, err)
		}
	}
}

// TestLstsqErrors checks the error paths of Lstsq, Pinv and MatrixRank:
// non-finite inputs fail before anything is written, shapes are checked.
func TestLstsqErrors(t *testing.T) {
	e := engine(t)
	a, _ := tf.Ones[float64](4, 3)
	b, _ := tf.Ones[float64](4, 2)
	_ = b.Set(math.NaN(), 1, 1)
	x, _ := tf.Full[float64](7, 3, 2)
	if err := linalg.LstsqInto[float64](e, x, nil, nil, a, b, -1); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("LstsqInto with NaN in b: %v, want ErrArgument", err)
	}
	for _, v := range mustData(t, x) {
		if v != 7 {
			t.Fatal("a failed LstsqInto wrote x")
		}
	}
	bad, _ := tf.Ones[float64](5, 2)
	if _, _, _, err := linalg.Lstsq[float64](e, a, bad, -1); !errors.Is(err, tf.ErrShape) {
		t.Errorf("Lstsq with 5 rows in b for 4 in a: %v, want ErrShape", err)
	}
	if _, _, _, err := linalg.Lstsq[float32](e, a, b, -1); !errors.Is(err, tf.ErrDType) {
		t.Errorf("Lstsq[float32] of float64: %v, want ErrDType", err)
	}
	_ = a.Set(math.Inf(-1), 0, 2)
	p, _ := tf.Full[float64](7, 3, 4)
	if err := linalg.PinvInto(e, p, a, -1); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("PinvInto with Inf: %v, want ErrArgument", err)
	}
	for _, v := range mustData(t, p) {
		if v != 7 {
			t.Fatal("a failed PinvInto wrote dst")
		}
	}
	if _, err := linalg.MatrixRank(e, a, 0, -1); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("MatrixRank with Inf: %v, want ErrArgument", err)
	}
	wrong, _ := tf.Zeros[float64](4, 3)
	if err := linalg.PinvInto(e, wrong, a, -1); !errors.Is(err, tf.ErrShape) {
		t.Errorf("PinvInto with a 4×3 dst: %v, want ErrShape", err)
	}
	// MatrixNorm and Cond give NaN for NaN entries, every order.
	nan, _ := tf.Ones[float64](3, 3)
	_ = nan.Set(math.NaN(), 1, 2)
	for _, ord := range []linalg.NormOrder{linalg.NormFro, linalg.Norm1, linalg.Norm2, linalg.NormInf, linalg.NormNuclear} {
		n, err := linalg.MatrixNorm[float64](e, nan, ord)
		if err != nil || !math.IsNaN(mustData(t, n)[0]) {
			t.Errorf("MatrixNorm ord %d of NaN: %v, %v", ord, n, err)
		}
		c, err := linalg.Cond[float64](e, nan, ord)
		if err != nil || !math.IsNaN(mustData(t, c)[0]) {
			t.Errorf("Cond ord %d of NaN: %v, %v", ord, c, err)
		}
	}
}

// TestLstsqEmpty solves least squares with no equations (the minimum-norm
// solution is zero) and with no unknowns, on a batch.
func TestLstsqEmpty(t *testing.T) {
	e := engine(t)
	for _, sh := range [][2]int{{0, 3}, {3, 0}, {0, 0}} {
		a, _ := tf.Zeros[complex128](sh[0], sh[1], 2)
		b, _ := tf.Zeros[complex128](sh[0], 2, 2)
		x, rank, _, err := linalg.Lstsq[float64](e, a, b, -1)
		if err != nil {
			t.Fatalf("%v: %v", sh, err)
		}
		for _, v := range mustData(t, x) {
			if v != 0 {
				t.Fatalf("%v: x = %v, want zeros", sh, v)
			}
		}
		for _, r := range mustData(t, rank) {
			if r != 0 {
				t.Fatalf("%v: rank %d", sh, r)
			}
		}
		if _, err := linalg.Pinv(e, a, -1); err != nil {
			t.Fatalf("%v: Pinv: %v", sh, err)
		}
	}
}
