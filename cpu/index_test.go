package cpu_test

import (
	"errors"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/cpu"
)

// cview is a backend view of a compact column-major buffer.
func cview[T backend.Elem](data []T, shape ...int) *backend.View[T] {
	strides := make([]int, len(shape))
	s := 1
	for d, n := range shape {
		strides[d] = s
		s *= n
	}
	return &backend.View[T]{Data: data, Shape: shape, Strides: strides}
}

// TestIndexContract checks what the Index capability promises beyond the
// kernels: negative indices count from the end, a bad index is an
// *IndexError before anything is written, ScatterAdd of bool is
// unsupported, and a masked selection into a strided destination fills
// the tail with zeros.
func TestIndexContract(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	ks := backend.KernelsOf[float64](e.Backend())
	if ks.Index == nil {
		t.Fatal("no Index capability for float64")
	}
	src := cview([]float64{10, 11, 12, 13}, 4)
	dst := cview(make([]float64, 3), 3)
	if err := ks.Index.Take(dst, src, 0, cview([]int64{-1, 0, 2}, 3)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(dst.Data, []float64{13, 10, 12}) {
		t.Errorf("Take with a negative index: %v", dst.Data)
	}
	before := slices.Clone(dst.Data)
	err := ks.Index.Take(dst, src, 0, cview([]int64{1, 4, -9}, 3))
	var ie *backend.IndexError
	if !errors.As(err, &ie) || ie.At != 1 || ie.Value != 4 || ie.Extent != 4 {
		t.Errorf("Take with index 4 of 4: %v", err)
	}
	if !slices.Equal(dst.Data, before) {
		t.Error("a failed Take wrote its destination")
	}
	base := cview([]float64{1, 1}, 2)
	acc := cview(make([]float64, 2), 2)
	err = ks.Index.ScatterAdd(acc, base, 0, cview([]int64{0, 2}, 2), cview([]float64{5, 6}, 2))
	if !errors.As(err, &ie) || !slices.Equal(acc.Data, []float64{0, 0}) {
		t.Errorf("ScatterAdd with a bad index: %v, dst %v", err, acc.Data)
	}
	bks := backend.KernelsOf[bool](e.Backend())
	if err := bks.Index.ScatterAdd(cview(make([]bool, 1), 1), cview(make([]bool, 1), 1), 0, cview([]int64{0}, 1), cview(make([]bool, 1), 1)); !errors.Is(err, tf.ErrUnsupported) {
		t.Errorf("ScatterAdd of bool: %v, want ErrUnsupported", err)
	}
	// A reversed destination of 4 elements, 2 selected.
	out := &backend.View[float64]{Data: []float64{-1, -1, -1, -1}, Off: 3, Shape: []int{4}, Strides: []int{-1}}
	mask := cview([]bool{false, true, false, true}, 4)
	n, err := ks.Index.MaskedSelect(out, src, mask, []int{4})
	if err != nil || n != 2 || !slices.Equal(out.Data, []float64{0, 0, 13, 11}) {
		t.Errorf("MaskedSelect into a reversed view: %d %v %v", n, err, out.Data)
	}
	if c := ks.Index.CountTrue(cview([]bool{true}, 1), []int{3, 2}); c != 6 {
		t.Errorf("CountTrue of a broadcast true: %d, want 6", c)
	}
}
