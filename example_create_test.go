package tenferro_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	tf "github.com/tenferro-go/tenferro"
)

func ExampleEye() {
	x, _ := tf.Eye[float64](2, 3)
	d, _ := x.Data() // column-major: columns (1,0), (0,1), (0,0)
	fmt.Println(x.Shape(), d)
	// Output: [2 3] [1 0 0 1 0 0]
}

func ExampleEyeK() {
	// Ones on the first superdiagonal: element (i, i+1).
	x, _ := tf.EyeK[float64](3, 3, 1)
	for i := range 3 {
		a, _ := x.At(i, 0)
		b, _ := x.At(i, 1)
		c, _ := x.At(i, 2)
		fmt.Println(a, b, c)
	}
	// Output:
	// 0 1 0
	// 0 0 1
	// 0 0 0
}

func ExampleIdentity() {
	x, _ := tf.Identity[complex128](2)
	d, _ := x.Data()
	fmt.Println(d)
	// Output: [(1+0i) (0+0i) (0+0i) (1+0i)]
}

func ExampleArange() {
	a, _ := tf.Arange[float64](0, 1, 0.25)
	b, _ := tf.Arange[float64](5, 1, -1.5)
	c, _ := tf.Arange[float64](1, 1, 1) // empty interval
	da, _ := a.Data()
	db, _ := b.Data()
	fmt.Println(da, db, c.Shape())
	// Output: [0 0.25 0.5 0.75] [5 3.5 2] [0]
}

func ExampleArangeN() {
	idx, _ := tf.ArangeN[int64](5)
	d, _ := idx.Data()
	fmt.Println(d)
	// Output: [0 1 2 3 4]
}

func ExampleLinspace() {
	a, _ := tf.Linspace[float64](0, 1, 5, true)
	b, _ := tf.Linspace[float64](0, 1, 5, false)
	da, _ := a.Data()
	db, _ := b.Data()
	fmt.Println(da)
	fmt.Println(db)
	// Output:
	// [0 0.25 0.5 0.75 1]
	// [0 0.2 0.4 0.6000000000000001 0.8]
}

func ExampleLogspace() {
	a, _ := tf.Logspace[float64](0, 3, 4, true, 10)
	b, _ := tf.Logspace[float32](0, 4, 4, false, 2)
	da, _ := a.Data()
	db, _ := b.Data()
	fmt.Println(da, db)
	// Output: [1 10 100 1000] [1 2 4 8]
}

func ExampleRand() {
	x, _ := tf.Rand[float64](1, 2, 2)
	d, _ := x.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.7880 0.5244 0.3918 0.9718]
}

func ExampleFillRand() {
	// The stream of Rand(1, ...), continued across two buffers.
	r := rand.New(rand.NewPCG(1, 0x74656e66))
	a, b := make([]float64, 2), make([]float64, 2)
	tf.FillRand(r, a)
	tf.FillRand(r, b)
	fmt.Printf("%.4f %.4f\n", a, b)
	// Output: [0.7880 0.5244] [0.3918 0.9718]
}

func ExampleRandN() {
	x, _ := tf.RandN[float64](1, 4)
	d, _ := x.Data()
	fmt.Printf("%.4f\n", d)
	// A complex element takes two draws, each scaled by √½.
	z, _ := tf.RandN[complex128](1, 1)
	v, _ := z.At(0)
	fmt.Printf("%.4f %.4f\n", real(v)*math.Sqrt2, imag(v)*math.Sqrt2)
	// Output:
	// [0.7054 -0.8449 -1.1642 -1.4708]
	// 0.7054 -0.8449
}

func ExampleFillRandN() {
	r := rand.New(rand.NewPCG(1, 0x74656e66))
	buf := make([]float32, 3)
	tf.FillRandN(r, buf)
	fmt.Printf("%.4f\n", buf)
	// Output: [0.7054 -0.8449 -1.1642]
}

func ExampleRandUniform() {
	// The draws of Rand(1, 4) mapped to [-1, 1).
	x, _ := tf.RandUniform[float64](1, -1, 1, 4)
	d, _ := x.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.5761 0.0488 -0.2163 0.9437]
}

func ExampleFromStrided() {
	// A row-major 2×3 matrix stored with a row stride of 4 (one padding
	// element after each row), viewed without copying.
	data := []float64{1, 2, 3, 0, 4, 5, 6}
	x, _ := tf.FromStrided(data, 0, []int{2, 3}, []int{4, 1})
	v, _ := x.At(1, 2)
	fmt.Println(x.Shape(), v, x.IsCompact())
	// Output: [2 3] 6 false
}
