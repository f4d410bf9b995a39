package distributed

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/internal/natstest"
	"github.com/tenferro-go/tenferro/slicing"
)

// Environment of a worker process (the test binary started again by
// startWorkerProcess).
const (
	envWorkerURL   = "TENFERRO_TEST_WORKER_URL"
	envWorkerName  = "TENFERRO_TEST_WORKER_NAME"
	envWorkerDelay = "TENFERRO_TEST_WORKER_DELAY" // a time.Duration slept before each range
	envAckWait     = "TENFERRO_TEST_ACK_WAIT"
)

func TestMain(m *testing.M) {
	if url := os.Getenv(envWorkerURL); url != "" {
		os.Exit(workerProcess(url))
	}
	os.Exit(m.Run())
}

// workerProcess runs a worker until SIGTERM or SIGKILL. It prints
// "range LO HI" on standard output when it starts the slices of a task.
func workerProcess(url string) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	nc, js, err := Connect(ctx, url, "test worker", 5*time.Second)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer nc.Close()
	ackWait, _ := time.ParseDuration(os.Getenv(envAckWait))
	w, err := NewWorker(ctx, js, cpu.Serial(), WorkerOptions{Name: os.Getenv(envWorkerName), AckWait: ackWait})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	delay, _ := time.ParseDuration(os.Getenv(envWorkerDelay))
	w.beforeRange = func(lo, hi int) {
		fmt.Printf("range %d %d\n", lo, hi)
		time.Sleep(delay)
	}
	if err := w.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// startServer starts an embedded server for t and connects to it.
func startServer(t *testing.T) (string, jetstream.JetStream) {
	t.Helper()
	url := natstest.Run(t)
	nc, js, err := Connect(context.Background(), url, t.Name(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return url, js
}

// startWorkers runs n in-process workers on serial engines until the test
// ends; setup, when set, adjusts each one before it starts.
func startWorkers(t *testing.T, js jetstream.JetStream, n int, opts WorkerOptions, setup func(*Worker)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	for i := range n {
		o := opts
		o.Name = "w" + strconv.Itoa(i)
		w, err := NewWorker(ctx, js, cpu.Serial(), o)
		if err != nil {
			t.Fatal(err)
		}
		if setup != nil {
			setup(w)
		}
		wg.Go(func() { _ = w.Run(ctx) })
	}
}

// randValues returns random operands of dtype T.
func randValues[T tf.Scalar](t *testing.T, seed uint64, shapes [][]int) []tf.Value {
	t.Helper()
	vals := make([]tf.Value, len(shapes))
	for k, s := range shapes {
		x, err := tf.RandN[T](seed+uint64(k), s...)
		if err != nil {
			t.Fatal(err)
		}
		vals[k] = tf.ValueOf(x)
	}
	return vals
}

// checkEinsum compares got with the single-engine einsum of vals.
func checkEinsum[T tf.Scalar](t *testing.T, subscripts string, vals []tf.Value, got tf.Value, rtol float64) {
	t.Helper()
	ops := make([]*tf.Tensor[T], len(vals))
	for k, v := range vals {
		ops[k], _ = tf.As[T](v)
	}
	want, err := tf.Einsum(cpu.Serial(), subscripts, ops...)
	if err != nil {
		t.Fatal(err)
	}
	g, err := tf.As[T](got)
	if err != nil {
		t.Fatal(err)
	}
	ok, err := tf.AllClose(g, want, rtol, rtol)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Fatalf("%s: distributed result differs from einsum:\n got %v\nwant %v", subscripts, g, want)
	}
}

// slicedPlan plans subscripts on shapes with a memory limit of the
// unsliced plan's slice peak divided by div (div <= 1: unsliced), and
// checks that a limit makes the plan sliced.
func slicedPlan(t *testing.T, dt tf.DType, subscripts string, shapes [][]int, div int64) *slicing.Plan {
	t.Helper()
	p, err := slicing.New(dt, subscripts, shapes, 0)
	if err != nil || div <= 1 {
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	limit := p.SlicePeakBytes / div
	if p, err = slicing.New(dt, subscripts, shapes, limit); err != nil {
		t.Fatal(err)
	}
	if p.Slices < 2 {
		t.Fatalf("%s %v: a limit of %d bytes leaves %d slice(s)", subscripts, shapes, limit, p.Slices)
	}
	return p
}
