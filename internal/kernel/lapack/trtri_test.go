package lapack

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func testTrtri[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	var ws Workspace
	for _, uplo := range []Uplo{Lower, Upper} {
		for _, diag := range []Diag{NonUnit, Unit} {
			for _, n := range []int{0, 1, 2, 3, 7, 16, 17, 33, 67, 131} {
				l := layout(n % int(nLayouts))
				a := triangular[T](rng, n, uplo, diag, l)
				ref := triDense(a, uplo, diag)
				if info := Trtri(&ws, nil, uplo, diag, n, a.Mat); info != 0 {
					t.Fatalf("info %d", info)
				}
				name := fmt.Sprintf("%s uplo=%d diag=%d n=%d %v", typeName[T](), uplo, diag, n, l)
				for j := 0; j < n; j++ {
					for i := 0; i < n; i++ {
						if i != j && (i > j) != (uplo == Lower) && a.at(i, j) != guard {
							t.Fatalf("%s: opposite triangle written", name)
						}
					}
				}
				checkGuards(t, a)
				inv := triDense(a, uplo, diag)
				e := mul(ref, inv)
				for i := 0; i < n; i++ {
					e.set(i, i, e.at(i, i)-1)
				}
				cond := ref.norm() * inv.norm()
				if tol := 4 * float64(n+1) * cond * eps[T](); !(e.norm() <= tol) {
					t.Fatalf("%s: ‖A·inv − I‖ = %.3g > %.3g", name, e.norm(), tol)
				}
			}
		}
	}
}

func TestTrtri(t *testing.T) {
	t.Run("float32", testTrtri[float32])
	t.Run("float64", testTrtri[float64])
	t.Run("complex64", testTrtri[complex64])
	t.Run("complex128", testTrtri[complex128])
}

func TestTrtriSingular(t *testing.T) {
	a := newMat[float64](4, 4, padded, func(i, j int) complex128 {
		if i == 2 && j == 2 {
			return 0
		}
		return complex(float64(1+i+j), 0)
	})
	before := append([]float64(nil), a.Data...)
	if info := Trtri(nil, nil, Upper, NonUnit, 4, a.Mat); info != 3 {
		t.Fatalf("info %d, want 3", info)
	}
	for i := range before {
		if a.Data[i] != before[i] {
			t.Fatal("A changed")
		}
	}
}
