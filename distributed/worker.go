package distributed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/npy"
	"github.com/tenferro-go/tenferro/slicing"
)

// WorkerOptions configure a Worker. The zero value takes the defaults.
type WorkerOptions struct {
	// Name labels the worker in result messages and logs (default
	// "<host>-<pid>").
	Name string
	// AckWait is how long a task may go without an ack or a heartbeat
	// before the server gives it to another worker (default
	// DefaultAckWait). A worker sends a heartbeat every second (every
	// AckWait/4 if that is shorter) while it computes, so AckWait bounds
	// the time lost to a worker that dies, not the length of a task. The
	// consumer is shared: the last worker to start sets AckWait and
	// MaxDeliver for all, so give every worker the same values.
	AckWait time.Duration
	// MaxDeliver bounds the deliveries of one task (default
	// DefaultMaxDeliver); the coordinator reports a task that runs out of
	// them.
	MaxDeliver int
	// Log receives one line per task (nil: no log).
	Log io.Writer
	// Jobs is how many jobs' plans and operands the worker keeps (default
	// 2); the oldest is dropped first.
	Jobs int
}

// Worker takes tasks from TaskStream through the shared durable consumer,
// one at a time, and computes their partial sums on one engine. Build it
// with NewWorker; use it from one goroutine.
type Worker struct {
	js   jetstream.JetStream
	obs  jetstream.ObjectStore
	cons jetstream.Consumer
	e    tf.Engine
	opts WorkerOptions
	jobs []*jobData // most recent last

	// beforeRange, when set, runs inside a task's heartbeat window just
	// before its slices are computed (tests slow a worker down with it).
	beforeRange func(lo, hi int)
	// noHeartbeat stops the heartbeats (tests let a task's AckWait run
	// out with it).
	noHeartbeat bool
}

// jobData is what a worker keeps of one job.
type jobData struct {
	id       string
	plan     *slicing.Plan
	operands []tf.Value
	dst      tf.Value
}

// NewWorker returns a worker that computes on e, creating the streams, the
// bucket and the worker consumer if they are missing (and updating the
// consumer's AckWait and MaxDeliver to opts'). e is used by the worker's
// goroutine only, one task at a time.
func NewWorker(ctx context.Context, js jetstream.JetStream, e tf.Engine, opts WorkerOptions) (*Worker, error) {
	if e == nil {
		return nil, errors.New("distributed.NewWorker: e: expected an engine, got nil")
	}
	if opts.AckWait == 0 {
		opts.AckWait = DefaultAckWait
	}
	if opts.MaxDeliver == 0 {
		opts.MaxDeliver = DefaultMaxDeliver
	}
	if opts.Jobs == 0 {
		opts.Jobs = 2
	}
	switch {
	case opts.AckWait < 100*time.Millisecond:
		return nil, fmt.Errorf("distributed.NewWorker: AckWait: expected at least 100ms, got %v", opts.AckWait)
	case opts.MaxDeliver < 1:
		return nil, fmt.Errorf("distributed.NewWorker: MaxDeliver: expected at least 1, got %d", opts.MaxDeliver)
	case opts.Jobs < 1:
		return nil, fmt.Errorf("distributed.NewWorker: Jobs: expected at least 1, got %d", opts.Jobs)
	}
	if opts.Name == "" {
		host, _ := os.Hostname()
		opts.Name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	obs, err := setup(ctx, js)
	if err != nil {
		return nil, fmt.Errorf("distributed.NewWorker: %v", err)
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, TaskStream, jetstream.ConsumerConfig{
		Durable:     WorkerConsumer,
		Description: "tenferro workers",
		AckPolicy:   jetstream.AckExplicitPolicy,
		AckWait:     opts.AckWait,
		MaxDeliver:  opts.MaxDeliver,
	})
	if err != nil {
		return nil, fmt.Errorf("distributed.NewWorker: consumer %s: %v", WorkerConsumer, err)
	}
	return &Worker{js: js, obs: obs, cons: cons, e: e, opts: opts}, nil
}

// Name returns the worker's name.
func (w *Worker) Name() string { return w.opts.Name }

// Run handles tasks until ctx is done, then returns nil. A task that fails
// is reported to its coordinator and Run goes on; errors of the server
// connection are retried until ctx is done.
func (w *Worker) Run(ctx context.Context) error {
	for ctx.Err() == nil {
		if _, err := w.Once(ctx); err != nil && ctx.Err() == nil {
			var te *TaskError
			if !errors.As(err, &te) {
				w.logf("%v (retrying)", err)
				sleep(ctx, time.Second)
			}
		}
	}
	return nil
}

// Once waits for one task and handles it: it returns the task and nil when
// the task's partial sum is stored and announced, a *TaskError when the
// task failed (it is reported to its coordinator and not delivered again),
// and ctx's error when ctx ends first (a task being computed is handed
// back at once for another worker: see the package documentation).
func (w *Worker) Once(ctx context.Context) (Task, error) {
	for {
		if err := ctx.Err(); err != nil {
			return Task{}, err
		}
		msg, err := w.cons.Next(jetstream.FetchMaxWait(time.Second))
		if errors.Is(err, nats.ErrTimeout) {
			continue
		}
		if err != nil {
			return Task{}, fmt.Errorf("distributed: worker %s: fetching a task: %v", w.opts.Name, err)
		}
		return w.handle(ctx, msg)
	}
}

// TaskError is a task that failed on a worker: its operands could not be
// read, or they do not fit the plan, or the contraction failed.
type TaskError struct {
	Task   Task
	Worker string
	Msg    string
}

func (e *TaskError) Error() string {
	return fmt.Sprintf("distributed: job %s slices [%d, %d) failed on worker %s: %s", e.Task.Job, e.Task.Lo, e.Task.Hi, e.Worker, e.Msg)
}

// handle runs one task message.
func (w *Worker) handle(ctx context.Context, msg jetstream.Msg) (Task, error) {
	t, err := decodeTask(msg.Data())
	if err != nil {
		_ = msg.Term()
		terr := &TaskError{Task: t, Worker: w.opts.Name, Msg: err.Error()}
		if validJob(t.Job) {
			w.publish(ctx, Result{Job: t.Job, Lo: t.Lo, Hi: t.Hi, Status: StatusFailed, Error: err.Error()})
		}
		return t, terr
	}
	start := time.Now()
	obj, err := w.compute(ctx, msg, t)
	if err != nil && ctx.Err() != nil {
		return t, ctx.Err() // handed back
	}
	if err != nil {
		w.publish(ctx, Result{Job: t.Job, Lo: t.Lo, Hi: t.Hi, Status: StatusFailed, Error: err.Error()})
		_ = msg.Term()
		w.logf("job %s slices [%d, %d): failed: %v", t.Job, t.Lo, t.Hi, err)
		return t, &TaskError{Task: t, Worker: w.opts.Name, Msg: err.Error()}
	}
	if err := w.publish(ctx, Result{Job: t.Job, Lo: t.Lo, Hi: t.Hi, Status: StatusDone, Object: obj}); err != nil {
		_ = msg.Nak()
		return t, fmt.Errorf("distributed: worker %s: job %s: announcing slices [%d, %d): %v", w.opts.Name, t.Job, t.Lo, t.Hi, err)
	}
	if err := msg.Ack(); err != nil {
		// The result is announced: a second delivery only makes a
		// duplicate, which the coordinator ignores.
		w.logf("job %s slices [%d, %d): ack: %v", t.Job, t.Lo, t.Hi, err)
	}
	w.logf("job %s slices [%d, %d) done in %v", t.Job, t.Lo, t.Hi, time.Since(start).Round(time.Millisecond))
	return t, nil
}

// compute loads the task's job, computes its partial sum while it keeps
// the message alive with heartbeats, and stores the partial; it returns
// the partial's object. When ctx ends first, the message is handed back
// (Nak) at once and compute returns after the slices in progress.
func (w *Worker) compute(ctx context.Context, msg jetstream.Msg, t Task) (string, error) {
	stop := make(chan struct{})
	beat := make(chan struct{})
	go func() {
		defer close(beat)
		tick := time.NewTicker(min(w.opts.AckWait/4, time.Second))
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				_ = msg.Nak()
				return
			case <-tick.C:
				if !w.noHeartbeat {
					_ = msg.InProgress()
				}
			}
		}
	}()
	defer func() { close(stop); <-beat }()
	job, err := w.job(ctx, t)
	if err != nil {
		return "", err
	}
	if t.Hi > job.plan.Slices {
		return "", fmt.Errorf("slice range [%d, %d) outside the plan's %d slices", t.Lo, t.Hi, job.plan.Slices)
	}
	if w.beforeRange != nil {
		w.beforeRange(t.Lo, t.Hi)
	}
	if err := slicing.ContractRange(w.e, job.plan, t.Lo, t.Hi, job.operands, job.dst); err != nil {
		return "", err
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	var buf bytes.Buffer
	if err := npy.WriteValue(&buf, job.dst); err != nil {
		return "", err
	}
	name := partialObject(t.Job, t.Lo, t.Hi)
	if _, err := w.obs.PutBytes(ctx, name, buf.Bytes()); err != nil {
		return "", fmt.Errorf("storing the partial sum %q: %v", name, err)
	}
	return name, nil
}

// job returns the plan, operands and destination of t's job, from the
// worker's cache or read from the bucket.
func (w *Worker) job(ctx context.Context, t Task) (*jobData, error) {
	for _, j := range w.jobs {
		if j.id == t.Job {
			return j, nil
		}
	}
	j, err := loadJob(ctx, w.obs, t)
	if err != nil {
		return nil, err
	}
	if len(w.jobs) == w.opts.Jobs {
		w.jobs = w.jobs[1:]
	}
	w.jobs = append(w.jobs, j)
	return j, nil
}

// loadJob reads t's plan and operands from obs and checks them.
func loadJob(ctx context.Context, obs jetstream.ObjectStore, t Task) (*jobData, error) {
	data, err := obs.GetBytes(ctx, t.Plan)
	if err != nil {
		return nil, objectError("plan", t.Plan, err)
	}
	p, err := slicing.Read(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("plan %q: %v", t.Plan, err)
	}
	if len(t.Operands) != len(p.Shapes) {
		return nil, fmt.Errorf("task names %d operand objects, the plan has %d operands", len(t.Operands), len(p.Shapes))
	}
	dt, err := tf.ParseDType(p.DType)
	if err != nil {
		return nil, fmt.Errorf("plan %q: %v", t.Plan, err)
	}
	j := &jobData{id: t.Job, plan: p, operands: make([]tf.Value, len(t.Operands))}
	for k, name := range t.Operands {
		if j.operands[k], err = getValue(ctx, obs, name, dt, p.Shapes[k]); err != nil {
			return nil, objectError(fmt.Sprintf("operand %d", k), name, err)
		}
	}
	if err := p.Check(j.operands); err != nil {
		return nil, err
	}
	if j.dst, err = tf.NewValue(dt, p.OutputShape...); err != nil {
		return nil, err
	}
	return j, nil
}

// getValue reads the .npy object name of dtype dt and the given shape
// (what the read may allocate is bounded by that size).
func getValue(ctx context.Context, obs jetstream.ObjectStore, name string, dt tf.DType, shape []int) (tf.Value, error) {
	r, err := obs.Get(ctx, name)
	if err != nil {
		return tf.Value{}, err
	}
	defer r.Close()
	return npy.ReadValue(r, npy.MaxBytes(int64(tf.Numel(shape)*dt.Size())))
}

// publish sends a result message and waits for the stream's ack.
func (w *Worker) publish(ctx context.Context, r Result) error {
	r.Worker = w.opts.Name
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.js.Publish(context.WithoutCancel(ctx), ResultSubjectPrefix+r.Job, data)
	return err
}

func (w *Worker) logf(format string, args ...any) {
	if w.opts.Log != nil {
		fmt.Fprintf(w.opts.Log, "worker %s: %s\n", w.opts.Name, fmt.Sprintf(format, args...))
	}
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
