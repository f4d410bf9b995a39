package closing

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
	"github.com/tenferro-go/tenferro/team"
)

func neverClosed(x *tf.Tensor[float64]) error {
	e := cpu.Serial() // want `an engine e built by cpu.Serial is never closed; add defer e.Close\(\)`
	y, err := tf.Add(e, x, x)
	if err != nil {
		return err
	}
	_, err = linalg.Solve(e, y, x)
	_ = e.Threads()
	if e == nil {
		return nil
	}
	return err
}

func teamNeverClosed() int {
	t, err := team.New(team.Threads(2)) // want `a worker team t built by team.New is never closed; add defer t.Close\(\), or hand it to cpu.New, whose engine closes it`
	if err != nil {
		return 0
	}
	return t.Width()
}

func discarded() error {
	_, err := cpu.New(nil) // want `an engine built by cpu.New is discarded and never closed`
	return err
}

func inLiteral() func() {
	return func() {
		var e = cpu.Serial() // want `an engine e built by cpu.Serial is never closed`
		_ = e.SetMemoryBudget(1)
	}
}

// Not reported below.

func deferred() {
	e := cpu.Serial()
	defer e.Close()
	_ = e.Threads()
}

func closedLater() error {
	t, err := team.New(team.Threads(4))
	if err != nil {
		return err
	}
	e, err := cpu.New(t) // owns t
	if err != nil {
		return err
	}
	return e.Close()
}

func returned() (*cpu.Engine, error) {
	e := cpu.Serial()
	return e, nil
}

type state struct{ e *cpu.Engine }

func stored(s *state) {
	e := cpu.Serial()
	s.e = e
}

func passedOn(run func(*cpu.Engine)) {
	e := cpu.Serial()
	run(e)
}

func methodValue(cleanup func(func() error)) {
	e := cpu.Serial()
	cleanup(e.Close)
}

func closedInLiteral() func() {
	e := cpu.Serial()
	return func() { e.Close() }
}

var global = cpu.Serial()
