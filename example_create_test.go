package tenferro_test

import (
	"fmt"

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
