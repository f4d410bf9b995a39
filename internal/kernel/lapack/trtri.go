package lapack

import (
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Trtri overwrites the n×n triangular matrix A (uplo, diag; only that
// triangle is referenced) with its inverse, which is triangular alike. It
// returns 0, or k ≥ 1 when A[k-1, k-1] is the first exactly zero diagonal
// entry, in which case A is left unchanged.
//
// The driver halves A recursively: for lower A,
//
//	[A11 0; A21 A22]⁻¹ = [A11⁻¹ 0; −A22⁻¹·A21·A11⁻¹ A22⁻¹],
//
// the off-diagonal block by two [Trsm] calls before the diagonal blocks are
// inverted (n³/3 operations). For n ≤ [TrsmLeaf] neither ws nor r is used.
func Trtri[T Scalar](ws *Workspace, r par.Runner, uplo Uplo, diag Diag, n int, a gemm.Mat[T]) int {
	if diag == NonUnit {
		for i := 0; i < n; i++ {
			if a.Data[a.Off+i*a.RS+i*a.CS] == 0 {
				return i + 1
			}
		}
	}
	trtriRec(ws, r, uplo, diag, n, a)
	return 0
}

func trtriRec[T Scalar](ws *Workspace, r par.Runner, uplo Uplo, diag Diag, n int, a gemm.Mat[T]) {
	if n <= 1 {
		if n == 1 && diag == NonUnit {
			a.Data[a.Off] = 1 / a.Data[a.Off]
		}
		return
	}
	n1 := split(n)
	n2 := n - n1
	a11, a22 := a, shift(a, n1, n1)
	if uplo == Lower {
		a21 := shift(a, n1, 0)
		Trsm(ws, r, Right, Lower, NoTrans, diag, n2, n1, -1, a11, a21)
		Trsm(ws, r, Left, Lower, NoTrans, diag, n2, n1, 1, a22, a21)
	} else {
		a12 := shift(a, 0, n1)
		Trsm(ws, r, Left, Upper, NoTrans, diag, n1, n2, -1, a11, a12)
		Trsm(ws, r, Right, Upper, NoTrans, diag, n1, n2, 1, a22, a12)
	}
	trtriRec(ws, r, uplo, diag, n1, a11)
	trtriRec(ws, r, uplo, diag, n2, a22)
}
