package distributed_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/distributed"
	"github.com/tenferro-go/tenferro/slicing"
)

// Example starts a NATS server with JetStream inside the program, runs one
// worker next to the coordinator, and evaluates a sliced matrix product:
// the worker computes the slices, the coordinator sums them.
func Example() {
	dir, _ := os.MkdirTemp("", "nats")
	defer os.RemoveAll(dir)
	srv, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: dir, NoLog: true, NoSigs: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	go srv.Start()
	defer srv.Shutdown()
	if !srv.ReadyForConnections(10 * time.Second) {
		fmt.Println("the server did not start")
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	nc, js, err := distributed.Connect(ctx, srv.ClientURL(), "example", time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer nc.Close()

	// A worker; a real deployment runs `tenferro worker` on other machines.
	w, err := distributed.NewWorker(ctx, js, cpu.Serial(), distributed.WorkerOptions{Name: "w0"})
	if err != nil {
		fmt.Println(err)
		return
	}
	go w.Run(ctx)

	// D = A·B·C, planned so that one slice's intermediates take at most
	// half of what the unsliced evaluation needs: each slice fixes a
	// contracted label, and the sum of the slices is the product.
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := tf.FromRowMajor([]float64{1, 0, 0, 1, 1, 1, 2, 0, 1, 0, 0, 1}, 3, 4)
	c, _ := tf.FromRowMajor([]float64{1, 0, 0, 1, 1, 1, 1, -1}, 4, 2)
	operands := []tf.Value{tf.ValueOf(a), tf.ValueOf(b), tf.ValueOf(c)}
	subscripts, shapes := "ij,jk,kl->il", [][]int{{2, 3}, {3, 4}, {4, 2}}
	whole, err := slicing.New(tf.Float64, subscripts, shapes, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := slicing.New(tf.Float64, subscripts, shapes, whole.SlicePeakBytes/2)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, prog, err := distributed.Contract(ctx, js, p, operands, distributed.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("slices summed:", prog.Done == p.Slices, "sliced:", p.Slices > 1)
	fmt.Println(res)
	// Output:
	// slices summed: true sliced: true
	// Tensor[f64] (2, 2)
	// [[14  2]
	//  [35  5]]
}

// ExampleProgress shows the line that tenferro contract prints while a job
// runs.
func ExampleProgress() {
	p := distributed.Progress{Done: 16, Total: 64, Elapsed: 5 * time.Second}
	fmt.Println(p)
	fmt.Println(p.Rate(), p.ETA())
	p.Done = 64
	fmt.Println(p)
	// Output:
	// 16/64 slices (25.0%), 3.20 slices/s, ETA 15s
	// 3.2 15s
	// 64/64 slices (100.0%), 12.80 slices/s, in 5s
}
