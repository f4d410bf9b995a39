package distributed

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/slicing"
)

// contractCase is one contraction evaluated by in-process workers.
type contractCase struct {
	name          string
	subscripts    string
	shapes        [][]int
	div           int64 // memory limit: the unsliced peak / div (0: unsliced)
	slicesPerTask int
}

var contractCases = []contractCase{
	{"chain", "ab,bc,cd->ad", [][]int{{5, 13}, {13, 11}, {11, 3}}, 4, 1},
	{"chain-uneven-tasks", "ab,bc,cd->ad", [][]int{{3, 7}, {7, 11}, {11, 2}}, 3, 4},
	{"network", "abc,cd,dbe->ae", [][]int{{3, 5, 7}, {7, 4}, {4, 5, 2}}, 4, 0},
	{"network-two-labels", "abc,cd,dbe->ae", [][]int{{3, 5, 7}, {7, 4}, {4, 5, 2}}, 16, 1},
	{"ring-three-labels", "abcd,bcef,efgh,ghad->", [][]int{{3, 4, 5, 3}, {4, 5, 6, 4}, {6, 4, 5, 3}, {5, 3, 3, 3}}, 16, 5},
	{"ring-scalar-output", "ab,bc,ca->", [][]int{{7, 6}, {6, 5}, {5, 7}}, 3, 2},
	{"unsliced", "ij,jk->ik", [][]int{{4, 6}, {6, 5}}, 0, 0},
	{"one-element", "i,i->", [][]int{{1}, {1}}, 0, 0},
}

func TestContractInProcess(t *testing.T) {
	_, js := startServer(t)
	startWorkers(t, js, 2, WorkerOptions{AckWait: 2 * time.Second}, nil)
	for _, c := range contractCases {
		t.Run(c.name, func(t *testing.T) {
			for _, dt := range []tf.DType{tf.Float64, tf.Complex64} {
				p := slicedPlan(t, dt, c.subscripts, c.shapes, c.div)
				var vals []tf.Value
				if dt == tf.Float64 {
					vals = randValues[float64](t, 3, c.shapes)
				} else {
					vals = randValues[complex64](t, 3, c.shapes)
				}
				var calls int
				res, prog, err := Contract(context.Background(), js, p, vals, Options{SlicesPerTask: c.slicesPerTask,
					Progress: func(Progress) { calls++ }})
				if err != nil {
					t.Fatal(err)
				}
				perTask := c.slicesPerTask
				if perTask == 0 {
					perTask = (p.Slices + maxAutoTasks - 1) / maxAutoTasks
				}
				wantTasks := (p.Slices + perTask - 1) / perTask
				t.Logf("%v: %d slices over %v, %d tasks", dt, p.Slices, p.SlicedLabels, wantTasks)
				if prog.Done != p.Slices || prog.Total != p.Slices || prog.Tasks != wantTasks || prog.TasksDone != wantTasks || prog.Duplicates != 0 || calls == 0 {
					t.Errorf("%v: progress %+v after %d calls, want %d slices in %d tasks", dt, prog, calls, p.Slices, wantTasks)
				}
				if dt == tf.Float64 {
					checkEinsum[float64](t, c.subscripts, vals, res, 1e-12)
				} else {
					checkEinsum[complex64](t, c.subscripts, vals, res, 1e-5)
				}
			}
		})
	}
	assertJobsRemoved(t, js, false)
}

// assertJobsRemoved checks that no job left objects, tasks or (unless
// lateResults: a worker may report a failure after its job is gone)
// results behind.
func assertJobsRemoved(t *testing.T, js jetstream.JetStream, lateResults bool) {
	t.Helper()
	ctx := context.Background()
	obs, err := js.ObjectStore(ctx, Bucket)
	if err != nil {
		t.Fatal(err)
	}
	if infos, _ := obs.List(ctx); len(infos) != 0 {
		t.Errorf("%d objects left in the bucket, first %q", len(infos), infos[0].Name)
	}
	streams := []string{TaskStream, ResultStream}
	if lateResults {
		streams = streams[:1]
	}
	for _, name := range streams {
		s, err := js.Stream(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		info, err := s.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if info.State.Msgs != 0 {
			t.Errorf("%s holds %d messages after the jobs", name, info.State.Msgs)
		}
	}
}

func TestContractBadInput(t *testing.T) {
	_, js := startServer(t)
	p, err := slicing.New(tf.Float64, "ij,jk->ik", [][]int{{2, 3}, {3, 4}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	good := randValues[float64](t, 1, p.Shapes)
	wrongShape := randValues[float64](t, 1, [][]int{{2, 3}, {4, 4}})
	for _, c := range []struct {
		name string
		p    *slicing.Plan
		vals []tf.Value
		opts Options
		want string
	}{
		{"nil plan", nil, good, Options{}, "p: expected a plan"},
		{"operand shape", p, wrongShape, Options{}, "operands[1]"},
		{"operand count", p, good[:1], Options{}, "operands"},
		{"slices per task", p, good, Options{SlicesPerTask: -1}, "SlicesPerTask: expected >= 0, got -1"},
		{"job id", p, good, Options{Job: "a.b"}, `Job "a.b"`},
	} {
		_, _, err := Contract(context.Background(), js, c.p, c.vals, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "distributed.Contract") {
			t.Errorf("%s: error %v, want one naming %q", c.name, err, c.want)
		}
	}
	if _, err := NewWorker(context.Background(), js, nil, WorkerOptions{}); err == nil {
		t.Error("NewWorker accepted a nil engine")
	}
	if _, err := NewWorker(context.Background(), js, cpu.Serial(), WorkerOptions{AckWait: time.Millisecond}); err == nil || !strings.Contains(err.Error(), "AckWait") {
		t.Errorf("NewWorker AckWait 1ms: %v", err)
	}
}

// TestMissingOperand removes an operand after the tasks are published:
// the worker reports the missing object, and Contract fails with it.
func TestMissingOperand(t *testing.T) {
	_, js := startServer(t)
	p := slicedPlan(t, tf.Float64, "ab,bc,cd->ad", [][]int{{3, 9}, {9, 4}, {4, 2}}, 3)
	vals := randValues[float64](t, 5, p.Shapes)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, _, err := Contract(ctx, js, p, vals, Options{Job: "missing"})
		errc <- err
	}()
	waitMessages(t, js, TaskStream, 1)
	obs, err := js.ObjectStore(ctx, Bucket)
	if err != nil {
		t.Fatal(err)
	}
	if err := obs.Delete(ctx, operandObject("missing", 1)); err != nil {
		t.Fatal(err)
	}
	startWorkers(t, js, 1, WorkerOptions{AckWait: 2 * time.Second}, nil)
	err = <-errc
	var te *TaskError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "operand 1") || !strings.Contains(err.Error(), errObjectMissing.Error()) {
		t.Fatalf("Contract: %v, want a TaskError naming the missing operand 1", err)
	}
	assertJobsRemoved(t, js, true)
}

// waitMessages waits until stream holds at least n messages.
func waitMessages(t *testing.T, js jetstream.JetStream, stream string, n int) {
	t.Helper()
	ctx := context.Background()
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(20 * time.Millisecond) {
		s, err := js.Stream(ctx, stream)
		if err != nil {
			continue
		}
		if info, err := s.Info(ctx); err == nil && info.State.Msgs >= uint64(n) {
			return
		}
	}
	t.Fatalf("%s did not reach %d messages", stream, n)
}
