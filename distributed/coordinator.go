package distributed

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/npy"
	"github.com/tenferro-go/tenferro/slicing"
)

// maxAutoTasks is the number of tasks Contract aims at when
// Options.SlicesPerTask is 0: enough for a few hundred workers to share the
// slices evenly, few enough that the messages and partial sums cost little.
const maxAutoTasks = 256

// maxDeliveriesSubject is where the server announces a task of the worker
// consumer that ran out of deliveries.
const maxDeliveriesSubject = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + TaskStream + "." + WorkerConsumer

// Options configure Contract. The zero value takes the defaults.
type Options struct {
	// SlicesPerTask is the number of consecutive slices in one task (0:
	// ceil(Slices/256), so at most 256 tasks).
	SlicesPerTask int
	// Progress, when set, is called after every new partial sum and once a
	// second, from Contract's goroutine.
	Progress func(Progress)
	// Job is the job id: 1 to 64 letters, digits, '-' or '_' ("": a
	// random one). Two running jobs must not share an id.
	Job string
}

// Progress describes a running job.
type Progress struct {
	Job        string
	Done       int // slices summed
	Total      int // slices of the plan
	Tasks      int // task messages published
	TasksDone  int // tasks whose partial sum is summed
	Duplicates int // results ignored because their range was summed before
	Elapsed    time.Duration
}

// Rate returns the slices summed per second so far (0 before the first).
func (p Progress) Rate() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.Done) / p.Elapsed.Seconds()
}

// ETA estimates the time left at the current rate (-1 before the first
// partial sum).
func (p Progress) ETA() time.Duration {
	r := p.Rate()
	if r == 0 {
		return -1
	}
	return time.Duration(float64(p.Total-p.Done) / r * float64(time.Second))
}

// String formats p as "17/64 slices (26.6%), 3.40 slices/s, ETA 14s".
func (p Progress) String() string {
	pct := 100.0
	if p.Total > 0 {
		pct = 100 * float64(p.Done) / float64(p.Total)
	}
	eta := "ETA ?"
	if d := p.ETA(); d >= 0 {
		eta = "ETA " + d.Round(time.Second).String()
	}
	if p.Done == p.Total {
		eta = "in " + p.Elapsed.Round(time.Millisecond).String()
	}
	return fmt.Sprintf("%d/%d slices (%.1f%%), %.2f slices/s, %s", p.Done, p.Total, pct, p.Rate(), eta)
}

// Contract evaluates the sliced contraction p on operands with the workers
// that listen on js's server, and returns the sum of all slices and the
// final progress.
//
// It uploads the plan and the operands to Bucket under "<job>/", publishes
// one task per range of SlicesPerTask slices to TaskStream, and sums the
// partial sums that workers announce on ResultStream as they arrive, each
// range once (a range announced twice, after a redelivery, counts once).
// It returns when every slice is summed, when a worker reports a failed
// task (a *TaskError), when a task runs out of deliveries, or when ctx
// ends; in every case it removes the job's objects and messages first.
//
// Contract checks the operands against p (slicing.Plan.Check) before it
// sends anything. Workers need not exist when it starts: tasks wait in the
// stream.
func Contract(ctx context.Context, js jetstream.JetStream, p *slicing.Plan, operands []tf.Value, opts Options) (tf.Value, Progress, error) {
	prog := Progress{Job: opts.Job}
	if p == nil {
		return tf.Value{}, prog, errors.New("distributed.Contract: p: expected a plan, got nil")
	}
	if err := p.Check(operands); err != nil {
		return tf.Value{}, prog, fmt.Errorf("distributed.Contract: %w", err)
	}
	n := opts.SlicesPerTask
	switch {
	case n < 0:
		return tf.Value{}, prog, fmt.Errorf("distributed.Contract: SlicesPerTask: expected >= 0, got %d", n)
	case n == 0:
		n = (p.Slices + maxAutoTasks - 1) / maxAutoTasks
	}
	if prog.Job == "" {
		prog.Job = newJobID()
	} else if !validJob(prog.Job) {
		return tf.Value{}, prog, fmt.Errorf("distributed.Contract: Job %q: expected 1 to 64 letters, digits, '-' or '_'", prog.Job)
	}
	red, err := slicing.NewReducer(p)
	if err != nil {
		return tf.Value{}, prog, fmt.Errorf("distributed.Contract: %w", err)
	}
	dt, err := tf.ParseDType(p.DType)
	if err != nil {
		return tf.Value{}, prog, fmt.Errorf("distributed.Contract: %w", err)
	}
	prog.Total = p.Slices
	c := &coordinator{js: js, job: prog.Job, plan: p, dt: dt, prog: prog, red: red, opts: opts,
		ranges: map[[2]int]bool{}, seqs: map[uint64][2]int{}}
	defer c.cleanup(ctx)
	if err := c.run(ctx, p, operands, n); err != nil {
		return tf.Value{}, c.prog, fmt.Errorf("distributed.Contract: job %s: %w", c.job, err)
	}
	res, err := red.Result()
	return res, c.prog, err
}

// coordinator is the state of one Contract call.
type coordinator struct {
	js     jetstream.JetStream
	obs    jetstream.ObjectStore
	job    string
	plan   *slicing.Plan
	dt     tf.DType
	prog   Progress
	red    *slicing.Reducer
	opts   Options
	start  time.Time
	ranges map[[2]int]bool   // task ranges; true once summed
	seqs   map[uint64][2]int // task message sequence -> range
}

func (c *coordinator) run(ctx context.Context, p *slicing.Plan, operands []tf.Value, n int) error {
	var err error
	if c.obs, err = setup(ctx, c.js); err != nil {
		return err
	}
	// Results and exhausted tasks are watched before any task exists.
	results, stopResults, err := c.watchResults(ctx)
	if err != nil {
		return err
	}
	defer stopResults()
	exhausted := make(chan *nats.Msg, 16)
	sub, err := c.js.Conn().ChanSubscribe(maxDeliveriesSubject, exhausted)
	if err != nil {
		return fmt.Errorf("watching exhausted tasks: %v", err)
	}
	defer sub.Unsubscribe()
	c.start = time.Now()
	if err := c.upload(ctx, p, operands); err != nil {
		return err
	}
	if err := c.publishTasks(ctx, p.Slices, n, len(operands)); err != nil {
		return err
	}
	c.report()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for !c.red.Done() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("%v with %d of %d slices summed", context.Cause(ctx), c.prog.Done, c.prog.Total)
		case <-tick.C:
			c.report()
		case m := <-exhausted:
			var adv struct {
				StreamSeq  uint64 `json:"stream_seq"`
				Deliveries uint64 `json:"deliveries"`
			}
			if json.Unmarshal(m.Data, &adv) == nil {
				if r, ok := c.seqs[adv.StreamSeq]; ok && !c.ranges[r] {
					return fmt.Errorf("slices [%d, %d) were delivered %d times without a result (the workers that took them stopped, or ran out of AckWait)", r[0], r[1], adv.Deliveries)
				}
			}
		case m, ok := <-results:
			if !ok {
				return errors.New("the result consumer stopped")
			}
			if err := c.result(ctx, m); err != nil {
				return err
			}
		}
	}
	c.report()
	return nil
}

// upload stores the plan and the operands.
func (c *coordinator) upload(ctx context.Context, p *slicing.Plan, operands []tf.Value) error {
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return fmt.Errorf("writing the plan: %v", err)
	}
	if _, err := c.obs.PutBytes(ctx, planObject(c.job), buf.Bytes()); err != nil {
		return fmt.Errorf("storing the plan: %v", err)
	}
	for k, v := range operands {
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(npy.WriteValue(pw, v)) }()
		_, err := c.obs.Put(ctx, jetstream.ObjectMeta{Name: operandObject(c.job, k)}, pr)
		pr.CloseWithError(errors.New("upload ended")) // stops the writer if Put failed
		if err != nil {
			return fmt.Errorf("storing operand %d: %v", k, err)
		}
	}
	return nil
}

// publishTasks publishes one task per range of n slices.
func (c *coordinator) publishTasks(ctx context.Context, slices, n, operands int) error {
	names := make([]string, operands)
	for k := range names {
		names[k] = operandObject(c.job, k)
	}
	for lo := 0; lo < slices; lo += n {
		hi := min(lo+n, slices)
		data, err := json.Marshal(Task{Job: c.job, Lo: lo, Hi: hi, Plan: planObject(c.job), Operands: names})
		if err != nil {
			return err
		}
		ack, err := c.js.Publish(ctx, TaskSubjectPrefix+c.job, data)
		if err != nil {
			return fmt.Errorf("publishing the task for slices [%d, %d): %v", lo, hi, err)
		}
		c.ranges[[2]int{lo, hi}] = false
		c.seqs[ack.Sequence] = [2]int{lo, hi}
		c.prog.Tasks++
	}
	return nil
}

// watchResults delivers the job's result messages on a channel until stop
// is called.
func (c *coordinator) watchResults(ctx context.Context) (<-chan jetstream.Msg, func(), error) {
	cons, err := c.js.OrderedConsumer(ctx, ResultStream, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{ResultSubjectPrefix + c.job}})
	if err != nil {
		return nil, nil, fmt.Errorf("watching results: %v", err)
	}
	it, err := cons.Messages()
	if err != nil {
		return nil, nil, fmt.Errorf("watching results: %v", err)
	}
	ch := make(chan jetstream.Msg)
	done := make(chan struct{})
	go func() {
		defer close(ch)
		for {
			m, err := it.Next()
			if err != nil {
				return
			}
			select {
			case ch <- m:
			case <-done:
				return
			}
		}
	}()
	return ch, func() { close(done); it.Stop() }, nil
}

// result handles one result message.
func (c *coordinator) result(ctx context.Context, m jetstream.Msg) error {
	r, err := decodeResult(m.Data())
	if err != nil {
		return err
	}
	key := [2]int{r.Lo, r.Hi}
	summed, ok := c.ranges[key]
	switch {
	case r.Job != c.job || !ok:
		return fmt.Errorf("worker %s announced slices [%d, %d) of job %s, which is no task of this job", r.Worker, r.Lo, r.Hi, r.Job)
	case r.Status == StatusFailed:
		return &TaskError{Task: Task{Job: r.Job, Lo: r.Lo, Hi: r.Hi}, Worker: r.Worker, Msg: r.Error}
	case r.Object != partialObject(c.job, r.Lo, r.Hi):
		return fmt.Errorf("worker %s announced slices [%d, %d) in object %q, expected %q", r.Worker, r.Lo, r.Hi, r.Object, partialObject(c.job, r.Lo, r.Hi))
	case summed:
		c.prog.Duplicates++
		_ = c.obs.Delete(ctx, r.Object)
		return nil
	}
	v, err := getValue(ctx, c.obs, r.Object, c.dt, c.plan.OutputShape)
	if err != nil {
		return objectError(fmt.Sprintf("partial sum of slices [%d, %d) from worker %s", r.Lo, r.Hi, r.Worker), r.Object, err)
	}
	added, err := c.red.Add(r.Lo, r.Hi, v)
	if err != nil {
		return fmt.Errorf("partial sum of slices [%d, %d) from worker %s: %v", r.Lo, r.Hi, r.Worker, err)
	}
	if !added {
		c.prog.Duplicates++
	} else {
		c.prog.TasksDone++
	}
	c.ranges[key] = true
	_ = c.obs.Delete(ctx, r.Object)
	c.prog.Done, _ = c.red.Progress()
	c.report()
	return nil
}

// report updates the elapsed time and calls the progress callback.
func (c *coordinator) report() {
	c.prog.Elapsed = time.Since(c.start)
	if c.opts.Progress != nil {
		c.opts.Progress(c.prog)
	}
}

// cleanup removes the job's tasks (those still waiting after a failure),
// results and objects.
func (c *coordinator) cleanup(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	for stream, subject := range map[string]string{TaskStream: TaskSubjectPrefix + c.job, ResultStream: ResultSubjectPrefix + c.job} {
		if s, err := c.js.Stream(ctx, stream); err == nil {
			_ = s.Purge(ctx, jetstream.WithPurgeSubject(subject))
		}
	}
	if c.obs == nil {
		return
	}
	infos, _ := c.obs.List(ctx)
	for _, info := range infos {
		if strings.HasPrefix(info.Name, c.job+"/") {
			_ = c.obs.Delete(ctx, info.Name)
		}
	}
}

// newJobID returns 16 random hex digits.
func newJobID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
