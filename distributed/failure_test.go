package distributed

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// startWorkerProcess starts the test binary as a worker process with a
// delay before each range; the returned channel receives "range LO HI" for
// every task it starts.
func startWorkerProcess(t *testing.T, url, name string, delay time.Duration) (*exec.Cmd, <-chan string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envWorkerURL+"="+url, envWorkerName+"="+name,
		envWorkerDelay+"="+delay.String(), envAckWait+"=2s")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return cmd, lines
}

// TestWorkerKilledMidSlice runs a job on three worker processes and kills
// one with SIGKILL while it is inside the slices of a task: the server
// gives the task to another worker after AckWait (2 s), and the result
// equals the single-engine einsum, every slice summed once.
func TestWorkerKilledMidSlice(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker processes and waits for a redelivery")
	}
	url, js := startServer(t)
	subscripts := "ab,bc,cd->ad"
	shapes := [][]int{{3, 24}, {24, 24}, {24, 3}}
	p := slicedPlan(t, tf.Float64, subscripts, shapes, 24)
	if p.Slices < 20 {
		t.Fatalf("plan has %d slices, want at least 20", p.Slices)
	}
	perTask := (p.Slices + 23) / 24 // 20 to 24 tasks
	t.Logf("%d slices over %v, %d per task", p.Slices, p.SlicedLabels, perTask)
	vals := randValues[float64](t, 11, shapes)

	// The victim takes the first task and stays inside it (sending
	// heartbeats) until it is killed.
	victim, victimLines := startWorkerProcess(t, url, "victim", time.Minute)
	type outcome struct {
		res  tf.Value
		prog Progress
		err  error
	}
	done := make(chan outcome, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	go func() {
		res, prog, err := Contract(ctx, js, p, vals, Options{SlicesPerTask: perTask})
		done <- outcome{res, prog, err}
	}()
	var taken string
	select {
	case taken = <-victimLines:
	case <-time.After(20 * time.Second):
		t.Fatal("the victim took no task")
	}
	a, lines1 := startWorkerProcess(t, url, "a", 50*time.Millisecond)
	b, lines2 := startWorkerProcess(t, url, "b", 50*time.Millisecond)
	// Kill once the others are well into the job, so that the victim's
	// task is the one left over.
	seen := map[string]int{}
	for n := 0; n < 6; n++ {
		select {
		case l := <-lines1:
			seen[l]++
		case l := <-lines2:
			seen[l]++
		case <-time.After(20 * time.Second):
			t.Fatal("the other workers took no tasks")
		}
	}
	if err := victim.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	o := <-done
	if o.err != nil {
		t.Fatal(o.err)
	}
	if o.prog.Done != p.Slices || o.prog.TasksDone != o.prog.Tasks || o.prog.Duplicates != 0 {
		t.Errorf("progress %+v, want %d slices summed once each", o.prog, p.Slices)
	}
	if d := time.Since(killed); d > 15*time.Second {
		t.Errorf("the job ended %v after the kill", d)
	}
	checkEinsum[float64](t, subscripts, vals, o.res, 1e-12)
	// The victim's task ran again on another worker: stop the others and
	// read what they printed.
	_ = a.Process.Kill()
	_ = b.Process.Kill()
	for _, ch := range []<-chan string{lines1, lines2} {
		for l := range ch {
			seen[l]++
		}
	}
	if seen[taken] != 1 {
		t.Errorf("the victim's task %q ran %d times on the other workers, want 1", taken, seen[taken])
	}
	assertJobsRemoved(t, js, false)
}

// TestDuplicateResult announces a range a second time while the job runs,
// as a worker that dies between its result and its ack does: the range
// counts once.
func TestDuplicateResult(t *testing.T) {
	_, js := startServer(t)
	subscripts := "ab,bc,cd->ad"
	p := slicedPlan(t, tf.Float64, subscripts, [][]int{{2, 3}, {3, 4}, {4, 2}}, 2)
	vals := randValues[float64](t, 2, p.Shapes)
	startWorkers(t, js, 1, WorkerOptions{AckWait: 2 * time.Second}, func(w *Worker) {
		w.beforeRange = func(int, int) { time.Sleep(100 * time.Millisecond) }
	})
	sent := false
	res, prog, err := Contract(context.Background(), js, p, vals, Options{Job: "dup", SlicesPerTask: 1, Progress: func(pr Progress) {
		if pr.TasksDone == 1 && !sent {
			sent = true
			data, _ := json.Marshal(Result{Job: "dup", Lo: 0, Hi: 1, Status: StatusDone, Object: partialObject("dup", 0, 1), Worker: "again"})
			if _, err := js.Publish(context.Background(), ResultSubjectPrefix+"dup", data); err != nil {
				t.Error(err)
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if prog.Duplicates != 1 || prog.Done != p.Slices {
		t.Errorf("progress %+v, want one duplicate and %d slices", prog, p.Slices)
	}
	checkEinsum[float64](t, subscripts, vals, res, 1e-12)
}

// TestMaxDeliver lets a task's AckWait run out on its only delivery: the
// coordinator reports the slices.
func TestMaxDeliver(t *testing.T) {
	_, js := startServer(t)
	p := slicedPlan(t, tf.Float64, "ij,jk->ik", [][]int{{2, 2}, {2, 2}}, 0)
	vals := randValues[float64](t, 2, p.Shapes)
	startWorkers(t, js, 1, WorkerOptions{AckWait: 300 * time.Millisecond, MaxDeliver: 1}, func(w *Worker) {
		w.noHeartbeat = true
		w.beforeRange = func(int, int) { time.Sleep(3 * time.Second) }
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, _, err := Contract(ctx, js, p, vals, Options{})
	if err == nil || !strings.Contains(err.Error(), "slices [0, 1) were delivered 1 times without a result") {
		t.Fatalf("Contract: %v, want the exhausted task", err)
	}
}

func TestContractTimeout(t *testing.T) {
	_, js := startServer(t)
	p := slicedPlan(t, tf.Float64, "ij,jk->ik", [][]int{{2, 2}, {2, 2}}, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, prog, err := Contract(ctx, js, p, randValues[float64](t, 2, p.Shapes), Options{}) // no workers
	if err == nil || !strings.Contains(err.Error(), "deadline exceeded with 0 of 1 slices summed") || prog.Tasks != 1 {
		t.Fatalf("Contract without workers: %v (%+v)", err, prog)
	}
	assertJobsRemoved(t, js, false)
}

func TestConnectBounded(t *testing.T) {
	ctx := context.Background()
	// Nothing listens.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "nats://" + l.Addr().String()
	l.Close()
	start := time.Now()
	if _, _, err := Connect(ctx, closed, "t", time.Second); err == nil || !strings.Contains(err.Error(), "cannot connect to NATS at "+closed) {
		t.Errorf("closed port: %v", err)
	}
	// Something listens but never speaks.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	if _, _, err := Connect(ctx, "nats://"+silent.Addr().String(), "t", 500*time.Millisecond); err == nil {
		t.Error("silent server: connected")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("two failed connects took %v", d)
	}
	// A server without JetStream.
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	defer s.Shutdown()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("server did not start")
	}
	if _, _, err := Connect(ctx, s.ClientURL(), "t", time.Second); err == nil || !strings.Contains(err.Error(), "has no JetStream") {
		t.Errorf("server without JetStream: %v", err)
	}
}

// TestHandBack stops a worker while it computes: its task goes to another
// worker at once, long before AckWait (30 s).
func TestHandBack(t *testing.T) {
	_, js := startServer(t)
	p := slicedPlan(t, tf.Float64, "ij,jk->ik", [][]int{{2, 3}, {3, 2}}, 0)
	vals := randValues[float64](t, 4, p.Shapes)
	ctx, stop := context.WithCancel(context.Background())
	w, err := NewWorker(ctx, js, cpu.Serial(), WorkerOptions{Name: "stopped", AckWait: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	w.beforeRange = func(int, int) { close(started); time.Sleep(time.Second) }
	errc := make(chan error, 1)
	go func() { _, err := w.Once(ctx); errc <- err }()
	type outcome struct {
		res tf.Value
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, _, err := Contract(context.Background(), js, p, vals, Options{})
		done <- outcome{res, err}
	}()
	<-started
	stop()
	startWorkers(t, js, 1, WorkerOptions{AckWait: 30 * time.Second}, nil)
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatal(o.err)
		}
		checkEinsum[float64](t, "ij,jk->ik", vals, o.res, 1e-12)
	case <-time.After(10 * time.Second):
		t.Fatal("the task was not handed back")
	}
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("Once after its context ended: %v", err)
	}
}
