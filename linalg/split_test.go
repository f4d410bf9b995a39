package linalg_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
)

// randTensor returns a tensor of the given shape with standard normal
// entries (complex for complex T).
func randTensor[T tf.Scalar](t *testing.T, rng *rand.Rand, shape ...int) *tf.Tensor[T] {
	t.Helper()
	x, err := tf.Zeros[T](shape...)
	if err != nil {
		t.Fatal(err)
	}
	d := mustData(t, x)
	for i := range d {
		d[i] = from[T](randMat[T](rng, 1, 1).v[0])
	}
	return x
}

func TestTruncatedSVD(t *testing.T) {
	e := engine(t)
	rng := rand.New(rand.NewPCG(61, 62))
	a := randTensor[complex128](t, rng, 30, 20)
	_, s, _, err := linalg.SVD[float64](e, a)
	if err != nil {
		t.Fatal(err)
	}
	sv := mustData(t, s)
	total := 0.0
	for _, v := range sv {
		total += v * v
	}
	for _, tr := range []linalg.Truncation{{}, {MaxRank: 7}, {Cutoff: sv[4]}, {RelCutoff: 0.5}, {DiscardedWeight: 0.01}} {
		u, s2, vh, info, err := linalg.TruncatedSVD[float64](e, a, tr)
		if err != nil {
			t.Fatal(err)
		}
		r := info.Rank
		if u.Shape()[1] != r || s2.Shape()[0] != r || vh.Shape()[0] != r {
			t.Fatalf("%+v: shapes %v %v %v for rank %d", tr, u.Shape(), s2.Shape(), vh.Shape(), r)
		}
		disc := 0.0
		for _, v := range sv[r:] {
			disc += v * v
		}
		if math.Abs(info.Discarded-disc) > 1e-12*total || math.Abs(info.Error-disc/total) > 1e-12 {
			t.Errorf("%+v: info %+v, want discarded %g", tr, info, disc)
		}
		if tr.DiscardedWeight > 0 && (info.Error > tr.DiscardedWeight || r > 0 && info.Error+sv[r-1]*sv[r-1]/total <= tr.DiscardedWeight) {
			t.Errorf("%+v: rank %d is not the least within the discarded weight (error %g)", tr, r, info.Error)
		}
		// ‖A − U·S·Vᴴ‖² is the discarded weight.
		us, err := tf.Einsum(e, "ib,b->ib", u, asComplex(t, s2))
		if err != nil {
			t.Fatal(err)
		}
		ar, err := tf.Einsum(e, "ib,bj->ij", us, vh)
		if err != nil {
			t.Fatal(err)
		}
		d := fro(sub(items(t, a)[0], items(t, ar)[0]))
		if math.Abs(d*d-disc) > 1e-10*total {
			t.Errorf("%+v: ‖A − Aᵣ‖² = %g, discarded weight %g", tr, d*d, disc)
		}
	}
	b, _ := tf.Zeros[float64](3, 3, 2)
	if _, _, _, _, err := linalg.TruncatedSVD[float64](e, b, linalg.Truncation{}); !errors.Is(err, tf.ErrShape) {
		t.Errorf("TruncatedSVD of a batch: %v, want ErrShape", err)
	}
	if _, _, _, _, err := linalg.TruncatedSVD[float64](e, b, linalg.Truncation{MaxRank: -1}); err == nil {
		t.Error("TruncatedSVD with MaxRank −1 succeeded")
	}
}

func asComplex(t *testing.T, s *tf.Tensor[float64]) *tf.Tensor[complex128] {
	t.Helper()
	d := mustData(t, s)
	c := make([]complex128, len(d))
	for i, v := range d {
		c[i] = complex(v, 0)
	}
	x, err := tf.FromSlice(c, s.Shape()...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestSplits(t *testing.T) {
	e := engine(t)
	rng := rand.New(rand.NewPCG(63, 64))
	x := randTensor[complex128](t, rng, 3, 4, 5, 2)
	xt, _ := x.Permute(3, 1, 0, 2) // a strided view: the split copies it
	for _, src := range []*tf.Tensor[complex128]{x, xt} {
		// left = the axes of extent 5 and 3 in that order.
		left, right, rhs := []int{2, 0}, []int{8, 4, 2}, "bde"
		if src != x {
			left, right, rhs = []int{3, 2}, []int{8, 2, 4}, "bed"
		}
		u, s, vh, info, err := linalg.SVDSplit[float64](e, src, left, linalg.Truncation{})
		if err != nil {
			t.Fatal(err)
		}
		if info.Rank != 8 || !equalInts(u.Shape(), []int{5, 3, 8}) || !equalInts(vh.Shape(), right) || s.Shape()[0] != 8 {
			t.Fatalf("SVDSplit shapes %v %v %v rank %d", u.Shape(), s.Shape(), vh.Shape(), info.Rank)
		}
		us, _ := tf.Einsum(e, "acb,b->acb", u, asComplex(t, s))
		back, err := tf.Einsum(e, "acb,"+rhs+"->cdae", us, vh) // (3, 4, 5, 2) = x's axes
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := tf.AllClose(back, x, 1e-12, 1e-12); !ok {
			t.Error("U·S·Vᴴ does not give the tensor back")
		}
		q, r, err := linalg.QRSplit(e, src, left, linalg.PositiveDiagonal)
		if err != nil {
			t.Fatal(err)
		}
		back, _ = tf.Einsum(e, "acb,"+rhs+"->cdae", q, r)
		if ok, _ := tf.AllClose(back, x, 1e-12, 1e-12); !ok {
			t.Error("Q·R does not give the tensor back")
		}
		qq, _ := tf.Einsum(e, "acb,acd->bd", mustConj(t, e, q), q)
		if ok, _ := tf.AllClose(qq, mustEye(t, 8), 1e-12, 1e-12); !ok {
			t.Error("Q's columns over the left axes are not orthonormal")
		}
		l, q2, err := linalg.LQSplit(e, src, left)
		if err != nil {
			t.Fatal(err)
		}
		back, _ = tf.Einsum(e, "acb,"+rhs+"->cdae", l, q2)
		if ok, _ := tf.AllClose(back, x, 1e-12, 1e-12); !ok {
			t.Error("L·Q does not give the tensor back")
		}
	}
	// A truncated split of a product state has bond 1.
	p := randTensor[complex128](t, rng, 4)
	p2 := randTensor[complex128](t, rng, 6)
	ps, _ := tf.Einsum(e, "i,j->ij", p, p2)
	_, _, _, info, err := linalg.SVDSplit[float64](e, ps, []int{0}, linalg.Truncation{RelCutoff: 1e-12})
	if err != nil || info.Rank != 1 {
		t.Errorf("product state split: rank %d, %v", info.Rank, err)
	}
	for _, bad := range [][]int{{0, 0}, {4}, {-1}} {
		if _, _, _, _, err := linalg.SVDSplit[float64](e, x, bad, linalg.Truncation{}); !errors.Is(err, tf.ErrArgument) {
			t.Errorf("SVDSplit with left %v: %v, want ErrArgument", bad, err)
		}
	}
}

func mustConj(t *testing.T, e tf.Engine, x *tf.Tensor[complex128]) *tf.Tensor[complex128] {
	t.Helper()
	c, err := tf.Conj(e, x)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustEye(t *testing.T, n int) *tf.Tensor[complex128] {
	t.Helper()
	x, err := tf.Eye[complex128](n, n)
	if err != nil {
		t.Fatal(err)
	}
	return x
}
