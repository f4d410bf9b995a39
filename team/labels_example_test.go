package team_test

import (
	"context"
	"fmt"
	"runtime/pprof"

	"github.com/tenferro-go/tenferro/team"
)

// SetPartLabels labels the workers for the parts of the Runs that follow,
// so a CPU profile attributes their time to the caller's phase.
func ExampleTeam_SetPartLabels() {
	tm, _ := team.New(team.Threads(2))
	defer tm.Close()
	tm.SetPartLabels(pprof.WithLabels(context.Background(), pprof.Labels("phase", "sweep")))
	// ... tm.Run(task, 2): the worker that runs part 1 carries phase=sweep.
	v, _ := pprof.Label(tm.PartLabels(), "phase")
	fmt.Println(v)
	tm.SetPartLabels(nil) // back to the team's own labels
	fmt.Println(tm.PartLabels() == nil)
	// Output:
	// sweep
	// true
}

// PartLabels returns what SetPartLabels set.
func ExampleTeam_PartLabels() {
	tm, _ := team.New(team.Threads(2))
	defer tm.Close()
	fmt.Println(tm.PartLabels() == nil)
	// Output: true
}
