package program_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// The chain benchmarks compute v = x·w·w·...·w, ten dependent 2x2 float64
// matmuls, four ways:
//
//   - Prepared: a compiled program replayed with RunInto;
//   - DirectReused: ten tf.Matmul calls on one serial engine, releasing
//     each intermediate;
//   - DirectNewEngine: the same calls, each building (and closing) a new
//     serial engine;
//   - Kernels: the engine's contraction kernel (backend.Contraction)
//     called ten times on views of prebuilt tensors, with no validation
//     and no claim: the kernel time alone.
//
// Executor overhead per command = (Prepared - Kernels) / 10.

const chainLen = 10

func chainProgram(b testing.TB, n int) *program.Program {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, n, n)
	w, _ := tr.Input(tf.Float64, n, n)
	v := x
	for range chainLen {
		v, _ = tr.Matmul(v, w)
	}
	g, err := tr.Finish(v)
	if err != nil {
		b.Fatal(err)
	}
	p, err := program.Compile(g)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func chainInputs(n int) (x, w *tf.Tensor[float64]) {
	r := rand.New(rand.NewPCG(19, 20))
	xv, wv := randValue(r, tf.Float64, n, n), randValue(r, tf.Float64, n, n)
	x, _ = tf.As[float64](xv)
	w, _ = tf.As[float64](wv)
	return x, w
}

func BenchmarkChain2x2(b *testing.B) {
	const n = 2
	x, w := chainInputs(n)
	b.Run("Prepared", func(b *testing.B) {
		runtime.GC()
		e := cpu.Serial()
		defer e.Close()
		pp, err := program.Prepare(chainProgram(b, n), e)
		if err != nil {
			b.Fatal(err)
		}
		out, _ := tf.Zeros[float64](n, n)
		outs := []tf.Value{tf.ValueOf(out)}
		xv, wv := tf.ValueOf(x), tf.ValueOf(w)
		for b.Loop() {
			if err := pp.RunInto(outs, xv, wv); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(pp.NumCommands()), "ns/command")
	})
	b.Run("Kernels", func(b *testing.B) {
		runtime.GC()
		e := cpu.Serial()
		defer e.Close()
		k := contraction[float64](e)
		var bufs [2]*backend.View[float64]
		for i := range bufs {
			t, _ := tf.Zeros[float64](n, n)
			bufs[i] = viewOf(t)
		}
		xv, wv := viewOf(x), viewOf(w)
		for b.Loop() {
			v := xv
			for i := range chainLen {
				dst := bufs[i%2]
				if err := k.Matmul(dst, v, wv, 1, 0); err != nil {
					b.Fatal(err)
				}
				v = dst
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/chainLen, "ns/command")
	})
	b.Run("DirectReused", func(b *testing.B) {
		runtime.GC()
		e := cpu.Serial()
		defer e.Close()
		for b.Loop() {
			directChain(b, e, x, w)
		}
	})
	b.Run("DirectNewEngine", func(b *testing.B) {
		for b.Loop() {
			v := x
			for i := range chainLen {
				e := cpu.Serial()
				next, err := tf.Matmul(e, v, w)
				if err != nil {
					b.Fatal(err)
				}
				if i > 0 {
					v.Release()
				}
				e.Close()
				v = next
			}
			v.Release()
		}
	})
}

func directChain(b *testing.B, e tf.Engine, x, w *tf.Tensor[float64]) {
	v := x
	for i := range chainLen {
		next, err := tf.Matmul(e, v, w)
		if err != nil {
			b.Fatal(err)
		}
		if i > 0 {
			v.Release()
		}
		v = next
	}
	v.Release()
}

// BenchmarkFusion compares a fused elementwise chain (one pass) with the
// same program compiled WithoutFusion (one pass per operation), on 2^20
// complex128 elements (16 MiB per operand, beyond the caches).
func BenchmarkFusion(b *testing.B) {
	const n = 1 << 20
	tr := trace.New()
	a, _ := tr.Input(tf.Complex128, n)
	c, _ := tr.Input(tf.Complex128, n)
	v, _ := tr.Add(a, c)
	v, _ = tr.Scale(0.5, v)
	v, _ = tr.Mul(v, a)
	v, _ = tr.Sub(v, c)
	v, _ = tr.Conj(v)
	g, _ := tr.Finish(v)
	r := rand.New(rand.NewPCG(21, 22))
	ins := []tf.Value{randValue(r, tf.Complex128, n), randValue(r, tf.Complex128, n)}
	outs := []tf.Value{randValue(r, tf.Complex128, n)}
	for _, c := range []struct {
		name string
		opts []program.Option
	}{{"Fused", nil}, {"Unfused", []program.Option{program.WithoutFusion()}}} {
		b.Run(c.name, func(b *testing.B) {
			p, _ := program.Compile(g, c.opts...)
			e := cpu.Serial()
			defer e.Close()
			pp, err := program.Prepare(p, e)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(3 * 16 * n)
			for b.Loop() {
				if err := pp.RunInto(outs, ins...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// tinyScaleChain compiles ten dependent Scale commands on a one-element
// float64 tensor (WithoutFusion, so each stays a command) and returns the
// program with an input for it.
func tinyScaleChain(b testing.TB) (*program.Program, *tf.Tensor[float64]) {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 1)
	v := x
	for range chainLen {
		v, _ = tr.Scale(1.0001, v)
	}
	g, _ := tr.Finish(v)
	p, err := program.Compile(g, program.WithoutFusion())
	if err != nil {
		b.Fatal(err)
	}
	xt, _ := tf.Full(1.0, 1)
	return p, xt
}

// BenchmarkChainTinyUnary isolates the executor: ten dependent Scale
// commands on one-element float64 tensors (compiled WithoutFusion so that
// each stays a command), replayed with RunInto, against the same engine
// kernel (backend.Elementwise) called ten times on views of prebuilt
// tensors.
func BenchmarkChainTinyUnary(b *testing.B) {
	p, xt := tinyScaleChain(b)
	b.Run("Prepared", func(b *testing.B) {
		runtime.GC()
		e := cpu.Serial()
		defer e.Close()
		pp, err := program.Prepare(p, e)
		if err != nil {
			b.Fatal(err)
		}
		out, _ := tf.Zeros[float64](1)
		outs, ins := []tf.Value{tf.ValueOf(out)}, []tf.Value{tf.ValueOf(xt)}
		for b.Loop() {
			if err := pp.RunInto(outs, ins...); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(pp.NumCommands()), "ns/command")
	})
	b.Run("Kernels", func(b *testing.B) {
		runtime.GC()
		e := cpu.Serial()
		defer e.Close()
		k := elementwise[float64](e)
		bufs := tinyBufs()
		xv := viewOf(xt)
		for b.Loop() {
			v := xv
			for i := range chainLen {
				dst := bufs[i%2]
				if err := k.Unary(op.Scale, 1.0001, 0, dst, v); err != nil {
					b.Fatal(err)
				}
				v = dst
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/chainLen, "ns/command")
	})
}

// BenchmarkExecutorOverhead measures the executor's cost per command as a
// paired difference: each iteration replays the tiny ten-command program
// of BenchmarkChainTinyUnary and then calls the same ten kernels directly,
// timing both halves, so that load on the machine affects both alike.
// ns/command = (prepared - kernels) / commands.
func BenchmarkExecutorOverhead(b *testing.B) {
	p, xt := tinyScaleChain(b)
	e := cpu.Serial()
	defer e.Close()
	pp, err := program.Prepare(p, e)
	if err != nil {
		b.Fatal(err)
	}
	out, _ := tf.Zeros[float64](1)
	outs, ins := []tf.Value{tf.ValueOf(out)}, []tf.Value{tf.ValueOf(xt)}
	k := elementwise[float64](e)
	bufs := tinyBufs()
	xv := viewOf(xt)
	var prep, kern time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		if err := pp.RunInto(outs, ins...); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		v := xv
		for i := range chainLen {
			dst := bufs[i%2]
			if err := k.Unary(op.Scale, 1.0001, 0, dst, v); err != nil {
				b.Fatal(err)
			}
			v = dst
		}
		t2 := time.Now()
		prep += t1.Sub(t0)
		kern += t2.Sub(t1)
		n++
	}
	b.ReportMetric(float64(prep.Nanoseconds())/float64(n)/chainLen, "prepared-ns/command")
	b.ReportMetric(float64(kern.Nanoseconds())/float64(n)/chainLen, "kernel-ns/command")
	b.ReportMetric(float64((prep-kern).Nanoseconds())/float64(n)/chainLen, "executor-ns/command")
}

// viewOf describes t for the kernels of package backend.
func viewOf[T backend.Elem](t *tf.Tensor[T]) *backend.View[T] {
	return &backend.View[T]{Data: t.Storage(), Off: t.Offset(), Shape: t.Shape(), Strides: t.Strides()}
}

// contraction returns e's contraction kernels of T, called directly (no
// validation, no claim).
func contraction[T backend.Number](e tf.Engine) backend.Contraction[T] {
	return backend.KernelsOf[T](e.Backend()).Contraction
}

// elementwise returns e's elementwise kernels of T.
func elementwise[T backend.Number](e tf.Engine) backend.Elementwise[T] {
	return backend.KernelsOf[T](e.Backend()).Elementwise
}

// tinyBufs returns two one-element float64 views to ping-pong between.
func tinyBufs() [2]*backend.View[float64] {
	var bufs [2]*backend.View[float64]
	for i := range bufs {
		t, _ := tf.Zeros[float64](1)
		bufs[i] = viewOf(t)
	}
	return bufs
}

// nopEngine implements the engine contract with kernels that do nothing,
// so that a prepared run on it costs only the executor. Its zero value
// offers every capability for every arithmetic dtype (and the core for
// int64 and bool); caps restricts what Kernels offers, for the tests of
// Prepare's capability checks.
type nopEngine struct{ caps nopCaps }

// nopCaps says which capabilities a nopEngine's kernels have.
type nopCaps uint8

const (
	nopAll      nopCaps = iota // Core, Elementwise, Reduction, Contraction, Fusion
	nopNoFusion                // all but Fusion
	nopCoreOnly                // Core only
	nopNothing                 // Kernels returns nil
)

func (e nopEngine) Backend() backend.Engine { return nopBackend(e) }

// nopBackend is a nopEngine seen through the backend contract.
type nopBackend nopEngine

func (nopBackend) Begin(string) error  { return nil }
func (nopBackend) End()                {}
func (nopBackend) MemoryBudget() int64 { return math.MaxInt64 }

func (e nopBackend) Kernels(dt op.DType) any {
	switch dt {
	case op.Float32:
		return nopKernelsOf[float32](e.caps)
	case op.Float64:
		return nopKernelsOf[float64](e.caps)
	case op.Complex64:
		return nopKernelsOf[complex64](e.caps)
	case op.Complex128:
		return nopKernelsOf[complex128](e.caps)
	case op.Int64:
		if e.caps != nopNothing {
			return &backend.Kernels[int64]{Core: nopCore[int64]{}}
		}
	case op.Bool:
		if e.caps != nopNothing {
			return &backend.Kernels[bool]{Core: nopCore[bool]{}}
		}
	}
	return nil
}

func nopKernelsOf[T backend.Number](c nopCaps) any {
	u := nopUnfused[T]{}
	switch c {
	case nopAll:
		return &backend.Kernels[T]{Core: u, Elementwise: u, Reduction: u, Contraction: u, Fusion: nopKernels[T]{}}
	case nopNoFusion:
		return &backend.Kernels[T]{Core: u, Elementwise: u, Reduction: u, Contraction: u}
	case nopCoreOnly:
		return &backend.Kernels[T]{Core: nopCore[T]{}}
	}
	return nil
}

// nopCore implements backend.Core[T] and nothing else.
type nopCore[T backend.Elem] struct{}

func (nopCore[T]) Alloc(n int) *backend.Storage[T]      { return backend.NewStorage(make([]T, n), nil) }
func (nopCore[T]) Copy(dst, src *backend.View[T]) error { return nil }
func (nopCore[T]) Fill(dst *backend.View[T], v T) error { return nil }

// nopUnfused adds every capability but Fusion.
type nopUnfused[T backend.Number] struct{ nopCore[T] }

func (nopUnfused[T]) Unary(op.Kind, T, T, *backend.View[T], *backend.View[T]) error { return nil }
func (nopUnfused[T]) Binary(op.Kind, *backend.View[T], *backend.View[T], *backend.View[T]) error {
	return nil
}
func (nopUnfused[T]) Predicate(op.Kind, *backend.View[bool], *backend.View[T]) error { return nil }
func (nopUnfused[T]) Compare(op.Kind, *backend.View[bool], *backend.View[T], *backend.View[T]) error {
	return nil
}
func (nopUnfused[T]) Where(*backend.View[T], *backend.View[bool], *backend.View[T], *backend.View[T]) error {
	return nil
}
func (nopUnfused[T]) Reduce(op.Kind, float64, *backend.View[T], *backend.View[T], uint64) error {
	return nil
}
func (nopUnfused[T]) ReduceReal(op.Kind, float64, any, *backend.View[T], uint64) error { return nil }
func (nopUnfused[T]) Arg(op.Kind, *backend.View[int64], *backend.View[T], int) error   { return nil }
func (nopUnfused[T]) Scan(op.Kind, *backend.View[T], *backend.View[T], int) error      { return nil }
func (nopUnfused[T]) Matmul(dst, a, b *backend.View[T], alpha, beta T) error           { return nil }
func (nopUnfused[T]) Einsum(*backend.View[T], *einsum.Plan, []*backend.View[T], T, T) error {
	return nil
}
func (nopUnfused[T]) Operands(n int) []*backend.View[T] { return make([]*backend.View[T], n) }
func (nopUnfused[T]) Plans() backend.PlanStore          { return nil }

// nopKernels adds Fusion: every capability of the contract.
type nopKernels[T backend.Number] struct{ nopUnfused[T] }

func (nopKernels[T]) Fuse([]backend.FusedInstr, int) (backend.FusedKernel[T], error) {
	return nopFused[T]{}, nil
}

type nopFused[T backend.Number] struct{}

func (nopFused[T]) Eval(*backend.View[T], []*backend.View[T]) error { return nil }
func (nopFused[T]) Reduce(op.Kind, *backend.View[T], *backend.View[T], []*backend.View[T], uint64) error {
	return nil
}

// The capabilities each kind of kernels has, and lacks.
var (
	_ tf.Engine                      = nopEngine{}
	_ backend.Core[int64]            = nopCore[int64]{}
	_ backend.Elementwise[float64]   = nopUnfused[float64]{}
	_ backend.Reduction[float64]     = nopUnfused[float64]{}
	_ backend.Contraction[float64]   = nopUnfused[float64]{}
	_ backend.Fusion[float64]        = nopKernels[float64]{}
	_ backend.FusedKernel[float64]   = nopFused[float64]{}
	_ backend.Contraction[complex64] = nopKernels[complex64]{}
)

// BenchmarkExecutorNopEngine replays the ten-command program of
// BenchmarkExecutorOverhead on an engine whose kernels do nothing: the
// time is the executor's alone (signature checks, claim, dispatch).
func BenchmarkExecutorNopEngine(b *testing.B) {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 1)
	v := x
	for range chainLen {
		v, _ = tr.Scale(1.0001, v)
	}
	g, _ := tr.Finish(v)
	p, err := program.Compile(g, program.WithoutFusion())
	if err != nil {
		b.Fatal(err)
	}
	pp, err := program.Prepare(p, nopEngine{})
	if err != nil {
		b.Fatal(err)
	}
	xt, _ := tf.Full(1.0, 1)
	out, _ := tf.Zeros[float64](1)
	outs, ins := []tf.Value{tf.ValueOf(out)}, []tf.Value{tf.ValueOf(xt)}
	for b.Loop() {
		if err := pp.RunInto(outs, ins...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(pp.NumCommands()), "ns/command")
}
