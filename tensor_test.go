package tenferro

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/backend"
)

func seq(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = float64(i)
	}
	return s
}

func mustAt[T Scalar](t *testing.T, x *Tensor[T], idx ...int) T {
	t.Helper()
	v, err := x.At(idx...)
	if err != nil {
		t.Fatalf("At%v: %v", idx, err)
	}
	return v
}

func TestFromSliceColumnMajor(t *testing.T) {
	x, err := FromSlice(seq(6), 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Column-major: element (i, j) is data[i + 2*j].
	for i := 0; i < 2; i++ {
		for j := 0; j < 3; j++ {
			if got := mustAt(t, x, i, j); got != float64(i+2*j) {
				t.Fatalf("(%d,%d) = %v", i, j, got)
			}
		}
	}
	if _, err := FromSlice(seq(5), 2, 3); !errors.Is(err, ErrShape) {
		t.Fatalf("length mismatch: %v", err)
	}
	if _, err := FromSlice(seq(0), 2, -1); !errors.Is(err, ErrShape) {
		t.Fatalf("negative extent: %v", err)
	}
	if _, err := Zeros[float32](1<<40, 1<<40); !errors.Is(err, ErrShape) {
		t.Fatalf("overflow: %v", err)
	}
}

func TestFromRowMajor(t *testing.T) {
	// Row-major data of a 2x3x4 array: element (i,j,k) = 12i + 4j + k.
	x, err := FromRowMajor(seq(24), 2, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 4; k++ {
				if got := mustAt(t, x, i, j, k); got != float64(12*i+4*j+k) {
					t.Fatalf("(%d,%d,%d) = %v", i, j, k, got)
				}
			}
		}
	}
	s, _ := FromRowMajor([]float64{7}) // rank 0
	if s.Rank() != 0 || mustAt(t, s) != 7 {
		t.Fatalf("scalar: %v", s)
	}
}

func TestViews(t *testing.T) {
	x, _ := FromSlice(seq(24), 2, 3, 4)
	ref := func(i, j, k int) float64 { return float64(i + 2*j + 6*k) }

	p, err := x.Permute(2, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := mustAt(t, p, 3, 1, 2); got != ref(1, 2, 3) {
		t.Fatalf("Permute: %v", got)
	}
	tr, _ := x.Transpose()
	if got := mustAt(t, tr, 3, 2, 1); got != ref(1, 2, 3) {
		t.Fatalf("Transpose: %v", got)
	}
	sl, err := x.Slice(2, 1, 4, 2) // k = 1, 3
	if err != nil || sl.Dim(2) != 2 || mustAt(t, sl, 1, 2, 1) != ref(1, 2, 3) {
		t.Fatalf("Slice: %v %v", sl, err)
	}
	rv, _ := x.Reverse(1)
	if got := mustAt(t, rv, 0, 0, 0); got != ref(0, 2, 0) {
		t.Fatalf("Reverse: %v", got)
	}
	neg, _ := x.Slice(2, 3, -1, -2) // k = 3, 1
	if neg.Dim(2) != 2 || mustAt(t, neg, 0, 0, 1) != ref(0, 0, 1) {
		t.Fatalf("negative slice: %v", neg)
	}
	sq, _ := FromSlice(seq(9), 3, 3)
	dg, _ := sq.Diagonal(0, 1)
	for i := 0; i < 3; i++ {
		if mustAt(t, dg, i) != float64(4*i) {
			t.Fatalf("Diagonal(%d) = %v", i, mustAt(t, dg, i))
		}
	}
	col, _ := FromSlice(seq(3), 3, 1)
	bc, err := col.Broadcast(2, 3, 4) // a leading new axis, as NumPy
	if err != nil || mustAt(t, bc, 1, 2, 3) != 2 || bc.Strides()[0] != 0 {
		t.Fatalf("Broadcast: %v %v", bc, err)
	}
	if _, err := col.Broadcast(3, 4, 2); !errors.Is(err, ErrShape) {
		t.Fatalf("broadcast aligned on the first axes: %v, want ErrShape (NumPy aligns on the last)", err)
	}
	if _, err := col.Broadcast(4, 4); !errors.Is(err, ErrShape) {
		t.Fatalf("bad broadcast: %v", err)
	}
	// Errors.
	if _, err := x.Permute(0, 0, 1); !errors.Is(err, ErrArgument) {
		t.Fatalf("repeated perm: %v", err)
	}
	if _, err := x.Permute(0, 1); !errors.Is(err, ErrShape) {
		t.Fatalf("short perm: %v", err)
	}
	if s, err := x.Slice(0, 0, 3, 1); err != nil || s.Dim(0) != 2 {
		t.Fatalf("slice past the end clamps: %v %v", s, err)
	}
	if _, err := x.Slice(0, 0, 1, 0); !errors.Is(err, ErrArgument) {
		t.Fatalf("zero step: %v", err)
	}
	if _, err := x.At(2, 0, 0); !errors.Is(err, ErrArgument) {
		t.Fatalf("At out of range: %v", err)
	}
	if _, err := x.At(0, 0); !errors.Is(err, ErrShape) {
		t.Fatalf("At wrong rank: %v", err)
	}
}

func TestReshape(t *testing.T) {
	x, _ := FromSlice(seq(24), 2, 3, 4)
	y, err := x.Reshape(6, -1)
	if err != nil {
		t.Fatal(err)
	}
	if y.Dim(1) != 4 || mustAt(t, y, 5, 2) != 5+6*2 {
		t.Fatalf("Reshape: %v", y)
	}
	// A slice along the last axis can still merge the first two.
	s, _ := x.Slice(2, 0, 4, 2)
	z, err := s.Reshape(6, 2)
	if err != nil || mustAt(t, z, 5, 1) != 5+12 {
		t.Fatalf("Reshape of slice: %v %v", z, err)
	}
	// A transpose cannot merge axes without a copy.
	tr, _ := x.Transpose()
	if _, err := tr.Reshape(24); !errors.Is(err, ErrLayout) {
		t.Fatalf("Reshape of transpose: %v", err)
	}
	if _, err := x.Reshape(5, 5); !errors.Is(err, ErrShape) {
		t.Fatalf("Reshape count: %v", err)
	}
	if _, err := x.Reshape(-1, -1); !errors.Is(err, ErrShape) {
		t.Fatalf("two -1: %v", err)
	}
	// Random reshapes of random views agree with a copy's reshape.
	r := rand.New(rand.NewPCG(1, 1))
	for trial := 0; trial < 200; trial++ {
		v, _ := FromSlice(seq(60), 3, 4, 5)
		if r.IntN(2) == 0 {
			v, _ = v.Slice(r.IntN(3), 0, 1+r.IntN(3), 1)
		}
		shape := []int{v.Len()}
		if v.Dim(0)*v.Dim(1) > 1 && r.IntN(2) == 0 {
			shape = []int{v.Dim(0) * v.Dim(1), v.Dim(2)}
		}
		got, err := v.Reshape(shape...)
		if err != nil {
			if !errors.Is(err, ErrLayout) {
				t.Fatal(err)
			}
			continue
		}
		want, _ := v.Clone()
		want, _ = want.Reshape(shape...)
		a, _ := got.Clone()
		b, _ := want.Clone()
		da, _ := a.Data()
		db, _ := b.Data()
		for i := range da {
			if da[i] != db[i] {
				t.Fatalf("trial %d: reshape of %v strides %v to %v differs", trial, v.Shape(), v.Strides(), shape)
			}
		}
	}
}

type countPool struct{ n int }

func (p *countPool) Recycle(any) { p.n++ }

func TestRelease(t *testing.T) {
	pool := &countPool{}
	x := wrap(backend.NewStorage(make([]float64, 6), pool), []int{2, 3})
	v, _ := x.Transpose()
	if err := x.Release(); err != nil {
		t.Fatal(err)
	}
	if pool.n != 1 {
		t.Fatalf("recycled %d times", pool.n)
	}
	if _, err := v.At(0, 0); !errors.Is(err, ErrReleased) {
		t.Fatalf("view after release: %v", err)
	}
	if err := x.Release(); !errors.Is(err, ErrReleased) {
		t.Fatalf("double release: %v", err)
	}
	if _, err := x.Data(); !errors.Is(err, ErrReleased) {
		t.Fatalf("Data after release: %v", err)
	}
	if x.Storage() != nil || x.Valid() {
		t.Fatal("released tensor still exposes storage")
	}
	// A new tensor over the recycled storage is live; old views stay dead.
	y := wrap(x.st, []int{6})
	if !y.Valid() || v.Valid() {
		t.Fatal("generation check failed")
	}
}

func TestDataNeedsCompact(t *testing.T) {
	x, _ := FromSlice(seq(6), 2, 3)
	tr, _ := x.Transpose()
	if _, err := tr.Data(); !errors.Is(err, ErrLayout) {
		t.Fatalf("Data of transpose: %v", err)
	}
	c, _ := tr.Clone()
	d, err := c.Data()
	if err != nil || d[1] != 2 {
		t.Fatalf("Clone of transpose: %v %v", d, err)
	}
}

func TestPromote(t *testing.T) {
	cases := []struct{ a, b, want DType }{
		{Float32, Float32, Float32}, {Float32, Float64, Float64},
		{Float64, Complex64, Complex128}, {Float32, Complex64, Complex64},
		{Complex64, Complex128, Complex128}, {Invalid, Float32, Invalid},
	}
	for _, c := range cases {
		if got := Promote(c.a, c.b); got != c.want {
			t.Errorf("Promote(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	for _, d := range DTypes {
		p, err := ParseDType(d.String())
		if err != nil || p != d {
			t.Errorf("ParseDType(%q) = %v, %v", d.String(), p, err)
		}
	}
	if _, err := ParseDType("int8"); !errors.Is(err, ErrDType) {
		t.Errorf("ParseDType(int8): %v", err)
	}
	if DTypeOf[complex64]() != Complex64 || DTypeOf[float32]().Size() != 4 {
		t.Error("DTypeOf")
	}
}
