package linalg_test

// The examples of docs/guide/linalg.md and of the linear-algebra rows of
// docs/guide/numpy-cheatsheet.md (TestGuideSnippets in the module root
// checks that the guide shows them verbatim).

import (
	"errors"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
)

// The thin SVD of a 3×2 matrix, and the matrix rebuilt from its factors.
func Example_guideSVD() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{3, 0, 4, 5, 0, 0}, 3, 2)

	u, s, vh, err := linalg.SVD[float64](e, a) // R = float64: the dtype of s
	if err != nil {
		panic(err)
	}
	fmt.Println(u.Shape(), s.Shape(), vh.Shape())
	fmt.Printf("%.4f\n", s) // √45 and √5, descending

	usv, _ := tf.Einsum(e, "ik,k,kj->ij", u, s, vh) // U·diag(S)·Vh
	ok, _ := tf.AllClose(usv, a, 1e-12, 1e-12)
	fmt.Println(ok)
	// Output:
	// [3 2] [2] [2 2]
	// Tensor[f64] (2,)
	// [6.7082 2.2361]
	// true
}

// QR, Hermitian eigenvalues, a solve and a Cholesky factor.
func Example_guideFactorizations() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{2, 1, 1, 2}, 2, 2)
	b, _ := tf.FromSlice([]float64{3, 3}, 2)

	q, r, _ := linalg.QR(e, a, linalg.PositiveDiagonal) // diag(r) >= 0
	qr, _ := tf.Matmul(e, q, r)
	ok, _ := tf.AllClose(qr, a, 1e-12, 1e-12)
	fmt.Println(ok)

	w, v, _ := linalg.Eigh[float64](e, a) // ascending eigenvalues, eigenvectors as columns
	fmt.Printf("%.4f %v\n", w, v.Shape())

	x, _ := linalg.Solve(e, a, b) // a·x = b
	fmt.Printf("%.4f\n", x)

	l, err := linalg.Cholesky(e, a) // a = l·lᵀ, l lower triangular
	fmt.Printf("%.4f %v\n", l, err)
	// Output:
	// true
	// Tensor[f64] (2,)
	// [1.0000 3.0000] [2 2]
	// Tensor[f64] (2,)
	// [1.0000 1.0000]
	// Tensor[f64] (2, 2)
	// [[1.4142 0.0000]
	//  [0.7071 1.2247]] <nil>
}

// A truncated SVD reports what it discarded; SVDSplit factors a tensor
// across a bipartition of its axes.
func Example_guideTruncation() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{3, 0, 4, 5, 0, 0}, 3, 2)

	u, s, vh, info, _ := linalg.TruncatedSVD[float64](e, a, linalg.Truncation{MaxRank: 1})
	fmt.Println(u.Shape(), s.Shape(), vh.Shape(), info.Rank)
	fmt.Printf("discarded weight %.4f, error %.4f\n", info.Discarded, info.Error) // σ₁² = 5 of 50

	t, _ := tf.RandN[float64](1, 2, 3, 4)
	tu, ts, tvh, tinfo, _ := linalg.SVDSplit[float64](e, t, []int{0, 2}, linalg.Truncation{})
	fmt.Println(tu.Shape(), ts.Shape(), tvh.Shape(), tinfo.Rank) // U (2, 4, r), Vh (r, 3)
	// Output:
	// [3 1] [1] [1 2] 1
	// discarded weight 5.0000, error 0.1000
	// [2 4 3] [3] [3 3] 3
}

// Batches: the matrices are the first two axes, batch axes after them.
// Numerical failures are errors that errors.Is recognizes.
func Example_guideBatchesAndErrors() {
	e := cpu.Serial()
	defer e.Close()
	batch, _ := tf.RandN[float64](2, 4, 4, 10) // ten 4×4 matrices
	d, _ := linalg.Det(e, batch)
	fmt.Println(d.Shape())

	singular, _ := tf.FromRowMajor([]float64{1, 2, 2, 4}, 2, 2)
	_, err := linalg.Inv(e, singular)
	fmt.Println(errors.Is(err, tf.ErrSingular))
	_, err = linalg.Cholesky(e, singular)
	fmt.Println(errors.Is(err, tf.ErrNotPositiveDefinite))
	// Output:
	// [10]
	// true
	// true
}

// The rows of the cheatsheet that the examples above do not show.
func Example_guideCheatsheet() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{0, 1, -1, 0}, 2, 2)
	b, _ := tf.FromRowMajor([]float64{2, 1, 1, 1}, 2, 2)

	ib, _ := linalg.Inv(e, b)
	da, _ := linalg.Det(e, a)
	ea, _ := linalg.Expm(e, a) // a rotation by 1 radian
	wb, _ := linalg.Eigvalsh[float64](e, ib)
	sa, _ := linalg.SVDVals[float64](e, a)
	fmt.Printf("%.4f\n%.4f\n%.4f\n%.4f\n%.4f\n", ib, da, ea, wb, sa)
	// Output:
	// Tensor[f64] (2, 2)
	// [[ 1.0000 -1.0000]
	//  [-1.0000  2.0000]]
	// Tensor[f64] ()
	// 1.0000
	// Tensor[f64] (2, 2)
	// [[ 0.5403  0.8415]
	//  [-0.8415  0.5403]]
	// Tensor[f64] (2,)
	// [0.3820 2.6180]
	// Tensor[f64] (2,)
	// [1.0000 1.0000]
}
