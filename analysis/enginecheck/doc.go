// Package enginecheck defines an analyzer that reports misuse of tenferro
// engines, worker teams and pool-backed results: the mistakes that cost
// time or memory without making a program wrong, so that tests never
// catch them. Command tenferrovet runs it, on its own or as a vet tool
// (see docs/vet.md).
//
// Calls are recognized by their types.Object: the function called, the
// package it belongs to (github.com/tenferro-go/tenferro and its packages
// cpu, team, linalg, ...) and its signature, never by the name a file
// imports a package under. Files ending in _test.go are skipped unless the
// -testfiles flag is set: tests build an engine per case for isolation and
// benchmarks build one per iteration to measure what that costs.
//
// # Engine or team per iteration
//
// An engine (cpu.New, cpu.Serial, or any constructor of the library's
// packages that returns a tenferro.Engine) or a worker team (team.New)
// built inside the body of a for or range loop starts cold on every
// iteration: an empty buffer pool, an empty plan cache, no GEMM packing
// scratch, and a team taken from the process cache (or started) and
// given back.
//
// Wrong:
//
//	for _, x := range batch {
//		e := cpu.Serial() // reported
//		y, err := tf.Exp(e, x)
//		...
//		e.Close()
//	}
//
// Right:
//
//	e := cpu.Serial()
//	defer e.Close()
//	for _, x := range batch {
//		y, err := tf.Exp(e, x)
//		...
//	}
//
// A construction whose arguments read a loop variable (a team per width
// in a sweep over thread counts, an engine per configuration) is
// deliberate and not reported, nor is a conditional assignment to a
// variable declared outside the loop (building on first use).
//
// # Engine per call
//
// The same construction in a function of the package that builds it on
// every call (in a top-level statement, before any early return other
// than an error check), when that function is called in a loop. It is
// reported at the construction and names the loop call. Functions are
// followed through the package's own functions and methods and the
// function literals bound once to a local variable; a call started by a
// go statement is not followed, since an engine per goroutine is the rule
// for concurrency.
//
// Wrong:
//
//	func total(x *tf.Tensor[float64]) (*tf.Tensor[float64], error) {
//		e := cpu.Serial() // reported: total is called in a loop below
//		defer e.Close()
//		return tf.Sum(e, x)
//	}
//
//	for _, x := range batch {
//		s, err := total(x)
//		...
//	}
//
// Right: take the engine as the first argument, like the library does.
//
//	func total(e tf.Engine, x *tf.Tensor[float64]) (*tf.Tensor[float64], error) {
//		return tf.Sum(e, x)
//	}
//
// # Dedicated team per call
//
// A team built with team.OnStart, team.Labels, team.LockOSThread or a
// team.Spin other than team.DefaultSpin is dedicated: its workers are
// started fresh by team.New and stopped by Close, instead of coming from
// the process cache. Built per iteration or per call it pays for starting
// and stopping goroutines every time; the message says so.
//
// Wrong:
//
//	func step(x *tf.Tensor[float64]) error {
//		t, err := team.New(team.Threads(8), team.LockOSThread()) // reported
//		...
//	}
//
// Right: build the dedicated team and its engine once at program start,
// and pass the engine to step.
//
// # Result dropped in a loop
//
// An allocating operation that has an ...Into form (tenferro.Matmul and
// tenferro.MatmulInto, linalg.Solve and linalg.SolveInto, ...) called in a
// loop body, whose result is discarded, or held in a variable declared in
// the body that is never released and only read (by read-only methods
// such as Shape and At, by the library's operations, or compared with
// nil). Its storage then goes back to the engine's pool only when the
// garbage collector finds it, and every iteration takes a fresh buffer. The
// analyzer stays quiet as soon as the result is released (x.Release() or
// defer x.Release() anywhere), kept (assigned to a variable declared
// outside the loop, stored in a field, element or map), returned, or
// passed to any function that is not a library operation. A suggested fix
// adds x.Release() at the end of the body when no break, continue or
// return can skip it.
//
// Wrong:
//
//	for i := range steps {
//		c, err := tf.Matmul(e, a, b) // reported
//		...
//		s, _ := tf.Sum(e, c)
//		...
//	}
//
// Right: write into a destination allocated once.
//
//	c, err := tf.NewTensor[float64](e, m, n)
//	...
//	defer c.Release()
//	for i := range steps {
//		if err := tf.MatmulInto(e, c, a, b); err != nil {
//			...
//		}
//	}
//
// or release the result in the iteration that made it (c.Release()).
//
// # Engine never closed
//
// An engine or team held in a local variable (declared by := or var from
// its constructor) that is never closed in the function: no e.Close() call,
// deferred call or method value; the variable is not returned, stored, or
// passed to a function other than the library's operations; and (for a
// team) it is not handed to cpu.New, whose engine then owns and closes it. A suggested fix
// adds defer e.Close() after the construction, or after the error check
// that follows it.
//
// Wrong:
//
//	func run(x *tf.Tensor[float64]) error {
//		e := cpu.Serial() // reported
//		y, err := tf.Exp(e, x)
//		...
//	}
//
// Right:
//
//	func run(x *tf.Tensor[float64]) error {
//		e := cpu.Serial()
//		defer e.Close()
//		y, err := tf.Exp(e, x)
//		...
//	}
//
// An engine returned to the caller, stored in a struct, or passed to a
// function of the program (which may close it) is not reported.
//
// # Silencing a report
//
// Code that does one of these things on purpose (a benchmark of an engine
// per call) carries the directive //tenferrovet:ignore followed by the
// reason, on the reported line or on the line above. A directive without
// a reason is reported and silences nothing.
package enginecheck
