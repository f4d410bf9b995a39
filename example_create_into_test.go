package tenferro_test

import (
	"fmt"
	"math/rand/v2"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

func ExampleFillInto() {
	e := cpu.Serial()
	defer e.Close()
	// A destination from the engine's pool holds leftovers until written.
	x, _ := tf.NewTensor[float64](e, 2, 3)
	defer x.Release()
	tf.FillInto(e, x, 0) // the Into form of Zeros
	col, _ := x.Slice(1, 1, 2, 1)
	tf.FillInto(e, col, 7) // any view with distinct elements
	d, _ := x.Data()
	fmt.Println(d)
	// Output: [0 0 7 7 0 0]
}

func ExampleEyeInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.NewTensor[float64](e, 3, 3)
	defer x.Release()
	tf.EyeInto(e, x, -1) // ones below the main diagonal, as EyeK(3, 3, -1)
	for i := range 3 {
		a, _ := x.At(i, 0)
		b, _ := x.At(i, 1)
		c, _ := x.At(i, 2)
		fmt.Println(a, b, c)
	}
	// Output:
	// 0 0 0
	// 1 0 0
	// 0 1 0
}

func ExampleArangeInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.NewTensor[float64](e, 4)
	defer x.Release()
	tf.ArangeInto(e, x, 5, -1.5) // Arange(5, -1, -1.5) has 4 elements
	d, _ := x.Data()
	fmt.Println(d)
	// Output: [5 3.5 2 0.5]
}

func ExampleLinspaceInto() {
	e := cpu.Serial()
	defer e.Close()
	// One pooled buffer, refilled in a loop without allocation.
	x, _ := tf.NewTensor[float64](e, 5)
	defer x.Release()
	for _, stop := range []float64{1, 2} {
		tf.LinspaceInto(e, x, 0, stop, true)
		d, _ := x.Data()
		fmt.Println(d)
	}
	// A reversed view receives the values in its own element order.
	r, _ := x.Reverse(0)
	tf.LinspaceInto(e, r, 0, 1, true)
	d, _ := x.Data()
	fmt.Println(d)
	// Output:
	// [0 0.25 0.5 0.75 1]
	// [0 0.5 1 1.5 2]
	// [1 0.75 0.5 0.25 0]
}

func ExampleLogspaceInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.NewTensor[float32](e, 4)
	defer x.Release()
	tf.LogspaceInto(e, x, 0, 3, true, 10)
	d, _ := x.Data()
	fmt.Println(d)
	// Output: [1 10 100 1000]
}

func ExampleRandInto() {
	e := cpu.Serial()
	defer e.Close()
	// The generator of Rand(1, ...): the same values as Rand(1, 2, 2).
	r := rand.New(rand.NewPCG(1, 0x74656e66))
	x, _ := tf.NewTensor[float64](e, 2, 2)
	defer x.Release()
	tf.RandInto(e, x, r)
	d, _ := x.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.7880 0.5244 0.3918 0.9718]
}

func ExampleRandNInto() {
	e := cpu.Serial()
	defer e.Close()
	r := rand.New(rand.NewPCG(1, 0x74656e66))
	x, _ := tf.NewTensor[float64](e, 2)
	defer x.Release()
	// Each call continues the stream: together they give RandN(1, 4).
	for range 2 {
		tf.RandNInto(e, x, r)
		d, _ := x.Data()
		fmt.Printf("%.4f\n", d)
	}
	// Output:
	// [0.7054 -0.8449]
	// [-1.1642 -1.4708]
}

func ExampleRandUniformInto() {
	e := cpu.Serial()
	defer e.Close()
	// The draws of Rand(1, 4) mapped to [-1, 1), as RandUniform(1, -1, 1, 4).
	r := rand.New(rand.NewPCG(1, 0x74656e66))
	x, _ := tf.NewTensor[float64](e, 4)
	defer x.Release()
	tf.RandUniformInto(e, x, r, -1, 1)
	d, _ := x.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.5761 0.0488 -0.2163 0.9437]
}
