package gonumx

import (
	"errors"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	tf "github.com/tenferro-go/tenferro"
)

// seqDense returns an r×c Dense with row stride ld holding 1, 2, 3, ... in
// row-major order (padding included).
func seqDense(r, c, ld int) *mat.Dense {
	d := make([]float64, (r-1)*ld+c)
	for i := range d {
		d[i] = float64(i + 1)
	}
	var m mat.Dense
	m.SetRawMatrix(blasGeneral(r, c, ld, d))
	return &m
}

// denseShapes are (rows, cols, extra row stride): tiny, prime, padded.
var denseShapes = [][3]int{{1, 1, 0}, {1, 7, 3}, {7, 1, 0}, {7, 1, 2}, {3, 5, 0}, {13, 11, 4}, {67, 2, 1}}

func TestFromDenseShares(t *testing.T) {
	for _, sh := range denseShapes {
		r, c, pad := sh[0], sh[1], sh[2]
		m := seqDense(r, c, c+pad)
		x, err := FromDense(m)
		if err != nil {
			t.Fatal(err)
		}
		what := fmt.Sprintf("%d×%d stride %d", r, c, c+pad)
		if got := x.Shape(); got[0] != r || got[1] != c {
			t.Fatalf("%s: shape %v", what, got)
		}
		sameElements(t, what, m, x)
		// A write through either side is seen through the other.
		if err := x.Set(-1, r-1, c-1); err != nil {
			t.Fatal(err)
		}
		if m.At(r-1, c-1) != -1 {
			t.Fatalf("%s: a write through the tensor is not seen in the Dense", what)
		}
		m.Set(0, 0, -2)
		if mustAt(t, x, 0, 0) != -2 {
			t.Fatalf("%s: a write through the Dense is not seen in the tensor", what)
		}
	}
}

// TestFromDenseSlice views sub-matrices that gonum's Slice makes, including
// ones ending at the parent's last row and column, whose backing slice has
// no room for a full last row stride.
func TestFromDenseSlice(t *testing.T) {
	m := seqDense(11, 13, 13)
	for _, s := range [][4]int{{0, 11, 0, 13}, {1, 11, 2, 13}, {3, 4, 5, 6}, {10, 11, 0, 1}, {2, 9, 12, 13}} {
		sub := m.Slice(s[0], s[1], s[2], s[3]).(*mat.Dense)
		x, err := FromDense(sub)
		if err != nil {
			t.Fatalf("slice %v: %v", s, err)
		}
		sameElements(t, fmt.Sprint("slice ", s), sub, x)
		x.Set(1000, 0, 0)
		if m.At(s[0], s[2]) != 1000 {
			t.Fatalf("slice %v: write through the tensor not seen in the parent", s)
		}
	}
}

func TestFromDenseEmpty(t *testing.T) {
	x, err := FromDense(&mat.Dense{})
	if err != nil {
		t.Fatal(err)
	}
	if s := x.Shape(); len(s) != 2 || s[0] != 0 || s[1] != 0 {
		t.Fatalf("empty Dense gives shape %v", s)
	}
	var wide mat.Dense // 0×5, as SetRawMatrix can make
	wide.SetRawMatrix(blasGeneral(0, 5, 5, nil))
	if x, err := FromDense(&wide); err != nil || x.Shape()[0] != 0 || x.Shape()[1] != 5 {
		t.Fatalf("0×5 Dense: %v, %v", x, err)
	}
	if _, err := FromDense(nil); !errors.Is(err, tf.ErrArgument) {
		t.Fatalf("nil Dense: err = %v", err)
	}
	v, err := FromVecDense(&mat.VecDense{})
	if err != nil || v.Shape()[0] != 0 {
		t.Fatalf("empty VecDense: %v, %v", v, err)
	}
}

func TestToDense(t *testing.T) {
	for _, sh := range denseShapes {
		r, c, pad := sh[0], sh[1], sh[2]
		what := fmt.Sprintf("%d×%d", r, c)
		base, err := tf.Arange[float64](1, float64(r*(c+pad)+1), 1)
		if err != nil {
			t.Fatal(err)
		}
		// A row-major view: the transpose of a column-major (c+pad)×r
		// tensor, restricted to c columns.
		cm, _ := base.Reshape(c+pad, r)
		cm, _ = cm.Slice(0, 0, c, 1)
		rm, _ := cm.Transpose()
		m, shared, err := ToDense(rm)
		if err != nil {
			t.Fatal(err)
		}
		if !shared {
			t.Fatalf("%s: a row-major view was copied", what)
		}
		sameElements(t, what+" shared", m, rm)
		m.Set(r-1, c-1, -7)
		if mustAt(t, rm, r-1, c-1) != -7 {
			t.Fatalf("%s: write through the shared Dense not seen", what)
		}
		// A compact column-major tensor (more than one row and column)
		// is copied, and the copy is independent.
		col, _ := tf.Arange[float64](0, float64(r*c), 1)
		col, _ = col.Reshape(r, c)
		m, shared, err = ToDense(col)
		if err != nil {
			t.Fatal(err)
		}
		if shared != (r == 1 || c == 1) {
			t.Fatalf("%s: column-major tensor shared = %v", what, shared)
		}
		sameElements(t, what+" column-major", m, col)
		m.Set(0, 0, 99)
		if v := mustAt(t, col, 0, 0); shared != (v == 99) {
			t.Fatalf("%s: shared = %v but the tensor reads %v after a write to the Dense", what, shared, v)
		}
	}
}

func TestToDenseReversed(t *testing.T) {
	x, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	y, _ := x.Reverse(1)
	m, shared, err := ToDense(y)
	if err != nil || shared {
		t.Fatalf("reversed view: shared %v, err %v", shared, err)
	}
	sameElements(t, "reversed", m, y)
}

func TestToDenseErrors(t *testing.T) {
	x, _ := tf.Zeros[float64](0, 3)
	if _, _, err := ToDense(x); !errors.Is(err, tf.ErrShape) {
		t.Errorf("0×3: err = %v", err)
	}
	y, _ := tf.Zeros[float64](2, 2, 2)
	if _, _, err := ToDense(y); !errors.Is(err, tf.ErrShape) {
		t.Errorf("rank 3: err = %v", err)
	}
	z, _ := tf.Zeros[float64](2, 2)
	z.Release()
	if _, _, err := ToDense(z); !errors.Is(err, tf.ErrReleased) {
		t.Errorf("released: err = %v", err)
	}
	if _, _, err := ToDense(nil); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("nil: err = %v", err)
	}
	var e *tf.Error
	if _, _, err := ToVecDense(y); !errors.As(err, &e) || e.Op != "gonumx.ToVecDense" {
		t.Errorf("ToVecDense rank 3: err = %v", err)
	}
}

func TestCDense(t *testing.T) {
	d := make([]complex128, 4*5)
	for i := range d {
		d[i] = complex(float64(i), -float64(i))
	}
	m := mat.NewCDense(4, 5, d)
	sub := m.Slice(1, 4, 2, 5).(*mat.CDense)
	x, err := FromCDense(sub)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		for j := range 3 {
			if v, _ := x.At(i, j); v != sub.At(i, j) {
				t.Fatalf("(%d, %d) = %v, want %v", i, j, v, sub.At(i, j))
			}
		}
	}
	back, shared, err := ToCDense(x)
	if err != nil || !shared {
		t.Fatalf("round trip: shared %v, err %v", shared, err)
	}
	back.Set(2, 2, 5i)
	if m.At(3, 4) != 5i {
		t.Fatal("write through the round trip not seen in the parent")
	}
	tr, _ := x.Transpose()
	c, shared, err := ToCDense(tr)
	if err != nil || shared {
		t.Fatalf("transposed: shared %v, err %v", shared, err)
	}
	c.Set(0, 1, 1)
	if v, _ := x.At(1, 0); v == 1 || c.At(0, 1) != 1 || c.At(1, 0) != sub.At(0, 1) {
		t.Fatal("the copy of the transpose is wrong or not independent")
	}
}

func TestVecDense(t *testing.T) {
	d := []float64{1, 2, 3, 4, 5, 6, 7}
	v := mat.NewVecDense(7, d).SliceVec(1, 7)
	var s mat.VecDense
	s.SetRawVector(blasVector(3, 2, d[1:]))
	for _, vec := range []*mat.VecDense{v.(*mat.VecDense), &s} {
		x, err := FromVecDense(vec)
		if err != nil {
			t.Fatal(err)
		}
		for i := range vec.Len() {
			if got, _ := x.At(i); got != vec.AtVec(i) {
				t.Fatalf("element %d = %v, want %v", i, got, vec.AtVec(i))
			}
		}
		back, shared, err := ToVecDense(x)
		if err != nil || !shared {
			t.Fatalf("round trip: shared %v, err %v", shared, err)
		}
		back.SetVec(0, -1)
		if vec.AtVec(0) != -1 {
			t.Fatal("write through the round trip not seen")
		}
		rev, _ := x.Reverse(0)
		c, shared, err := ToVecDense(rev)
		if err != nil || shared {
			t.Fatalf("reversed: shared %v, err %v", shared, err)
		}
		if c.AtVec(0) != vec.AtVec(vec.Len()-1) {
			t.Fatal("reversed copy wrong")
		}
		c.SetVec(0, 42)
		if vec.AtVec(vec.Len()-1) == 42 {
			t.Fatal("the copy is not independent")
		}
	}
	one, _ := tf.FromSlice([]float64{3}, 1)
	b, _ := one.Broadcast(1)
	if vv, shared, err := ToVecDense(b); err != nil || !shared || vv.AtVec(0) != 3 {
		t.Fatalf("one element: %v %v %v", vv, shared, err)
	}
}

// sameElements checks that m and x hold the same matrix.
func sameElements(t *testing.T, what string, m mat.Matrix, x *tf.Tensor[float64]) {
	t.Helper()
	r, c := m.Dims()
	for i := range r {
		for j := range c {
			if v := mustAt(t, x, i, j); v != m.At(i, j) {
				t.Fatalf("%s: (%d, %d) = %v in the tensor, %v in the matrix", what, i, j, v, m.At(i, j))
			}
		}
	}
}

func mustAt(t *testing.T, x *tf.Tensor[float64], idx ...int) float64 {
	t.Helper()
	v, err := x.At(idx...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
