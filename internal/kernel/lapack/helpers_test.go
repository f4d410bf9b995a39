package lapack

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// guard fills the elements of a test matrix's backing array that lie
// outside the matrix, so that tests can check that they survive.
const guard = 7777

// layout names how a test matrix is laid out in its backing array.
type layout int

const (
	dense      layout = iota // RS=1, CS=rows, Off=0
	padded                   // RS=1, CS=rows+3, Off=5
	transposed               // RS=cols+2, CS=1, Off=3
	nLayouts
)

func (l layout) String() string { return [...]string{"dense", "padded", "transposed"}[l] }

// testMat is a matrix under test with its shape.
type testMat[T Scalar] struct {
	gemm.Mat[T]
	r, c int
}

// newMat returns an r×c matrix in layout l filled by f(i, j), with guard
// values everywhere else in its backing array.
func newMat[T Scalar](r, c int, l layout, f func(i, j int) complex128) testMat[T] {
	var m gemm.Mat[T]
	var size int
	switch l {
	case dense:
		m = gemm.Mat[T]{RS: 1, CS: max(r, 1)}
		size = r * c
	case padded:
		m = gemm.Mat[T]{Off: 5, RS: 1, CS: r + 3}
		size = 5 + (r+3)*c + 2
	case transposed:
		m = gemm.Mat[T]{Off: 3, RS: c + 2, CS: 1}
		size = 3 + (c+2)*r + 1
	}
	m.Data = make([]T, size)
	for i := range m.Data {
		m.Data[i] = guard
	}
	tm := testMat[T]{m, r, c}
	for j := 0; j < c; j++ {
		for i := 0; i < r; i++ {
			tm.set(i, j, fromC128[T](f(i, j)))
		}
	}
	return tm
}

func (m testMat[T]) at(i, j int) T            { return m.Data[m.Off+i*m.RS+j*m.CS] }
func (m testMat[T]) set(i, j int, v T)        { m.Data[m.Off+i*m.RS+j*m.CS] = v }
func (m testMat[T]) c128(i, j int) complex128 { return toC128(m.at(i, j)) }

// checkGuards fails t when a backing element outside m changed.
func checkGuards[T Scalar](t *testing.T, m testMat[T]) {
	t.Helper()
	idx := make([]bool, len(m.Data))
	for j := 0; j < m.c; j++ {
		for i := 0; i < m.r; i++ {
			idx[m.Off+i*m.RS+j*m.CS] = true
		}
	}
	for k, v := range m.Data {
		if !idx[k] && v != guard {
			t.Fatalf("guard at %d overwritten: %v", k, v)
		}
	}
}

// dense128 is a column-major complex128 reference matrix.
type dense128 struct {
	r, c int
	d    []complex128
}

func newDense(r, c int) dense128 { return dense128{r, c, make([]complex128, r*c)} }

func (d dense128) at(i, j int) complex128     { return d.d[i+j*d.r] }
func (d dense128) set(i, j int, v complex128) { d.d[i+j*d.r] = v }

// toDense copies m into a reference matrix.
func toDense[T Scalar](m testMat[T]) dense128 {
	d := newDense(m.r, m.c)
	for j := 0; j < m.c; j++ {
		for i := 0; i < m.r; i++ {
			d.set(i, j, m.c128(i, j))
		}
	}
	return d
}

// mul returns a·b.
func mul(a, b dense128) dense128 {
	c := newDense(a.r, b.c)
	for j := 0; j < b.c; j++ {
		for p := 0; p < a.c; p++ {
			v := b.at(p, j)
			if v == 0 {
				continue
			}
			for i := 0; i < a.r; i++ {
				c.d[i+j*c.r] += a.d[i+p*a.r] * v
			}
		}
	}
	return c
}

// op returns a, aᵀ or aᴴ.
func (d dense128) op(o Op) dense128 {
	if o == NoTrans {
		return d
	}
	t := newDense(d.c, d.r)
	for j := 0; j < d.c; j++ {
		for i := 0; i < d.r; i++ {
			v := d.at(i, j)
			if o == ConjTrans {
				v = cmplx.Conj(v)
			}
			t.set(j, i, v)
		}
	}
	return t
}

// sub returns a - b.
func sub(a, b dense128) dense128 {
	c := newDense(a.r, a.c)
	for k := range c.d {
		c.d[k] = a.d[k] - b.d[k]
	}
	return c
}

// norm returns the Frobenius norm.
func (d dense128) norm() float64 {
	var s float64
	for _, v := range d.d {
		s += real(v)*real(v) + imag(v)*imag(v)
	}
	return math.Sqrt(s)
}

// eps returns the unit roundoff of T.
func eps[T Scalar]() float64 { return machEps[T]() }

// rnd returns a random value of T's kind in the unit square.
func rnd[T Scalar](rng *rand.Rand) complex128 {
	if isComplex[T]() {
		return complex(rng.Float64()*2-1, rng.Float64()*2-1)
	}
	return complex(rng.Float64()*2-1, 0)
}

// typeName names T for subtest names.
func typeName[T Scalar]() string {
	var z T
	return fmt.Sprintf("%T", z)
}

// withLeaves runs f with the leaf sizes set to small values, so that small
// test sizes exercise the recursive drivers, then restores them.
func withLeaves(trsm, potrf, getrf, herk int, f func()) {
	t0, p0, g0, h0 := TrsmLeaf, PotrfLeaf, GetrfLeaf, herkLeaf
	TrsmLeaf, PotrfLeaf, GetrfLeaf, herkLeaf = trsm, potrf, getrf, herk
	defer func() { TrsmLeaf, PotrfLeaf, GetrfLeaf, herkLeaf = t0, p0, g0, h0 }()
	f()
}
