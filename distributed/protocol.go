package distributed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The JetStream resources every coordinator and worker share. A server may
// serve several coordinators and any number of workers at once: jobs are
// told apart by their id, which is a token of every subject and the
// folder of every object of the job.
const (
	// Bucket is the object store that holds plans, operands and partial
	// sums, under "<job>/".
	Bucket = "tenferro"
	// TaskStream is the work-queue stream of task messages, one subject
	// per job (TaskSubjectPrefix + job).
	TaskStream = "TENFERRO_TASKS"
	// ResultStream is the stream of done and failed messages, one subject
	// per job (ResultSubjectPrefix + job).
	ResultStream = "TENFERRO_RESULTS"
	// WorkerConsumer is the durable pull consumer of TaskStream that all
	// workers share: each task goes to one worker at a time.
	WorkerConsumer = "tenferro-workers"

	// TaskSubjectPrefix + job is the subject of a job's tasks.
	TaskSubjectPrefix = "tenferro.tasks."
	// ResultSubjectPrefix + job is the subject of a job's results.
	ResultSubjectPrefix = "tenferro.results."
)

// Defaults of the worker consumer (see WorkerOptions).
const (
	DefaultAckWait    = 30 * time.Second
	DefaultMaxDeliver = 5
)

// resultMaxAge bounds how long unread result messages stay in
// ResultStream (those of a coordinator that is gone).
const resultMaxAge = 24 * time.Hour

// Task is the message that asks a worker for the partial sum of slices
// Lo..Hi-1 of a job. It names objects of Bucket and never holds tensor
// data.
type Task struct {
	Job      string   `json:"job"`
	Lo       int      `json:"lo"`
	Hi       int      `json:"hi"`
	Plan     string   `json:"plan"`     // object holding the plan (JSON)
	Operands []string `json:"operands"` // objects holding the operands (.npy)
}

// Result statuses.
const (
	StatusDone   = "done"
	StatusFailed = "failed"
)

// Result is a worker's answer to a Task: the object holding the partial sum
// (.npy) when Status is StatusDone, the reason when it is StatusFailed.
type Result struct {
	Job    string `json:"job"`
	Lo     int    `json:"lo"`
	Hi     int    `json:"hi"`
	Status string `json:"status"`
	Object string `json:"object,omitempty"`
	Error  string `json:"error,omitempty"`
	Worker string `json:"worker,omitempty"`
}

// validJob reports whether job can be a subject token and an object folder:
// 1 to 64 characters among letters, digits, '-' and '_'.
func validJob(job string) bool {
	if job == "" || len(job) > 64 {
		return false
	}
	for _, r := range job {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_'
		if !ok {
			return false
		}
	}
	return true
}

// decodeTask parses and validates a task message.
func decodeTask(data []byte) (Task, error) {
	var t Task
	if err := json.Unmarshal(data, &t); err != nil {
		return t, fmt.Errorf("task message: %v", err)
	}
	switch {
	case !validJob(t.Job):
		return t, fmt.Errorf("task message: job %q: expected 1 to 64 letters, digits, '-' or '_'", t.Job)
	case t.Lo < 0 || t.Hi <= t.Lo:
		return t, fmt.Errorf("task message: slice range [%d, %d): expected 0 <= lo < hi", t.Lo, t.Hi)
	case t.Plan == "":
		return t, errors.New("task message: no plan object")
	}
	return t, nil
}

// decodeResult parses and validates a result message.
func decodeResult(data []byte) (Result, error) {
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("result message: %v", err)
	}
	switch {
	case r.Status != StatusDone && r.Status != StatusFailed:
		return r, fmt.Errorf("result message: status %q: expected %q or %q", r.Status, StatusDone, StatusFailed)
	case r.Status == StatusDone && r.Object == "":
		return r, errors.New("result message: done without an object")
	}
	return r, nil
}

// Object names of a job.
func planObject(job string) string           { return job + "/plan.json" }
func operandObject(job string, k int) string { return fmt.Sprintf("%s/operand-%d.npy", job, k) }
func partialObject(job string, lo, hi int) string {
	return fmt.Sprintf("%s/partial-%d-%d.npy", job, lo, hi)
}

// Connect dials the NATS server at url, bounding the dial and the
// handshake by timeout (<= 0: 5 s), and checks that the server has
// JetStream. It makes one attempt: an unreachable server is an error at
// once, not a retry loop. Once connected, the connection reconnects on its
// own (every 2 s, without bound) when the server goes away. name labels
// the connection in the server's monitoring.
func Connect(ctx context.Context, url, name string, timeout time.Duration) (*nats.Conn, jetstream.JetStream, error) {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	nc, err := nats.Connect(url, nats.Name(name), nats.Timeout(timeout),
		nats.MaxReconnects(-1), nats.ReconnectWait(2*time.Second))
	if err != nil {
		return nil, nil, fmt.Errorf("cannot connect to NATS at %s: %v", url, err)
	}
	js, err := jetstream.New(nc)
	if err == nil {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		_, err = js.AccountInfo(ctx)
		cancel()
	}
	if err != nil {
		nc.Close()
		if errors.Is(err, jetstream.ErrJetStreamNotEnabled) || errors.Is(err, jetstream.ErrJetStreamNotEnabledForAccount) {
			return nil, nil, fmt.Errorf("NATS at %s has no JetStream (start the server with -js): %v", url, err)
		}
		return nil, nil, fmt.Errorf("NATS at %s: JetStream does not answer: %v", url, err)
	}
	return nc, js, nil
}

// setup creates the bucket and the two streams if they are missing and
// returns the bucket.
func setup(ctx context.Context, js jetstream.JetStream) (jetstream.ObjectStore, error) {
	streams := []jetstream.StreamConfig{
		{Name: TaskStream, Subjects: []string{TaskSubjectPrefix + "*"}, Retention: jetstream.WorkQueuePolicy,
			Description: "tenferro sliced contraction tasks"},
		{Name: ResultStream, Subjects: []string{ResultSubjectPrefix + "*"}, MaxAge: resultMaxAge,
			Description: "tenferro sliced contraction results"},
	}
	for _, cfg := range streams {
		if _, err := js.Stream(ctx, cfg.Name); err == nil {
			continue
		} else if !errors.Is(err, jetstream.ErrStreamNotFound) {
			return nil, fmt.Errorf("stream %s: %v", cfg.Name, err)
		}
		if _, err := js.CreateStream(ctx, cfg); err != nil && !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			return nil, fmt.Errorf("creating stream %s: %v", cfg.Name, err)
		}
	}
	obs, err := js.ObjectStore(ctx, Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		obs, err = js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: Bucket,
			Description: "tenferro plans, operands and partial sums"})
		if errors.Is(err, jetstream.ErrBucketExists) {
			obs, err = js.ObjectStore(ctx, Bucket)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("object store %s: %v", Bucket, err)
	}
	return obs, nil
}

// errObjectMissing marks an object that is not in the bucket.
var errObjectMissing = errors.New("not in the object store")

// objectError names the object of a failed read.
func objectError(what, name string, err error) error {
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return fmt.Errorf("%s: object %q %w %s", what, name, errObjectMissing, Bucket)
	}
	return fmt.Errorf("%s: object %q: %v", what, name, err)
}
