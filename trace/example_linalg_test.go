package trace_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
	"github.com/tenferro-go/tenferro/trace"
)

// Matrices are the first two axes, batch axes follow; the singular values
// are real.
func ExampleTrace_SVD() {
	tr := trace.New()
	a, _ := tr.Input(tf.Complex128, 5, 3, 7) // seven 5×3 matrices
	u, s, vh, _ := tr.SVD(a)
	fmt.Println(u.Shape(), s.DType(), s.Shape(), vh.Shape())
	// Output: [5 3 7] f64 [3 7] [3 3 7]
}

func ExampleTrace_SVDVals() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float32, 4, 6)
	s, _ := tr.SVDVals(a)
	fmt.Println(s.DType(), s.Shape())
	// Output: f32 [4]
}

// The first k singular triplets; k beyond min(m, n) is refused.
func ExampleTrace_TruncatedSVD() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 8, 6)
	u, s, vh, _ := tr.TruncatedSVD(a, 2)
	_, _, _, err := tr.TruncatedSVD(a, 7)
	fmt.Println(u.Shape(), s.Shape(), vh.Shape())
	fmt.Println(err)
	// Output:
	// [8 2] [2] [2 6]
	// tenferro: TruncatedSVD: k: invalid argument: expected a rank in [0, 6], got 7
}

// The reduced factors: q is m×k and r is k×n, k = min(m, n).
func ExampleTrace_QR() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 5, 3)
	q, r, _ := tr.QR(a, true)
	fmt.Println(q.Shape(), r.Shape())
	// Output: [5 3] [3 3]
}

// The reduced factors: l is m×k and q is k×n, k = min(m, n).
func ExampleTrace_LQ() {
	tr := trace.New()
	a, _ := tr.Input(tf.Complex64, 3, 5)
	l, q, _ := tr.LQ(a, false)
	fmt.Println(l.Shape(), q.Shape(), q.DType())
	// Output: [3 3] [3 5] c64
}

func ExampleTrace_Cholesky() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 4, 4, 2)
	l, _ := tr.Cholesky(a, false)
	fmt.Println(l.DType(), l.Shape())
	// Output: f64 [4 4 2]
}

// The eigenvalues of Hermitian matrices are real and ascending.
func ExampleTrace_Eigh() {
	tr := trace.New()
	a, _ := tr.Input(tf.Complex128, 3, 3)
	w, v, _ := tr.Eigh(a, false)
	fmt.Println(w.DType(), w.Shape(), v.DType(), v.Shape())
	// Output: f64 [3] c128 [3 3]
}

func ExampleTrace_Eigvalsh() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float32, 6, 6, 10)
	w, _ := tr.Eigvalsh(a, true)
	fmt.Println(w.DType(), w.Shape())
	// Output: f32 [6 10]
}

// One determinant per matrix; the matrices must be square.
func ExampleTrace_Det() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 3, 3, 4)
	d, _ := tr.Det(a)
	b, _ := tr.Input(tf.Float64, 3, 2)
	_, err := tr.Det(b)
	fmt.Println(d.Shape())
	fmt.Println(err)
	// Output:
	// [4]
	// tenferro: Det: a: shape mismatch: expected square matrices (n, n, batch...), got shape [3 2]
}

// The sign has the input's dtype, log|det| its real dtype.
func ExampleTrace_SlogDet() {
	tr := trace.New()
	a, _ := tr.Input(tf.Complex64, 4, 4)
	sign, logabs, _ := tr.SlogDet(a)
	fmt.Println(sign.DType(), logabs.DType(), sign.Shape())
	// Output: c64 f32 []
}

func ExampleTrace_Inv() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 3, 3, 5)
	ai, _ := tr.Inv(a)
	fmt.Println(ai.DType(), ai.Shape())
	// Output: f64 [3 3 5]
}

// The pseudo-inverse of an m×n matrix is n×m; a negative rcond means
// machine precision.
func ExampleTrace_Pinv() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 5, 3)
	p, _ := tr.Pinv(a, -1)
	fmt.Println(p.Shape())
	// Output: [3 5]
}

func ExampleTrace_Solve() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 4, 4)
	b, _ := tr.Input(tf.Float64, 4, 2)
	x, _ := tr.Solve(a, b)
	fmt.Println(x.DType(), x.Shape())
	// Output: f64 [4 2]
}

// Solving X·A = B (left false) takes B with A's order as its second extent.
func ExampleTrace_SolveTriangular() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 3, 3)
	b, _ := tr.Input(tf.Float64, 5, 3)
	x, _ := tr.SolveTriangular(a, b, true, false, false)
	fmt.Println(x.Shape())
	// Output: [5 3]
}

func ExampleTrace_Expm() {
	tr := trace.New()
	a, _ := tr.Input(tf.Complex128, 2, 2)
	e, _ := tr.Expm(a)
	fmt.Println(e.DType(), e.Shape())
	// Output: c128 [2 2]
}

// The least-squares solution of a tall system: A (6, 3) and B (6, 2)
// give X (3, 2), recorded as Pinv(A)·B.
func ExampleTrace_Lstsq() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 6, 3)
	b, _ := tr.Input(tf.Float64, 6, 2)
	x, _ := tr.Lstsq(a, b, -1)
	fmt.Println(x.DType(), x.Shape())
	// Output: f64 [3 2]
}

// The nuclear norm of every matrix of a batch: the sum of its singular
// values, of the batch's shape.
func ExampleTrace_MatrixNorm() {
	tr := trace.New()
	a, _ := tr.Input(tf.Complex128, 4, 3, 5)
	n, _ := tr.MatrixNorm(a, linalg.NormNuclear)
	fmt.Println(n.DType(), n.Shape())
	// Output: f64 [5]
}
