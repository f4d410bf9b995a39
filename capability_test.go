package tenferro_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// coreEngine is an engine with storage and copies only: every other
// capability is missing.
type coreEngine struct{ busy bool }

func (e *coreEngine) Backend() backend.Engine { return e }
func (e *coreEngine) Begin(string) error {
	if e.busy {
		return tf.ErrEngineBusy
	}
	e.busy = true
	return nil
}
func (e *coreEngine) End()                { e.busy = false }
func (e *coreEngine) MemoryBudget() int64 { return math.MaxInt64 }
func (e *coreEngine) Kernels(dt op.DType) any {
	if dt == op.Float64 {
		return &backend.Kernels[float64]{Core: copyCore{}}
	}
	return nil
}

type copyCore struct{}

func (copyCore) Alloc(n int) *backend.Storage[float64] {
	return backend.NewStorage(make([]float64, n), nil)
}
func (copyCore) Fill(dst *backend.View[float64], v float64) error {
	for i := range dst.Shape[0] {
		dst.Data[dst.Off+i*dst.Strides[0]] = v
	}
	return nil
}
func (copyCore) Copy(dst, src *backend.View[float64]) error {
	for i := range dst.Shape[0] {
		dst.Data[dst.Off+i*dst.Strides[0]] = src.Data[src.Off+i*src.Strides[0]]
	}
	return nil
}

// TestMissingCapability checks that an operation whose engine lacks the
// capability it needs fails with ErrUnsupported (never a panic), leaves
// its destination untouched and releases the engine.
func TestMissingCapability(t *testing.T) {
	e := &coreEngine{}
	a, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	m, _ := tf.FromSlice([]float64{1, 2, 3, 4}, 2, 2)
	dst, _ := tf.Full(7.0, 3)
	md, _ := tf.Full(7.0, 2, 2)
	s, _ := tf.Full(7.0)
	idx, _ := tf.FromSlice([]int64{0, 1, 2}, 3)
	mask, _ := tf.FromSlice([]bool{true, false, true}, 3)
	calls := map[string]func() error{
		"Add":        func() error { _, err := tf.Add(e, a, a); return err },
		"AddInto":    func() error { return tf.AddInto(e, dst, a, a) },
		"ScaleInto":  func() error { return tf.ScaleInto(e, dst, 2, a) },
		"Sum":        func() error { _, err := tf.Sum(e, a); return err },
		"SumInto":    func() error { return tf.SumInto(e, s, a) },
		"Var":        func() error { _, err := tf.Var[float64](e, a, 0); return err },
		"NormInto":   func() error { return tf.NormInto(e, s, a, 2) },
		"ArgMax":     func() error { _, err := tf.ArgMax(e, a, 0); return err },
		"ArgMinInto": func() error { return tf.ArgMinInto(e, must(tf.Zeros[int64]()), a, 0) },
		"CumSum":     func() error { _, err := tf.CumSum(e, a, 0); return err },
		"CumSumInto": func() error { return tf.CumSumInto(e, dst, a, 0) },
		"Matmul":     func() error { _, err := tf.Matmul(e, m, m); return err },
		"MatmulInto": func() error { return tf.MatmulInto(e, md, m, m) },
		"Einsum":     func() error { _, err := tf.Einsum(e, "ij,jk", m, m); return err },
		"EinsumInto": func() error { return tf.EinsumInto(e, md, "ij,jk", m, m) },
		"PadInto":    func() error { return tf.PadInto(e, md, m, [][2]int{{0, 0}, {0, 0}}, tf.PadEdge, 0) },
		"RollInto":   func() error { return tf.RollInto(e, dst, a, []int{1}, []int{0}) },
		"TrilInto":   func() error { return tf.TrilInto(e, md, m, 0) },
		"Triu":       func() error { _, err := tf.Triu(e, m, 0); return err },
		"RepeatInto": func() error { return tf.RepeatInto(e, dst, a, 0, 1, 0, 2) },
		"Take":       func() error { _, err := tf.Take(e, a, 0, idx); return err },
		"GatherInto": func() error { return tf.GatherInto(e, dst, a, 0, idx) },
		"ScatterAdd": func() error { _, err := tf.ScatterAdd(e, a, 0, idx, a); return err },
		"MaskedSelectInto": func() error {
			_, err := tf.MaskedSelectInto(e, dst, a, mask)
			return err
		},
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, tf.ErrUnsupported) {
			t.Errorf("%s on an engine without the capability: %v, want ErrUnsupported", name, err)
		}
		if e.busy {
			t.Fatalf("%s left the engine claimed", name)
		}
	}
	for _, d := range [][]float64{dst.Storage(), md.Storage(), s.Storage()} {
		if slices.ContainsFunc(d, func(v float64) bool { return v != 7 }) {
			t.Fatal("a refused operation wrote its destination")
		}
	}
	// What the engine has works; other dtypes have nothing.
	c, err := tf.Copy(e, a)
	if d, _ := c.Data(); err != nil || !slices.Equal(d, []float64{1, 2, 3}) {
		t.Fatalf("Copy: %v %v", d, err)
	}
	f, _ := tf.FromSlice([]float32{1}, 1)
	if _, err := tf.Copy(e, f); !errors.Is(err, tf.ErrUnsupported) {
		t.Fatalf("Copy of a dtype the engine lacks: %v", err)
	}
}
