package team_test

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/tenferro-go/tenferro/team"
)

func ExampleThreads() {
	tm, _ := team.New(team.Threads(3))
	defer tm.Close()
	_, err := team.New(team.Threads(team.MaxThreads + 1))
	fmt.Println(tm.Width(), errors.Is(err, team.ErrThreads))
	// Output: 3 true
}

// Spin(0) parks idle workers at once instead of polling; a non-default
// wait policy makes the team dedicated.
func ExampleSpin() {
	tm, _ := team.New(team.Threads(2), team.Spin(0))
	defer tm.Close()
	_, err := team.New(team.Spin(-time.Millisecond))
	fmt.Println(tm.Dedicated(), errors.Is(err, team.ErrSpin))
	// Output: true true
}

// pprof labels attribute the workers' time in profiles; they come in key,
// value pairs.
func ExampleLabels() {
	tm, _ := team.New(team.Threads(2), team.Labels("pool", "solver"))
	defer tm.Close()
	_, err := team.New(team.Labels("pool"))
	fmt.Println(tm.Dedicated(), errors.Is(err, team.ErrLabels))
	// Output: true true
}

func ExampleLockOSThread() {
	tm, _ := team.New(team.Threads(2), team.LockOSThread())
	defer tm.Close() // the locked threads end with the workers
	fmt.Println(tm.Width(), tm.Dedicated())
	// Output: 2 true
}

// Width counts the caller too: a team of width 1 has no workers.
func ExampleTeam_Width() {
	one, _ := team.New(team.Threads(1))
	defer one.Close()
	var none *team.Team
	fmt.Println(one.Width(), none.Width())
	// Output: 1 1
}

// Only teams with default settings share the process cache of workers.
func ExampleTeam_Dedicated() {
	shared, _ := team.New(team.Threads(2))
	defer shared.Close()
	own, _ := team.New(team.Threads(2), team.Spin(time.Millisecond))
	defer own.Close()
	fmt.Println(shared.Dedicated(), own.Dedicated())
	// Output: false true
}

// A closed team keeps its width and runs every part on the caller.
func ExampleTeam_Close() {
	tm, _ := team.New(team.Threads(2))
	fmt.Println(tm.Close(), tm.Close())
	xs := []float64{1, 2, 3, 4}
	task := &sumTask{xs: xs, partial: make([]float64, 2)}
	tm.Run(task, tm.Width())
	fmt.Println(tm.Width(), task.partial)
	// Output:
	// <nil> <nil>
	// 2 [3 7]
}

// failing makes part 1 run on the worker (part 0 waits for it to start)
// and panic there with an error.
type failing struct{ started chan struct{} }

func (f *failing) RunPart(part, parts int) {
	if part == 0 {
		<-f.started
		return
	}
	close(f.started)
	panic(io.ErrUnexpectedEOF)
}

// A panic on a worker comes back on the caller as a *PanicError; Unwrap
// gives errors.Is the panic value when it is an error.
func ExamplePanicError_Unwrap() {
	tm, _ := team.New(team.Threads(2))
	defer tm.Close()
	defer func() {
		pe, ok := recover().(*team.PanicError)
		fmt.Println(ok, pe.Part, errors.Is(pe, io.ErrUnexpectedEOF))
	}()
	tm.Run(&failing{started: make(chan struct{})}, 2)
	// Output: true 1 true
}
