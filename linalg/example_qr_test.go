package linalg_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
)

// tall is the 3×2 matrix [[3, 1], [4, 2], [0, 5]] (column-major).
func tall() *tf.Tensor[float64] {
	a, _ := tf.FromSlice([]float64{3, 4, 0, 1, 2, 5}, 3, 2)
	return a
}

func ExampleQR() {
	e := cpu.Serial()
	defer e.Close()
	q, r, _ := linalg.QR(e, tall(), linalg.PositiveDiagonal)
	show(q) // orthonormal columns
	show(r) // upper triangular, positive diagonal
	qc, rc, _ := linalg.QR(e, tall(), linalg.Complete)
	fmt.Println(qc.Shape(), rc.Shape())
	// Output:
	// [3 2]: 0.6 0.8 0 -0.0638 0.04785 0.9968
	// [2 2]: 5 0 2.2 5.016
	// [3 3] [3 2]
}

func ExampleQRInto() {
	e := cpu.Serial()
	defer e.Close()
	r, _ := tf.Zeros[float64](2, 2)
	_ = linalg.QRInto(e, nil, r, tall(), linalg.PositiveDiagonal) // R alone
	show(r)
	// Output:
	// [2 2]: 5 0 2.2 5.016
}

func ExampleLQ() {
	e := cpu.Serial()
	defer e.Close()
	at, _ := tall().Transpose() // 2×3
	l, q, _ := linalg.LQ(e, at, linalg.PositiveDiagonal)
	show(l) // Rᵀ of the QR example
	show(q)
	// Output:
	// [2 2]: 5 2.2 0 5.016
	// [2 3]: 0.6 -0.0638 0.8 0.04785 0 0.9968
}

func ExampleLQInto() {
	e := cpu.Serial()
	defer e.Close()
	at, _ := tall().Transpose()
	l, _ := tf.Zeros[float64](2, 3)
	q, _ := tf.Zeros[float64](3, 3)
	_ = linalg.LQInto(e, l, q, at) // complete: the shapes choose the mode
	fmt.Println(l.Shape(), q.Shape())
	// Output:
	// [2 3] [3 3]
}
