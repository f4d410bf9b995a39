package loops

import (
	"time"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/team"
)

func work(e tf.Engine) {}

func enginePerIteration(n int) {
	for i := 0; i < n; i++ {
		e := cpu.Serial() // want `cpu.Serial builds an engine on every iteration of this loop; build it once outside the loop`
		work(e)
		e.Close()
	}
}

func teamPerIteration(items []int) error {
	for range items {
		t, err := team.New(team.Threads(4)) // want `team.New builds a worker team on every iteration of this loop`
		if err != nil {
			return err
		}
		e, err := cpu.New(t) // want `cpu.New builds an engine on every iteration`
		if err != nil {
			return err
		}
		work(e)
		e.Close()
	}
	return nil
}

func dedicatedPerIteration(items []int) {
	for range items {
		t, _ := team.New(team.Threads(2), team.OnStart(func(int) {})) // want `team.New builds a dedicated worker team \(team.OnStart\) on every iteration of this loop; its workers are started fresh and stopped on Close every time`
		t.Close()
	}
	for range items {
		t, _ := team.New(team.LockOSThread()) // want `dedicated worker team \(team.LockOSThread\)`
		t.Close()
	}
	for range items {
		t, _ := team.New(team.Labels("k", "v")) // want `dedicated worker team \(team.Labels\)`
		t.Close()
	}
	for range items {
		t, _ := team.New(team.Spin(0)) // want `dedicated worker team \(team.Spin\)`
		t.Close()
	}
	for range items {
		t, _ := team.New(team.Spin(team.DefaultSpin)) // want `team.New builds a worker team on every`
		t.Close()
	}
	for range items {
		t, _ := team.New(team.Spin(100 * time.Microsecond)) // want `team.New builds a worker team on every`
		t.Close()
	}
}

func nested(n int) {
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			e := cpu.Serial() // want `cpu.Serial builds an engine on every iteration`
			work(e)
			e.Close()
		}
		func() {
			e := cpu.Serial() // want `cpu.Serial builds an engine on every iteration`
			defer e.Close()
			work(e)
		}()
	}
}

func rangeFunc(seq func(func(int) bool)) {
	for range seq {
		e := cpu.Serial() // want `cpu.Serial builds an engine on every iteration`
		e.Close()
	}
}

// Not reported below.

func once(n int) {
	e := cpu.Serial()
	defer e.Close()
	for i := 0; i < n; i++ {
		work(e)
	}
}

// sweep builds one team per width: the construction reads the loop
// variable, directly or through a variable computed from it.
func sweep(widths []int) error {
	for _, w := range widths {
		t, err := team.New(team.Threads(w))
		if err != nil {
			return err
		}
		e, err := cpu.New(t)
		if err != nil {
			return err
		}
		work(e)
		e.Close()
	}
	for i := 1; i <= 8; i *= 2 {
		n := 2 * i
		e := cpu.Serial(cpu.WithMemoryBudget(int64(n) << 20))
		work(e)
		e.Close()
	}
	return nil
}

// perGoroutine builds an engine per goroutine, as the library asks for
// concurrency.
func perGoroutine(n int, done chan bool) {
	for i := 0; i < n; i++ {
		go func() {
			e := cpu.Serial()
			defer e.Close()
			work(e)
			done <- true
		}()
	}
}

// lazy builds on first use only.
func lazy(n int) {
	var e *cpu.Engine
	for i := 0; i < n; i++ {
		if e == nil {
			e = cpu.Serial()
		}
		work(e)
	}
	e.Close()
}

// deferred calls in a loop body are only defined there.
func literalNotCalled(n int) []func() {
	var fs []func()
	for i := 0; i < n; i++ {
		fs = append(fs, func() {
			e := cpu.Serial()
			defer e.Close()
			work(e)
		})
	}
	return fs
}

// The range expression is evaluated once.
func rangeExpr() {
	for range engines(cpu.Serial()) {
	}
}

func engines(e *cpu.Engine) []int { e.Close(); return nil }

// A table written in the source is a fixed list of configurations.
func table() {
	for _, budget := range []int64{1 << 20, 1 << 30} {
		e := cpu.Serial()
		e.SetMemoryBudget(budget)
		e.Close()
	}
	for range [2]struct{}{} {
		for i := 0; i < 10; i++ {
			e := cpu.Serial() // want `cpu.Serial builds an engine on every iteration`
			e.Close()
		}
	}
	for i := 0; i < 10; i++ {
		for range []int{1, 2} {
			e := cpu.Serial() // want `cpu.Serial builds an engine on every iteration`
			e.Close()
		}
	}
}
