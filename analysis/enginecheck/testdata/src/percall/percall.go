package percall

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/team"
)

func work(e tf.Engine) {}

// norm builds an engine on every call and is called in a loop below.
func norm(x int) error {
	e := cpu.Serial() // want `cpu.Serial builds an engine on every call of norm, which is called in a loop at percall.go:\d+ \(engine per call\); build it once before the loop and pass it in`
	defer e.Close()
	work(e)
	return nil
}

func caller(xs []int) error {
	for _, x := range xs {
		if err := norm(x); err != nil {
			return err
		}
	}
	return nil
}

// newEngine's construction follows an error check: still every call.
func newEngine() (*cpu.Engine, error) {
	t, err := team.New(team.Threads(4)) // want `team.New builds a worker team on every call of step \(through newEngine\), which is called in a loop`
	if err != nil {
		return nil, err
	}
	return cpu.New(t) // want `cpu.New builds an engine on every call of step \(through newEngine\)`
}

// step reaches a construction through a helper.
func step() {
	e, err := newEngine()
	if err != nil {
		return
	}
	work(e)
	e.Close()
}

func driver(n int) {
	for i := 0; i < n; i++ {
		step()
	}
}

// pinned builds a dedicated team per call.
func pinned() *cpu.Engine {
	t, _ := team.New(team.Threads(2), team.LockOSThread()) // want `team.New builds a dedicated worker team \(team.LockOSThread\) on every call of pinned, which is called in a loop at percall.go:\d+ \(engine per call\); its workers are started fresh and stopped on Close on every call`
	e, _ := cpu.New(t)                                     // want `cpu.New builds an engine on every call of pinned`
	return e
}

type solver struct{}

// run is a method that builds an engine per call.
func (s *solver) run() {
	e := cpu.Serial() // want `cpu.Serial builds an engine on every call of run, which is called in a loop`
	work(e)
	e.Close()
}

func methods(s *solver, n int) {
	for range n {
		s.run()
		pinned().Close()
	}
}

func literal(n int) {
	apply := func() {
		e := cpu.Serial() // want `cpu.Serial builds an engine on every call of apply`
		work(e)
		e.Close()
	}
	for range n {
		apply()
	}
}

// Not reported below.

// cached builds only when its cache is empty.
var cache *cpu.Engine

func cached() *cpu.Engine {
	if cache != nil {
		return cache
	}
	cache = cpu.Serial()
	return cache
}

func conditional(build bool) {
	if build {
		e := cpu.Serial()
		work(e)
		e.Close()
	}
}

func neverInLoop() {
	e := cpu.Serial()
	defer e.Close()
	work(e)
}

// perWidth is configured by its argument, which the loop varies.
func perWidth(w int) {
	t, _ := team.New(team.Threads(w))
	e, _ := cpu.New(t)
	work(e)
	e.Close()
}

func quiet(n int, widths []int, done chan bool) {
	neverInLoop()
	for range n {
		cached()
		conditional(false)
		go neverInLoop()
	}
	for _, w := range widths {
		perWidth(w)
	}
}
