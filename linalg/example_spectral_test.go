package linalg_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
)

// sym is the symmetric [[2, 1], [1, 2]], eigenvalues 1 and 3.
func sym() *tf.Tensor[float64] {
	a, _ := tf.FromSlice([]float64{2, 1, 1, 2}, 2, 2)
	return a
}

func ExampleEigh() {
	e := cpu.Serial()
	defer e.Close()
	w, v, _ := linalg.Eigh[float64](e, sym())
	show(w)
	fmt.Println(v.Shape()) // the eigenvectors (1, −1)/√2 and (1, 1)/√2, up to sign
	// Output:
	// [2]: 1 3
	// [2 2]
}

func ExampleEigvalsh() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]complex128{2, 1i, -1i, 2}, 2, 2) // Hermitian
	w, _ := linalg.Eigvalsh[float64](e, a)
	show(w)
	// Output:
	// [2]: 1 3
}

func ExampleEighInto() {
	e := cpu.Serial()
	defer e.Close()
	w, _ := tf.Zeros[float64](2)
	_ = linalg.EighInto(e, w, nil, sym()) // values alone
	show(w)
	// Output:
	// [2]: 1 3
}

func ExampleSVD() {
	e := cpu.Serial()
	defer e.Close()
	u, s, vh, _ := linalg.SVD[float64](e, tall())
	show(s)
	fmt.Println(u.Shape(), vh.Shape())
	// Output:
	// [2]: 6.227 4.027
	// [3 2] [2 2]
}

func ExampleSVDVals() {
	e := cpu.Serial()
	defer e.Close()
	s, _ := linalg.SVDVals[float64](e, sym())
	show(s)
	// Output:
	// [2]: 3 1
}

func ExampleSVDInto() {
	e := cpu.Serial()
	defer e.Close()
	u, _ := tf.Zeros[float64](3, 3) // full: the shapes choose
	s, _ := tf.Zeros[float64](2)
	vh, _ := tf.Zeros[float64](2, 2)
	_ = linalg.SVDInto(e, u, s, vh, tall())
	show(s)
	// Output:
	// [2]: 6.227 4.027
}

func ExampleTruncatedSVD() {
	e := cpu.Serial()
	defer e.Close()
	u, s, vh, info, _ := linalg.TruncatedSVD[float64](e, tall(), linalg.Truncation{MaxRank: 1})
	fmt.Println(u.Shape(), s.Shape(), vh.Shape())
	fmt.Printf("rank %d, discarded %.4g (%.3f of the total)\n", info.Rank, info.Discarded, info.Error)
	// Output:
	// [3 1] [1] [1 2]
	// rank 1, discarded 16.22 (0.295 of the total)
}

func ExampleSVDSplit() {
	e := cpu.Serial()
	defer e.Close()
	// A product state over axes (2, 3, 4): x[i, j, k] = a[i]·b[j, k].
	a, _ := tf.FromSlice([]float64{1, 2}, 2)
	b, _ := tf.Arange[float64](1, 13, 1)
	b, _ = b.Reshape(3, 4)
	x, _ := tf.Einsum(e, "i,jk->ijk", a, b)
	u, s, vh, info, _ := linalg.SVDSplit[float64](e, x, []int{0}, linalg.Truncation{RelCutoff: 1e-12})
	fmt.Println(u.Shape(), s.Shape(), vh.Shape(), info.Rank)
	// Output:
	// [2 1] [1] [1 3 4] 1
}

func ExampleQRSplit() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.Arange[float64](0, 24, 1)
	x, _ = x.Reshape(2, 3, 4)
	q, r, _ := linalg.QRSplit(e, x, []int{0, 2}) // rows over axes 0 and 2
	fmt.Println(q.Shape(), r.Shape())
	// Output:
	// [2 4 3] [3 3]
}

func ExampleLQSplit() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.Arange[float64](0, 24, 1)
	x, _ = x.Reshape(2, 3, 4)
	l, q, _ := linalg.LQSplit(e, x, []int{0})
	fmt.Println(l.Shape(), q.Shape())
	// Output:
	// [2 2] [2 3 4]
}

func ExampleQRPivoted() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 2, 4}, 2, 2) // rank 1
	_, r, perm, _ := linalg.QRPivoted(e, a, linalg.PositiveDiagonal)
	p, _ := perm.Data()
	r00, _ := r.At(0, 0)
	r11, _ := r.At(1, 1)
	fmt.Printf("perm %v, R[0,0] = %.4f, |R[1,1]| < 1e-12: %v\n", p, r00, r11 < 1e-12 && r11 > -1e-12)
	// Output:
	// perm [1 0], R[0,0] = 4.4721, |R[1,1]| < 1e-12: true
}

func ExampleQRPivotedInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 2, 4}, 2, 2)
	r, _ := tf.Zeros[float64](2, 2)
	perm, _ := tf.Zeros[int64](2)
	_ = linalg.QRPivotedInto(e, nil, r, perm, a) // R and the permutation alone
	p, _ := perm.Data()
	fmt.Println(p)
	// Output:
	// [1 0]
}

func ExampleLstsq() {
	e := cpu.Serial()
	defer e.Close()
	// Fit y = c0 + c1·x through (0, 1), (1, 3), (2, 5), (3, 6).
	a, _ := tf.FromSlice([]float64{1, 1, 1, 1, 0, 1, 2, 3}, 4, 2)
	y, _ := tf.FromSlice([]float64{1, 3, 5, 6}, 4)
	c, rank, _, _ := linalg.Lstsq[float64](e, a, y, -1)
	show(c)
	fmt.Println(rank.At())
	// Output:
	// [2]: 1.2 1.7
	// 2 <nil>
}

func ExampleLstsqInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 1, 1, 1, 0, 1, 2, 3}, 4, 2)
	y, _ := tf.FromSlice([]float64{1, 3, 5, 6}, 4)
	c, _ := tf.Zeros[float64](2)
	_ = linalg.LstsqInto[float64](e, c, nil, nil, a, y, -1)
	show(c)
	// Output:
	// [2]: 1.2 1.7
}

func ExamplePinv() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 2, 4}, 2, 2) // rank 1: A⁺ = A/25
	p, _ := linalg.Pinv(e, a, 1e-12)
	show(p)
	// Output:
	// [2 2]: 0.04 0.08 0.08 0.16
}

func ExamplePinvInto() {
	e := cpu.Serial()
	defer e.Close()
	p, _ := tf.Zeros[float64](2, 3)
	_ = linalg.PinvInto(e, p, tall(), -1)
	fmt.Println(p.Shape())
	// Output:
	// [2 3]
}

func ExampleMatrixNorm() {
	e := cpu.Serial()
	defer e.Close()
	for _, ord := range []linalg.NormOrder{linalg.NormFro, linalg.Norm1, linalg.Norm2, linalg.NormInf, linalg.NormNuclear} {
		n, _ := linalg.MatrixNorm[float64](e, sym(), ord)
		show(n)
	}
	// Output:
	// []: 3.162
	// []: 3
	// []: 3
	// []: 3
	// []: 4
}

func ExampleMatrixNormInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.Zeros[float64](2, 2, 3) // a batch of three zero matrices
	n, _ := tf.Zeros[float64](3)
	_ = linalg.MatrixNormInto(e, n, a, linalg.NormFro)
	show(n)
	// Output:
	// [3]: 0 0 0
}

func ExampleCond() {
	e := cpu.Serial()
	defer e.Close()
	c, _ := linalg.Cond[float64](e, sym(), linalg.Norm2)
	show(c)
	// Output:
	// []: 3
}

func ExampleCondInto() {
	e := cpu.Serial()
	defer e.Close()
	c, _ := tf.Zeros[float64]()
	_ = linalg.CondInto(e, c, sym(), linalg.Norm1) // ‖A‖₁·‖A⁻¹‖₁ = 3·1
	show(c)
	// Output:
	// []: 3
}

func ExampleMatrixRank() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 2, 4}, 2, 2)
	r, _ := linalg.MatrixRank(e, a, 0, -1)
	fmt.Println(r.At())
	// Output:
	// 1 <nil>
}

func ExampleMatrixRankInto() {
	e := cpu.Serial()
	defer e.Close()
	r, _ := tf.Zeros[int64]()
	_ = linalg.MatrixRankInto(e, r, sym(), 0, -1)
	fmt.Println(r.At())
	// Output:
	// 2 <nil>
}

func ExampleExpm() {
	e := cpu.Serial()
	defer e.Close()
	// exp of the generator [[0, −1], [1, 0]] is the rotation by one radian.
	g, _ := tf.FromSlice([]float64{0, 1, -1, 0}, 2, 2)
	r, _ := linalg.Expm(e, g)
	show(r)
	// Output:
	// [2 2]: 0.5403 0.8415 -0.8415 0.5403
}

func ExampleExpmInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 0, 0, 2}, 2, 2)
	x, _ := tf.Zeros[float64](2, 2)
	_ = linalg.ExpmInto(e, x, a)
	show(x) // diag(e, e²)
	// Output:
	// [2 2]: 2.718 0 0 7.389
}
