package team_test

import (
	"errors"
	"fmt"

	"github.com/tenferro-go/tenferro/team"
)

// sumTask adds up xs in parts; part p owns the share [lo, hi) of xs and the
// slot partial[p], so parts write disjoint memory.
type sumTask struct {
	xs      []float64
	partial []float64
}

func (s *sumTask) RunPart(part, parts int) {
	lo, hi := part*len(s.xs)/parts, (part+1)*len(s.xs)/parts
	var acc float64
	for _, x := range s.xs[lo:hi] {
		acc += x
	}
	s.partial[part] = acc
}

func ExampleNew() {
	tm, err := team.New(team.Threads(2))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tm.Close()
	fmt.Println("width:", tm.Width(), "dedicated:", tm.Dedicated())

	_, err = team.New(team.Threads(0))
	fmt.Println(errors.Is(err, team.ErrThreads))
	// Output:
	// width: 2 dedicated: false
	// true
}

func ExampleTeam_Run() {
	tm, err := team.New(team.Threads(3))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tm.Close()

	xs := make([]float64, 1000)
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	task := &sumTask{xs: xs, partial: make([]float64, tm.Width())}
	tm.Run(task, tm.Width())
	total := 0.0
	for _, p := range task.partial {
		total += p
	}
	fmt.Println(total)
	// Output: 500500
}

// nested runs an inner Run from inside each part: the team is busy, so the
// inner parts run inline, in order, on the goroutine of the outer part.
type nested struct {
	tm    *team.Team
	order [][]int
}

type recordOrder struct{ seen *[]int }

func (r recordOrder) RunPart(part, parts int) { *r.seen = append(*r.seen, part) }

func (n *nested) RunPart(part, parts int) {
	n.tm.Run(recordOrder{&n.order[part]}, 3)
}

func ExampleTeam_Run_nested() {
	tm, err := team.New(team.Threads(3))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tm.Close()
	n := &nested{tm: tm, order: make([][]int, 3)}
	tm.Run(n, 3)
	fmt.Println(n.order)
	// Output: [[0 1 2] [0 1 2] [0 1 2]]
}

func ExampleOnStart() {
	started := make([]bool, 4)
	tm, err := team.New(team.Threads(4), team.LockOSThread(), team.OnStart(func(worker int) {
		started[worker] = true // worker in [1, 4); New waits for every hook
	}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tm.Dedicated(), started)
	fmt.Println(tm.Close(), tm.Close())
	// Output:
	// true [false true true true]
	// <nil> <nil>
}

func ExampleReadCacheStats() {
	tm, err := team.New(team.Threads(2))
	if err != nil {
		fmt.Println(err)
		return
	}
	tm.Close() // the worker goes back to the process cache

	before := team.ReadCacheStats()
	tm, err = team.New(team.Threads(2)) // takes it again: nothing is spawned
	if err != nil {
		fmt.Println(err)
		return
	}
	after := team.ReadCacheStats()
	tm.Close()
	fmt.Println("hits:", after.Hits-before.Hits, "spawned:", after.Spawned-before.Spawned)
	// Output: hits: 1 spawned: 0
}
