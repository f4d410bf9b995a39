package cpu_test

import (
	"errors"
	"math/cmplx"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/internal/op"
)

// viewOf describes t for the backend contract.
func viewOf[T tf.Elem](t *tf.Tensor[T]) *backend.View[T] {
	return &backend.View[T]{Data: t.Storage(), Off: t.Offset(), Shape: t.Shape(), Strides: t.Strides()}
}

// fusion returns e's fusion kernels for T.
func fusion[T tf.Scalar](t *testing.T, e *cpu.Engine) backend.Fusion[T] {
	t.Helper()
	ks := backend.KernelsOf[T](e.Backend())
	if ks == nil || ks.Fusion == nil {
		t.Fatalf("%v has no fusion kernels for %v", e, tf.DTypeOf[T]())
	}
	return ks.Fusion
}

// testFusedAgainstLoop evaluates conj(2·(a - b)·c) + (-a) with b and c
// broadcast and a strided destination (a transposed window of a larger
// tensor whose other elements must stay untouched), against a plain loop
// in complex128.
func testFusedAgainstLoop[T tf.Scalar](t *testing.T) {
	code := []backend.FusedInstr{
		{Load: true, Arg: 0}, {Load: true, Arg: 1}, {Op: op.Sub},
		{Op: op.Scale, Alpha: 2 - 1i}, {Load: true, Arg: 2}, {Op: op.Mul},
		{Op: op.Conj}, {Load: true, Arg: 0}, {Op: op.Negate}, {Op: op.Add},
	}
	const m, n = 7, 300 // n crosses the kernel's block size
	for name, e := range engines(t) {
		kern, err := fusion[T](t, e).Fuse(code, 3)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := tf.Rand[T](1, m, n)
		b, _ := tf.Rand[T](2, m, 1)
		c, _ := tf.Rand[T](3, 1, n)
		const guard = 42
		host, _ := tf.Full(T(guard), n+2, m)
		win, _ := host.Slice(0, 1, n+1, 1)
		dst, _ := win.Transpose() // m x n, strides (n+2, 1)
		in := []*backend.View[T]{viewOf(a), viewOf(b), viewOf(c)}
		be := e.Backend()
		if err := be.Begin("test"); err != nil {
			t.Fatal(err)
		}
		err = kern.Eval(viewOf(dst), in)
		be.End()
		if err != nil {
			t.Fatal(err)
		}
		eps := 0x1p-52
		if dt := tf.DTypeOf[T](); dt == tf.Float32 || dt == tf.Complex64 {
			eps = 0x1p-23
		}
		alpha := complex128(2 - 1i)
		if !tf.DTypeOf[T]().IsComplex() {
			alpha = 2 // the real part, for real dtypes
		}
		for i := range m {
			for j := range n {
				ra, rb, rc := c128(at(a, i, j)), c128(at(b, i, 0)), c128(at(c, 0, j))
				want := cmplx.Conj(alpha*(ra-rb)*rc) - ra
				g := c128(at(dst, i, j))
				// About six roundings on terms bounded by 8.
				if cmplx.Abs(g-want) > 8*8*eps {
					t.Fatalf("%s (%d,%d): got %v want %v", name, i, j, g, want)
				}
			}
		}
		for i := range m {
			if at(host, 0, i) != guard || at(host, n+1, i) != guard {
				t.Fatalf("%s: Eval wrote outside dst (column %d)", name, i)
			}
		}
		// Eval allocates nothing.
		dv := viewOf(dst)
		allocs := testing.AllocsPerRun(10, func() {
			if err := be.Begin("test"); err != nil {
				t.Fatal(err)
			}
			err := kern.Eval(dv, in)
			be.End()
			if err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: Eval allocates %v per call", name, allocs)
		}
		// The wrong number of inputs is refused.
		if err := kern.Eval(viewOf(dst), in[:2]); !errors.Is(err, tf.ErrArgument) {
			t.Errorf("%s: Eval with 2 of 3 inputs: %v", name, err)
		}
	}
}

func TestFusedAgainstLoop(t *testing.T) {
	t.Run("f32", testFusedAgainstLoop[float32])
	t.Run("f64", testFusedAgainstLoop[float64])
	t.Run("c64", testFusedAgainstLoop[complex64])
	t.Run("c128", testFusedAgainstLoop[complex128])
}

func TestFuseErrors(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	be := e.Backend()
	// Kernels of no dtype; int64 and bool kernels have storage and Where
	// (and bool the logical operations, All and Any) but no arithmetic (no
	// fusion).
	for _, dt := range []op.DType{op.InvalidDType, op.NumDTypes, op.NumDTypes + 1} {
		if k := be.Kernels(dt); k != nil {
			t.Errorf("Kernels(%d) = %T, want nil", dt, k)
		}
	}
	if ks := backend.KernelsOf[int64](be); ks == nil || ks.Core == nil || ks.Fusion != nil || ks.Contraction != nil {
		t.Errorf("int64 kernels %+v, want storage, Where and no arithmetic", ks)
	}
	if ks := backend.KernelsOf[bool](be); ks == nil || ks.Core == nil || ks.Fusion != nil || ks.Contraction != nil {
		t.Errorf("bool kernels %+v, want storage only", ks)
	}
	load := backend.FusedInstr{Load: true}
	deep := func(loads int) []backend.FusedInstr {
		code := []backend.FusedInstr{}
		for range loads {
			code = append(code, load)
		}
		for range loads - 1 {
			code = append(code, backend.FusedInstr{Op: op.Add})
		}
		return code
	}
	k := fusion[float64](t, e)
	cases := []struct {
		name string
		code []backend.FusedInstr
		nin  int
	}{
		{"unknown op", []backend.FusedInstr{load, {Op: 99}}, 1},
		{"no op", []backend.FusedInstr{load, {Op: op.None}}, 1},
		{"reduction", []backend.FusedInstr{load, {Op: op.Sum}}, 1},
		{"contraction", []backend.FusedInstr{load, load, {Op: op.Matmul}}, 1},
		{"structural", []backend.FusedInstr{load, {Op: op.Permute}}, 1},
		{"load out of range", []backend.FusedInstr{{Load: true, Arg: 1}}, 1},
		{"load negative", []backend.FusedInstr{{Load: true, Arg: -1}}, 1},
		{"empty stack", []backend.FusedInstr{load, {Op: op.Add}}, 1},
		{"unary on empty stack", []backend.FusedInstr{{Op: op.Negate}}, 1},
		{"two left", []backend.FusedInstr{load, load}, 1},
		{"nothing left", nil, 1},
		{"too many inputs", []backend.FusedInstr{load}, backend.MaxFusedInputs + 1},
		{"negative inputs", []backend.FusedInstr{load}, -1},
		{"too deep", deep(backend.MaxFusedStack + 1), 1},
	}
	for _, c := range cases {
		_, err := k.Fuse(c.code, c.nin)
		var te *tf.Error
		if err == nil || !errors.As(err, &te) || !errors.Is(err, tf.ErrArgument) || te.Op != "Fuse" {
			t.Errorf("%s: err %v, want a *tenferro.Error of kind ErrArgument from Fuse", c.name, err)
		}
	}
	// The limits themselves are accepted.
	if _, err := k.Fuse(deep(backend.MaxFusedStack), 1); err != nil {
		t.Errorf("stack depth %d: %v", backend.MaxFusedStack, err)
	}
	wide := []backend.FusedInstr{}
	for i := range backend.MaxFusedInputs {
		wide = append(wide, backend.FusedInstr{Load: true, Arg: i})
		if i > 0 {
			wide = append(wide, backend.FusedInstr{Op: op.Mul})
		}
	}
	kern, err := k.Fuse(wide, backend.MaxFusedInputs)
	if err != nil {
		t.Fatalf("%d inputs: %v", backend.MaxFusedInputs, err)
	}
	// ... and evaluate: the product of 1, 2, ..., 8 broadcast over a 2x3
	// destination.
	var in []*backend.View[float64]
	for i := range backend.MaxFusedInputs {
		x, _ := tf.Full(float64(i+1), 1, 1)
		in = append(in, viewOf(x))
	}
	dst, _ := tf.Zeros[float64](2, 3)
	if err := kern.Eval(viewOf(dst), in); err != nil {
		t.Fatal(err)
	}
	for _, v := range dst.Storage() {
		if v != 40320 {
			t.Fatalf("product of %d inputs: %v, want 40320", backend.MaxFusedInputs, dst.Storage())
		}
	}
}
