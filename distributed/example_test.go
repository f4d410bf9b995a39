package distributed_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/distributed"
	"github.com/tenferro-go/tenferro/slicing"
)

// startServer starts a NATS server with JetStream inside the program, on
// a free loopback port, and returns its URL and a function that stops it.
// A deployment runs nats-server -js instead (docs/distributed.md).
func startServer() (string, func(), error) {
	dir, err := os.MkdirTemp("", "nats")
	if err != nil {
		return "", nil, err
	}
	srv, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: dir, NoLog: true, NoSigs: true})
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	go srv.Start()
	stop := func() { srv.Shutdown(); srv.WaitForShutdown(); os.RemoveAll(dir) }
	if !srv.ReadyForConnections(10 * time.Second) {
		stop()
		return "", nil, fmt.Errorf("the server did not start")
	}
	return srv.ClientURL(), stop, nil
}

// chain returns the operands and a sliced plan of D = A·B·C, planned so
// that one slice's intermediates take at most half of what the unsliced
// evaluation needs: each slice fixes a contracted label, and the sum of
// the slices is the product.
func chain() ([]tf.Value, *slicing.Plan, error) {
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := tf.FromRowMajor([]float64{1, 0, 0, 1, 1, 1, 2, 0, 1, 0, 0, 1}, 3, 4)
	c, _ := tf.FromRowMajor([]float64{1, 0, 0, 1, 1, 1, 1, -1}, 4, 2)
	operands := []tf.Value{tf.ValueOf(a), tf.ValueOf(b), tf.ValueOf(c)}
	subscripts, shapes := "ij,jk,kl->il", [][]int{{2, 3}, {3, 4}, {4, 2}}
	whole, err := slicing.New(tf.Float64, subscripts, shapes, 0)
	if err != nil {
		return nil, nil, err
	}
	p, err := slicing.New(tf.Float64, subscripts, shapes, whole.SlicePeakBytes/2)
	return operands, p, err
}

// Example runs a coordinator and one worker in one program: the worker
// computes the slices, the coordinator sums them.
func Example() {
	url, stop, err := startServer()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	nc, js, err := distributed.Connect(ctx, url, "example", time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer nc.Close()

	// A worker; a deployment runs `tenferro worker` on other machines.
	w, err := distributed.NewWorker(ctx, js, cpu.Serial(), distributed.WorkerOptions{Name: "w0"})
	if err != nil {
		fmt.Println(err)
		return
	}
	go w.Run(ctx)

	operands, p, err := chain()
	if err != nil {
		fmt.Println(err)
		return
	}
	res, prog, err := distributed.Contract(ctx, js, p, operands, distributed.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("sliced:", p.Slices > 1, "every slice summed:", prog.Done == p.Slices)
	fmt.Println(res)
	// Output:
	// sliced: true every slice summed: true
	// Tensor[f64] (2, 2)
	// [[14  2]
	//  [35  5]]
}

// withServer runs f with a connection to a fresh server.
func withServer(f func(ctx context.Context, js jetstream.JetStream)) {
	url, stop, err := startServer()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()
	nc, js, err := distributed.Connect(context.Background(), url, "example", time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer nc.Close()
	f(context.Background(), js)
}

// ExampleConnect connects to a server with JetStream, and fails at once
// where nothing listens.
func ExampleConnect() {
	url, stop, err := startServer()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()
	nc, _, err := distributed.Connect(context.Background(), url, "example", time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("connected:", nc.IsConnected())
	nc.Close()

	_, _, err = distributed.Connect(context.Background(), "nats://127.0.0.1:1", "example", time.Second)
	fmt.Println(strings.HasPrefix(err.Error(), "cannot connect to NATS at nats://127.0.0.1:1"))
	// Output:
	// connected: true
	// true
}

// ExampleContract evaluates a sliced contraction with a worker that
// handles two tasks and stops.
func ExampleContract() {
	withServer(func(ctx context.Context, js jetstream.JetStream) {
		operands, p, err := chain()
		if err != nil {
			fmt.Println(err)
			return
		}
		w, err := distributed.NewWorker(ctx, js, cpu.Serial(), distributed.WorkerOptions{})
		if err != nil {
			fmt.Println(err)
			return
		}
		per := (p.Slices + 1) / 2 // two tasks
		go func() {
			for range 2 {
				w.Once(ctx)
			}
		}()
		res, prog, err := distributed.Contract(ctx, js, p, operands, distributed.Options{SlicesPerTask: per})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("tasks:", prog.Tasks, "done:", prog.TasksDone)
		fmt.Println(res)
	})
	// Output:
	// tasks: 2 done: 2
	// Tensor[f64] (2, 2)
	// [[14  2]
	//  [35  5]]
}

// ExampleNewWorker makes a worker; the first one creates the streams,
// the bucket and the shared consumer.
func ExampleNewWorker() {
	withServer(func(ctx context.Context, js jetstream.JetStream) {
		_, err := distributed.NewWorker(ctx, js, cpu.Serial(), distributed.WorkerOptions{AckWait: 10 * time.Second})
		if err != nil {
			fmt.Println(err)
			return
		}
		c, err := js.Consumer(ctx, distributed.TaskStream, distributed.WorkerConsumer)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(c.CachedInfo().Config.AckWait, c.CachedInfo().Config.MaxDeliver)

		_, err = distributed.NewWorker(ctx, js, cpu.Serial(), distributed.WorkerOptions{MaxDeliver: -1})
		fmt.Println(err)
	})
	// Output:
	// 10s 5
	// distributed.NewWorker: MaxDeliver: expected at least 1, got -1
}

// ExampleWorker_Name shows a worker's name in its results.
func ExampleWorker_Name() {
	withServer(func(ctx context.Context, js jetstream.JetStream) {
		w, err := distributed.NewWorker(ctx, js, cpu.Serial(), distributed.WorkerOptions{Name: "gpu-node-3"})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(w.Name())
	})
	// Output:
	// gpu-node-3
}

// ExampleWorker_Once handles one task of a job.
func ExampleWorker_Once() {
	withServer(func(ctx context.Context, js jetstream.JetStream) {
		operands, p, err := chain()
		if err != nil {
			fmt.Println(err)
			return
		}
		w, err := distributed.NewWorker(ctx, js, cpu.Serial(), distributed.WorkerOptions{})
		if err != nil {
			fmt.Println(err)
			return
		}
		done := make(chan error)
		go func() {
			_, _, err := distributed.Contract(ctx, js, p, operands, distributed.Options{SlicesPerTask: p.Slices})
			done <- err
		}()
		t, err := w.Once(ctx)
		fmt.Println(t.Lo, t.Hi == p.Slices, err, <-done)
	})
	// Output:
	// 0 true <nil> <nil>
}

// ExampleWorker_Run handles tasks until its context ends.
func ExampleWorker_Run() {
	withServer(func(ctx context.Context, js jetstream.JetStream) {
		operands, p, err := chain()
		if err != nil {
			fmt.Println(err)
			return
		}
		w, err := distributed.NewWorker(ctx, js, cpu.Serial(), distributed.WorkerOptions{})
		if err != nil {
			fmt.Println(err)
			return
		}
		wctx, stop := context.WithCancel(ctx)
		stopped := make(chan error)
		go func() { stopped <- w.Run(wctx) }()
		_, prog, err := distributed.Contract(ctx, js, p, operands, distributed.Options{SlicesPerTask: 1})
		fmt.Println(prog.Done == p.Slices, err)
		stop()
		fmt.Println(<-stopped)
	})
	// Output:
	// true <nil>
	// <nil>
}

// ExampleTaskError_Error shows how a failed task reads.
func ExampleTaskError_Error() {
	err := &distributed.TaskError{Task: distributed.Task{Job: "4f2a", Lo: 8, Hi: 12}, Worker: "w1",
		Msg: `operand 1: object "4f2a/operand-1.npy" not in the object store tenferro`}
	fmt.Println(err)
	// Output:
	// distributed: job 4f2a slices [8, 12) failed on worker w1: operand 1: object "4f2a/operand-1.npy" not in the object store tenferro
}

// ExampleProgress_String shows the line that tenferro contract prints
// while a job runs, and once it is done.
func ExampleProgress_String() {
	p := distributed.Progress{Done: 16, Total: 64, Elapsed: 5 * time.Second}
	fmt.Println(p)
	p.Done = 64
	fmt.Println(p)
	// Output:
	// 16/64 slices (25.0%), 3.20 slices/s, ETA 15s
	// 64/64 slices (100.0%), 12.80 slices/s, in 5s
}

// ExampleProgress_Rate gives the slices summed per second.
func ExampleProgress_Rate() {
	fmt.Println(distributed.Progress{Done: 16, Total: 64, Elapsed: 5 * time.Second}.Rate())
	fmt.Println(distributed.Progress{Total: 64}.Rate())
	// Output:
	// 3.2
	// 0
}

// ExampleProgress_ETA estimates the time left at the rate so far.
func ExampleProgress_ETA() {
	fmt.Println(distributed.Progress{Done: 16, Total: 64, Elapsed: 5 * time.Second}.ETA())
	fmt.Println(distributed.Progress{Total: 64}.ETA()) // no slice summed yet
	// Output:
	// 15s
	// -1ns
}
