package gonumx

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// native is gonum's own BLAS, the reference.
var native gonum.Implementation

const sentinel = 12345.0 // fills the padding of leading dimensions

func fromC[T gemm.Scalar](c complex128) T { return backend.FromComplex[T](c) }
func toC[T gemm.Scalar](x T) complex128   { return backend.ToComplex(x) }

// eps is the unit roundoff of T.
func eps[T gemm.Scalar]() float64 {
	var z T
	switch any(z).(type) {
	case float32, complex64:
		return 0x1p-24
	}
	return 0x1p-53
}

// randMat returns a rows×cols row-major matrix with leading dimension ld
// (ld - cols padding elements per row hold the sentinel), entries centred
// on zero.
func randMat[T gemm.Scalar](rng *rand.Rand, rows, cols, ld int) []T {
	if rows == 0 {
		return nil
	}
	x := make([]T, (rows-1)*ld+cols)
	tf.FillRand(rng, x)
	for i := range x {
		if i%ld >= cols {
			x[i] = fromC[T](sentinel)
		} else {
			x[i] -= fromC[T](complex(0.5, 0.5))
		}
	}
	return x
}

// absMat returns |x| elementwise, as float64.
func absMat[T gemm.Scalar](x []T) []float64 {
	a := make([]float64, len(x))
	for i, v := range x {
		a[i] = cmplx.Abs(toC(v))
	}
	return a
}

// checkClose compares the rows×cols row-major got and want (leading
// dimension ld) elementwise against tol[i*ld+j] and checks that the
// padding still holds the sentinel.
func checkClose[T gemm.Scalar](t *testing.T, what string, rows, cols, ld int, got, want []T, tol []float64) {
	t.Helper()
	bad := 0
	for i := range rows {
		for j := range ld {
			p := i*ld + j
			if p >= len(got) {
				break
			}
			if j >= cols {
				if got[p] != fromC[T](sentinel) {
					t.Fatalf("%s: padding (%d, %d) = %v, written", what, i, j, got[p])
				}
				continue
			}
			d := cmplx.Abs(toC(got[p]) - toC(want[p]))
			if !(d <= tol[p]) {
				if bad++; bad <= 3 {
					t.Errorf("%s: (%d, %d) = %v, want %v (|diff| %.3g > %.3g)", what, i, j, got[p], want[p], d, tol[p])
				}
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%s: %d of %d elements off", what, bad, rows*cols)
	}
}

// absProduct returns |alpha|·|op(A)|·|op(B)| + |beta|·|C| (row-major,
// leading dimension ldc), the scale of the rounding error of a GEMM.
func absProduct[T gemm.Scalar](tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) []float64 {
	bound := absMat(c)
	bt := cmplx.Abs(toC(beta))
	for i := range bound {
		if bt == 0 {
			bound[i] = 0 // C is not read: NaN there must not matter
		}
		bound[i] *= bt
	}
	if k > 0 && m > 0 && n > 0 {
		native.Dgemm(absTrans(tA), absTrans(tB), m, n, k, cmplx.Abs(toC(alpha)), absMat(a), lda, absMat(b), ldb, 1, bound, ldc)
	}
	return bound
}

func absTrans(t blas.Transpose) blas.Transpose {
	if t == blas.NoTrans {
		return blas.NoTrans
	}
	return blas.Trans
}

// tolerance scales bound by factor·eps (and adds a floor for exact zeros).
func tolerance[T gemm.Scalar](bound []float64, factor float64) []float64 {
	tol := make([]float64, len(bound))
	for i, b := range bound {
		tol[i] = factor*eps[T]()*b + math.SmallestNonzeroFloat64
	}
	return tol
}

// mustPanic runs f and returns the panic value, failing when f returns.
func mustPanic(t *testing.T, what string, f func()) (v any) {
	t.Helper()
	defer func() { v = recover() }()
	f()
	t.Fatalf("%s: no panic", what)
	return nil
}

var transposes = []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}

// scalars returns the alpha or beta values the tests use: 0, 1 and a
// general value.
func scalars[T gemm.Scalar]() []T {
	return []T{0, 1, fromC[T](complex(-1.5, 0.75))}
}

func blasGeneral(r, c, ld int, d []float64) blas64.General {
	return blas64.General{Rows: r, Cols: c, Stride: ld, Data: d}
}

func blasVector(n, inc int, d []float64) blas64.Vector {
	return blas64.Vector{N: n, Inc: inc, Data: d}
}

// tooBig reports whether a case of work multiply-adds is left out of this
// run (race-detector builds only).
func tooBig(work int) bool { return raceEnabled && work > 100000 }
