package enginetest

import (
	"errors"
	"testing"

	tf "github.com/tenferro-go/tenferro"
)

// testErrors checks the error kinds every engine-backed operation shares:
// a nil engine, a busy engine, released and zero tensors.
func testErrors(t *testing.T, e tf.Engine) {
	a, _ := tf.Ones[float64](3, 3)
	dst, _ := tf.Zeros[float64](3, 3)
	ops := map[string]func(e tf.Engine, a *tf.Tensor[float64]) error{
		"Add":        func(e tf.Engine, a *tf.Tensor[float64]) error { _, err := tf.Add(e, a, a); return err },
		"ScaleInto":  func(e tf.Engine, a *tf.Tensor[float64]) error { return tf.ScaleInto(e, dst, 2, a) },
		"Sum":        func(e tf.Engine, a *tf.Tensor[float64]) error { _, err := tf.Sum(e, a); return err },
		"Copy":       func(e tf.Engine, a *tf.Tensor[float64]) error { _, err := tf.Copy(e, a); return err },
		"Matmul":     func(e tf.Engine, a *tf.Tensor[float64]) error { _, err := tf.Matmul(e, a, a); return err },
		"MatmulInto": func(e tf.Engine, a *tf.Tensor[float64]) error { return tf.MatmulInto(e, dst, a, a) },
		"Einsum":     func(e tf.Engine, a *tf.Tensor[float64]) error { _, err := tf.Einsum(e, "ij,jk", a, a); return err },
		"NewTensor":  func(e tf.Engine, _ *tf.Tensor[float64]) error { _, err := tf.NewTensor[float64](e, 2); return err },
	}
	for name, run := range ops {
		if err := run(nil, a); !errors.Is(err, tf.ErrArgument) {
			t.Errorf("%s with a nil engine: %v, want ErrArgument", name, err)
		}
		be := e.Backend()
		mustNil(t, "Begin", be.Begin("held by the test"))
		if err := run(e, a); !errors.Is(err, tf.ErrEngineBusy) {
			t.Errorf("%s on a busy engine: %v, want ErrEngineBusy", name, err)
		}
		be.End()
		if name == "NewTensor" {
			continue
		}
		rel, _ := tf.Ones[float64](3, 3)
		rel.Release()
		if err := run(e, rel); !errors.Is(err, tf.ErrReleased) {
			t.Errorf("%s of a released tensor: %v, want ErrReleased", name, err)
		}
		if err := run(e, &tf.Tensor[float64]{}); !errors.Is(err, tf.ErrArgument) {
			t.Errorf("%s of the zero Tensor: %v, want ErrArgument", name, err)
		}
		if err := run(e, nil); !errors.Is(err, tf.ErrArgument) {
			t.Errorf("%s of a nil tensor: %v, want ErrArgument", name, err)
		}
		var te *tf.Error
		if err := run(nil, a); !errors.As(err, &te) || te.Op == "" {
			t.Errorf("%s: %v is not a *tenferro.Error naming the operation", name, err)
		}
	}
	// The engine still works after every failure.
	if _, err := tf.Add(e, a, a); err != nil {
		t.Fatalf("engine unusable after the error cases: %v", err)
	}
}

// testAllocs checks that the Into forms allocate nothing on a warm engine
// and that an allocating operation costs one allocation (the tensor
// header) once its output is released.
func testAllocs(t *testing.T, e tf.Engine) {
	r := rng(9)
	a := Operand[float64](t, r, []int{40, 30}, Transposed)
	b := Operand[float64](t, r, []int{40, 30}, Compact)
	m := Operand[float64](t, r, []int{30, 20}, Stepped)
	d, _ := tf.Zeros[float64](40, 30)
	s, _ := tf.Zeros[float64](30)
	c, _ := tf.Zeros[float64](40, 20)
	z := Operand[complex128](t, r, []int{16, 16}, Compact)
	zd, _ := tf.Zeros[complex128](16, 16)
	re := Operand[float64](t, r, []int{16, 16}, Transposed)
	im := Operand[float64](t, r, []int{16}, Compact)
	plan, err := tf.PrepareEinsum(tf.Float64, "ij,jk->ik", [][]int{{40, 30}, {30, 20}})
	mustNil(t, "PrepareEinsum", err)
	cases := map[string]func() error{
		"AddInto":           func() error { return tf.AddInto(e, d, a, b) },
		"MulInto in place":  func() error { return tf.MulInto(e, d, d, b) },
		"ScaleInto":         func() error { return tf.ScaleInto(e, d, 0.5, a) },
		"ConjInto":          func() error { return tf.ConjInto(e, zd, z) },
		"ComplexInto":       func() error { return tf.ComplexInto(e, zd, re, im) },
		"ErfInto":           func() error { return tf.ErfInto(e, d, a) },
		"SumInto":           func() error { return tf.SumInto(e, s, a, 0) },
		"CopyInto":          func() error { return tf.CopyInto(e, d, a) },
		"MatmulInto":        func() error { return tf.MatmulInto(e, c, a, m) },
		"MatmulInto acc":    func() error { return tf.MatmulInto(e, c, a, m, tf.Accumulate(2, 1)) },
		"EinsumPlannedInto": func() error { return tf.EinsumPlannedInto(e, c, plan, a, m) },
	}
	for name, run := range cases {
		mustNil(t, name, run())
		if raceEnabled {
			continue
		}
		if n := testing.AllocsPerRun(20, func() {
			if err := run(); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s allocates %v times per call on a warm engine", name, n)
		}
	}
	add := func() {
		out, err := tf.Add(e, a, b)
		if err != nil {
			t.Fatal(err)
		}
		out.Release()
	}
	add()
	if n := testing.AllocsPerRun(20, add); n > 1 && !raceEnabled {
		t.Errorf("Add + Release allocates %v times, want at most 1 (the header)", n)
	}
}
