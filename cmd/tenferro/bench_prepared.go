package main

import (
	"fmt"
	"path/filepath"
	"runtime"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/internal/instances"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// chainLength is the number of dependent matmuls in the chain rows.
const chainLength = 10

// compileChain traces and compiles v = x·w·w·…·w with chainLength n×n
// matmuls.
func compileChain(n int) (*program.Program, error) {
	tr := trace.New()
	x, err := tr.Input(tf.Float64, n, n)
	if err != nil {
		return nil, err
	}
	w, _ := tr.Input(tf.Float64, n, n)
	v := x
	for range chainLength {
		if v, err = tr.Matmul(v, w); err != nil {
			return nil, err
		}
	}
	g, err := tr.Finish(v)
	if err != nil {
		return nil, err
	}
	return program.Compile(g)
}

// allocsPerRun counts heap allocations per call of fn over runs calls
// (after one warm-up call), like testing.AllocsPerRun.
func allocsPerRun(runs int, fn func()) int {
	fn()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		fn()
	}
	runtime.ReadMemStats(&after)
	return int((after.Mallocs - before.Mallocs) / uint64(runs))
}

// preparedRows measures the chain of ten 2×2 matmuls replayed by a
// prepared program against the same kernels called directly, the
// executor's cost per command, allocations per run, compile and prepare
// time, and the 3-matrix 64×64 einsum chain prepared vs. direct.
func preparedRows() ([]dispatchRow, error) {
	const n = 2
	var rows []dispatchRow
	compile := measure(3, 21, func() { compileChain(n) })
	p, err := compileChain(n)
	if err != nil {
		return nil, err
	}
	e := cpu.Serial()
	defer e.Close()
	prep := measure(3, 21, func() { program.Prepare(p, cpu.Serial()) })
	pp, err := program.Prepare(p, e)
	if err != nil {
		return nil, err
	}
	x, _ := tf.Rand[float64](5, n, n)
	w, _ := tf.Rand[float64](6, n, n)
	out, _ := tf.Zeros[float64](n, n)
	outs := []tf.Value{tf.ValueOf(out)}
	xv, wv := tf.ValueOf(x), tf.ValueOf(w)
	var runErr error
	run := func() {
		if err := pp.RunInto(outs, xv, wv); err != nil && runErr == nil {
			runErr = err
		}
	}
	prepared := measureBatch(200, 31, 200, run)
	if runErr != nil {
		return nil, runErr
	}
	// The kernels alone: the engine's Matmul kernel on prebuilt views,
	// no validation, no claim, no program.
	k := backend.KernelsOf[float64](e.Backend()).Contraction
	var bufs [2]*backend.View[float64]
	for i := range bufs {
		t, _ := tf.Zeros[float64](n, n)
		bufs[i] = viewOf(t)
	}
	xv0, wv0 := viewOf(x), viewOf(w)
	kernels := measureBatch(200, 31, 200, func() {
		v := xv0
		for i := range chainLength {
			k.Matmul(bufs[i%2], v, wv0, 1, 0)
			v = bufs[i%2]
		}
	})
	cmds := pp.NumCommands()
	perCmd := float64(prepared.median()-kernels.median()) / float64(cmds)
	allocs := allocsPerRun(1000, run)
	rows = append(rows,
		dispatchRow{Case: "chain10-prepared", NS: float64(prepared.median()), Threads: 1, Commands: cmds, Note: "RunInto of the compiled chain"},
		dispatchRow{Case: "chain10-kernels", NS: float64(kernels.median()), Threads: 1, Commands: chainLength, Note: "engine Matmul method on prebuilt tensors (kernel time)"},
		dispatchRow{Case: "prepared-per-command", NS: perCmd, Threads: 1, Commands: cmds, Note: "(chain10-prepared - chain10-kernels) / commands"},
		dispatchRow{Case: "prepared-allocs", NS: 0, Threads: 1, Allocs: &allocs, Note: "heap allocations per RunInto"},
		dispatchRow{Case: "compile", NS: float64(compile.median()), Note: "trace + Compile of the 10-matmul chain"},
		dispatchRow{Case: "prepare", NS: float64(prep.median()), Note: "Prepare on a new serial engine"},
	)
	nary, err := naryRows()
	if err != nil {
		return nil, err
	}
	return append(rows, nary...), nil
}

// naryRows times the 3-matrix 64×64 einsum chain (the nary_matmul_chain_64
// instance when the instance folder is present; the same expression built
// in otherwise) as a direct call, a prepared einsum plan and a prepared
// program.
func naryRows() ([]dispatchRow, error) {
	name, subs, shapes := "nary-chain64", "ji,kj,lk->li", [][]int{{64, 64}, {64, 64}, {64, 64}}
	if dir, ok := instances.FindDir(); ok {
		if inst, err := instances.Load(filepath.Join(dir, "nary_matmul_chain_64.json")); err == nil {
			name, subs, shapes = "nary_matmul_chain_64", inst.Subscripts, inst.Shapes
		}
	}
	ops := make([]*tf.Tensor[float64], len(shapes))
	vals := make([]tf.Value, len(shapes))
	for k, s := range shapes {
		ops[k], _ = tf.Rand[float64](uint64(10+k), s...)
		vals[k] = tf.ValueOf(ops[k])
	}
	e := cpu.Serial()
	defer e.Close()
	var callErr error
	keep := func(err error) {
		if err != nil && callErr == nil {
			callErr = err
		}
	}
	direct := measure(20, 201, func() {
		c, err := tf.Einsum(e, subs, ops...)
		keep(err)
		if err == nil {
			c.Release()
		}
	})
	plan, err := tf.PrepareEinsum(tf.Float64, subs, shapes)
	if err != nil {
		return nil, err
	}
	dst, _ := tf.Zeros[float64](plan.OutputShape()...)
	planned := measure(20, 201, func() { keep(tf.EinsumPlannedInto(e, dst, plan, ops...)) })
	tr := trace.New()
	ins := make([]trace.Var, len(shapes))
	for k, s := range shapes {
		ins[k], _ = tr.Input(tf.Float64, s...)
	}
	v, err := tr.Einsum(subs, ins...)
	if err != nil {
		return nil, err
	}
	g, err := tr.Finish(v)
	if err != nil {
		return nil, err
	}
	p, err := program.Compile(g)
	if err != nil {
		return nil, err
	}
	pp, err := program.Prepare(p, e)
	if err != nil {
		return nil, err
	}
	outs := []tf.Value{tf.ValueOf(dst)}
	prepared := measure(20, 201, func() { keep(pp.RunInto(outs, vals...)) })
	if callErr != nil {
		return nil, callErr
	}
	return []dispatchRow{
		{Case: name + "-direct-reused", NS: float64(direct.median()), Threads: 1, Note: "tf.Einsum + Release on a reused serial engine (plan cache hit)"},
		{Case: name + "-planned-into", NS: float64(planned.median()), Threads: 1, Note: "EinsumPlannedInto with a prepared plan"},
		{Case: name + "-prepared", NS: float64(prepared.median()), Threads: 1, Commands: pp.NumCommands(), Note: fmt.Sprintf("RunInto of the compiled program (%d command)", pp.NumCommands())},
	}, nil
}

// viewOf describes t for the engine's kernels.
func viewOf[T backend.Elem](t *tf.Tensor[T]) *backend.View[T] {
	return &backend.View[T]{Data: t.Storage(), Off: t.Offset(), Shape: t.Shape(), Strides: t.Strides()}
}
