package lapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// iamaxRef is iamax's contract written plainly: the first index of the
// largest |Re|+|Im|, where a NaN is chosen only as the first element.
func iamaxRef(v []complex128) int {
	if len(v) == 0 {
		return -1
	}
	mag := func(z complex128) float64 { return math.Abs(real(z)) + math.Abs(imag(z)) }
	if m := mag(v[0]); m != m {
		return 0
	}
	best, bi := mag(v[0]), 0
	for i, z := range v[1:] {
		if m := mag(z); m > best {
			best, bi = m, i+1
		}
	}
	return bi
}

// TestIamax compares iamax with iamaxRef on vectors full of ties, signed
// zeros, infinities and NaNs, strided and not, in every dtype.
func TestIamax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	special := []float64{0, math.Copysign(0, -1), 1, -1, 2, -2, math.Inf(1), math.Inf(-1), math.NaN(), 0.5}
	pick := func() float64 { return special[rng.IntN(len(special))] }
	for trial := range 4000 {
		n, inc := rng.IntN(9), 1+rng.IntN(3)
		ref := make([]complex128, n)
		cplx := trial%2 == 1
		for i := range ref {
			ref[i] = complex(pick(), 0)
			if cplx {
				ref[i] = complex(pick(), pick())
			}
		}
		want := iamaxRef(ref)
		if !cplx {
			x := make([]float64, 1+n*inc)
			for i, z := range ref {
				x[1+i*inc] = real(z)
			}
			if got := iamax(x, 1, n, inc); got != want {
				t.Fatalf("float64 %v inc %d: iamax %d, want %d", ref, inc, got, want)
			}
			x32 := make([]float32, len(x))
			for i, v := range x {
				x32[i] = float32(v)
			}
			if got := iamax(x32, 1, n, inc); got != want {
				t.Fatalf("float32 %v inc %d: iamax %d, want %d", ref, inc, got, want)
			}
			continue
		}
		z := make([]complex128, 1+n*inc)
		for i, v := range ref {
			z[1+i*inc] = v
		}
		if got := iamax(z, 1, n, inc); got != want {
			t.Fatalf("complex128 %v inc %d: iamax %d, want %d", ref, inc, got, want)
		}
	}
}

// testGetf2Small checks that the small-matrix loops (unit row stride)
// make the same pivots, the same info and the same factors up to
// rounding as the general loops (a row-major copy of the matrix) on
// small integer entries, which tie and vanish often.
func testGetf2Small[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 2))
	for m := 1; m <= smallLU; m++ {
		for _, n := range []int{1, 2, 3, m, 5, smallLU} {
			for trial := range 4 {
				name := fmt.Sprintf("%s %dx%d #%d", typeName[T](), m, n, trial)
				ld := m + trial%2 // padded columns on odd trials
				col := make([]T, ld*n)
				row := make([]T, m*n)
				for j := range n {
					for i := range m {
						re, im := float64(rng.IntN(5)-2), float64(rng.IntN(5)-2)
						if trial == 3 && j == n/2 {
							re, im = 0, 0 // a zero column: singular
						}
						v := fromC128[T](complex(re, im))
						col[i+j*ld], row[i*n+j] = v, v
					}
				}
				pc, pr := make([]int, min(m, n)), make([]int, min(m, n))
				ic := Getf2(m, n, gemm.Mat[T]{Data: col, RS: 1, CS: ld}, pc)
				ir := Getf2(m, n, gemm.Mat[T]{Data: row, RS: n, CS: 1}, pr)
				if ic != ir {
					t.Fatalf("%s: info %d, general loops %d", name, ic, ir)
				}
				for k := range pc {
					if pc[k] != pr[k] {
						t.Fatalf("%s: pivots %v, general loops %v", name, pc, pr)
					}
				}
				for j := range n {
					for i := range m {
						a, b := toC128(col[i+j*ld]), toC128(row[i*n+j])
						if d := a - b; math.Hypot(real(d), imag(d)) > 64*eps[T]()*(1+math.Hypot(real(b), imag(b))) {
							t.Fatalf("%s: entry (%d, %d) %v, general loops %v", name, i, j, a, b)
						}
					}
				}
			}
		}
	}
}

func TestGetf2Small(t *testing.T) {
	t.Run("float32", testGetf2Small[float32])
	t.Run("float64", testGetf2Small[float64])
	t.Run("complex64", testGetf2Small[complex64])
	t.Run("complex128", testGetf2Small[complex128])
}

// TestGjinv checks Gjinv against the reference: the same pivots as Getrf,
// a residual ‖A·X − I‖ within 4(n+1)·cond·eps, padded columns untouched,
// and a zero pivot reported as Getrf reports it.
func TestGjinv(t *testing.T) {
	t.Run("float32", testGjinv[float32])
	t.Run("float64", testGjinv[float64])
	t.Run("complex64", testGjinv[complex64])
	t.Run("complex128", testGjinv[complex128])
}

func testGjinv[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 4))
	var ws Workspace
	for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 13, 16, 31} {
		for trial := range 3 {
			name := fmt.Sprintf("%s n=%d #%d", typeName[T](), n, trial)
			ref := randDense[T](rng, n, n)
			ld := n + trial // padding rows below each column
			a := make([]T, ld*n)
			for j := range n {
				for i := range n {
					a[i+j*ld] = fromC128[T](ref.at(i, j))
				}
				for i := n; i < ld; i++ {
					a[i+j*ld] = 7
				}
			}
			lu := store[T](ref, dense)
			pl := make([]int, n)
			Getrf(&ws, nil, n, n, lu.Mat, pl)
			piv := make([]int, n)
			if info := Gjinv(n, gemm.Mat[T]{Data: a, RS: 1, CS: ld}, piv); info != 0 {
				t.Fatalf("%s: info %d", name, info)
			}
			for k := range piv {
				if piv[k] != pl[k] {
					t.Fatalf("%s: pivots %v, Getrf's %v", name, piv, pl)
				}
			}
			x := newDense(n, n)
			for j := range n {
				for i := range n {
					x.set(i, j, toC128(a[i+j*ld]))
				}
				for i := n; i < ld; i++ {
					if a[i+j*ld] != 7 {
						t.Fatalf("%s: padding overwritten", name)
					}
				}
			}
			e := mul(ref, x)
			for i := range n {
				e.set(i, i, e.at(i, i)-1)
			}
			cond := ref.norm() * x.norm()
			if tol := 4 * float64(n+1) * cond * eps[T](); !(e.norm() <= tol) {
				t.Fatalf("%s: ‖A·X − I‖ = %.3g > %.3g", name, e.norm(), tol)
			}
		}
	}
	// A zero column k: the k-th pivot is zero, as Getrf says.
	for _, k := range []int{0, 2, 4} {
		ref := randDense[T](rng, 5, 5)
		for i := range 5 {
			ref.set(i, k, 0)
		}
		a := store[T](ref, dense)
		b := store[T](ref, dense)
		if got, want := Gjinv(5, a.Mat, make([]int, 5)), Getrf(nil, nil, 5, 5, b.Mat, make([]int, 5)); got != want || got != k+1 {
			t.Errorf("%s zero column %d: info %d, Getrf %d", typeName[T](), k, got, want)
		}
	}
}
