package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tenferro-go/tenferro/distributed"
	"github.com/tenferro-go/tenferro/team"
)

func init() {
	register("worker", "compute the slices that `tenferro contract` hands out through NATS", runWorkerCmd)
}

// handBackWait bounds how long a stopped worker waits for the task it is
// computing before it exits (the task is already handed back).
const handBackWait = 2 * time.Second

func runWorkerCmd(args []string, _, stderr io.Writer) int {
	fs := newFlags("worker", stderr)
	url := fs.String("nats", defaultNATS(), "NATS server URL (default $NATS_URL, else nats://127.0.0.1:4222)")
	threads := fs.Int("threads", 1, "team width (1 = serial engine)")
	once := fs.Bool("once", false, "handle one task, then exit (status 1 if it failed)")
	ackWait := fs.Duration("ack-wait", distributed.DefaultAckWait, "time without an ack or heartbeat after which a task goes to another worker")
	maxDeliver := fs.Int("max-deliver", distributed.DefaultMaxDeliver, "deliveries of one task before the coordinator gives up on it")
	name := fs.String("name", "", "name in results and logs (default host-pid)")
	connectTimeout := fs.Duration("connect-timeout", 5*time.Second, "bound on connecting to the server")
	quiet := fs.Bool("quiet", false, "log nothing per task")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tenferro worker --nats URL [--threads N] [--once] [--ack-wait D] [--max-deliver N] [--name NAME]")
		fmt.Fprintln(stderr, "  takes tasks of `tenferro contract` from NATS JetStream until SIGINT or SIGTERM (or one task with --once)")
		fs.PrintDefaults()
	}
	rest, code, done := commandArgs(fs, args)
	if done {
		return code
	}
	switch {
	case len(rest) > 0:
		return fail(stderr, "worker", fmt.Errorf("expected no arguments, got %q", rest))
	case *threads < 1 || *threads > team.MaxThreads:
		return fail(stderr, "worker", fmt.Errorf("--threads must be in [1, %d], got %d", team.MaxThreads, *threads))
	case *ackWait < 100*time.Millisecond:
		return fail(stderr, "worker", fmt.Errorf("--ack-wait must be at least 100ms, got %v", *ackWait))
	case *maxDeliver < 1:
		return fail(stderr, "worker", fmt.Errorf("--max-deliver must be at least 1, got %d", *maxDeliver))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	nc, js, err := distributed.Connect(ctx, *url, "tenferro worker", *connectTimeout)
	if err != nil {
		fmt.Fprintf(stderr, "tenferro worker: %v\n", err)
		return 1
	}
	defer nc.Close()
	e, err := newEngine(*threads)
	if err != nil {
		return fail(stderr, "worker", err)
	}
	opts := distributed.WorkerOptions{Name: *name, AckWait: *ackWait, MaxDeliver: *maxDeliver}
	if !*quiet {
		opts.Log = stderr
	}
	w, err := distributed.NewWorker(ctx, js, e, opts)
	if err != nil {
		e.Close()
		fmt.Fprintf(stderr, "tenferro worker: %v\n", err)
		return 1
	}
	// The worker runs on its own goroutine so that a signal ends the
	// command at once: the task in progress is handed back to the server
	// for another worker, and the command does not wait for its slices.
	errc := make(chan error, 1)
	go func() {
		defer e.Close()
		if *once {
			_, err := w.Once(ctx)
			errc <- err
			return
		}
		errc <- w.Run(ctx)
	}()
	select {
	case err = <-errc:
	case <-ctx.Done():
		select {
		case err = <-errc:
		case <-time.After(handBackWait):
		}
		_ = nc.FlushTimeout(time.Second)
		if !*quiet {
			fmt.Fprintf(stderr, "tenferro worker: %s stopped\n", w.Name())
		}
		return 0
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "tenferro worker: %v\n", err)
		return 1
	}
	return 0
}
