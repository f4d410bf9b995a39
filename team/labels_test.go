package team_test

import (
	"bytes"
	"context"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tenferro-go/tenferro/team"
)

// profileTask records, from part 1, the goroutine profile, after making
// part 0 wait until part 1 has started on its worker (so the caller cannot
// take it back).
type profileTask struct {
	started atomic.Bool
	profile string
}

func (p *profileTask) RunPart(part, parts int) {
	if part == 0 {
		for !p.started.Load() {
		}
		return
	}
	p.started.Store(true)
	var b bytes.Buffer
	pprof.Lookup("goroutine").WriteTo(&b, 1)
	p.profile = b.String()
}

// workerProfile runs a two-part task on tm and returns the goroutine
// profile its worker wrote.
func workerProfile(tm *team.Team) string {
	task := &profileTask{}
	tm.Run(task, 2)
	return task.profile
}

func TestSetPartLabels(t *testing.T) {
	tm, err := team.New(team.Threads(2))
	if err != nil {
		t.Fatal(err)
	}
	defer tm.Close()
	one := pprof.WithLabels(context.Background(), pprof.Labels("part-label-test", "one"))
	two := pprof.WithLabels(context.Background(), pprof.Labels("part-label-test", "two"))
	if p := workerProfile(tm); strings.Contains(p, "part-label-test") {
		t.Fatalf("labels before SetPartLabels:\n%s", p)
	}
	tm.SetPartLabels(one)
	if tm.PartLabels() != one {
		t.Fatal("PartLabels does not return what SetPartLabels set")
	}
	if p := workerProfile(tm); !strings.Contains(p, `"part-label-test":"one"`) {
		t.Fatalf("labels one not applied:\n%s", p)
	}
	tm.SetPartLabels(two)
	if p := workerProfile(tm); !strings.Contains(p, `"part-label-test":"two"`) || strings.Contains(p, `"part-label-test":"one"`) {
		t.Fatalf("labels two not applied:\n%s", p)
	}
	tm.SetPartLabels(nil)
	if p := workerProfile(tm); strings.Contains(p, "part-label-test") {
		t.Fatalf("labels kept after SetPartLabels(nil):\n%s", p)
	}
	// A team's own labels come back after nil.
	own, err := team.New(team.Threads(2), team.Labels("part-label-own", "yes"))
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	own.SetPartLabels(one)
	if p := workerProfile(own); !strings.Contains(p, `"part-label-test":"one"`) {
		t.Fatalf("labels one not applied on a labelled team:\n%s", p)
	}
	own.SetPartLabels(nil)
	if p := workerProfile(own); !strings.Contains(p, `"part-label-own":"yes"`) || strings.Contains(p, "part-label-test") {
		t.Fatalf("own labels not restored:\n%s", p)
	}
	var nilTeam *team.Team
	nilTeam.SetPartLabels(one) // no effect, no panic
	if nilTeam.PartLabels() != nil {
		t.Fatal("nil team has labels")
	}
}

func TestSetPartLabelsAllocs(t *testing.T) {
	tm, _ := team.New(team.Threads(2))
	defer tm.Close()
	ctx := pprof.WithLabels(context.Background(), pprof.Labels("k", "v"))
	if n := testing.AllocsPerRun(100, func() { tm.SetPartLabels(ctx) }); n != 0 {
		t.Fatalf("SetPartLabels allocates %v", n)
	}
}
