// Package enginetest is the conformance suite of tenferro engines: every
// operation of the catalog on random inputs of awkward shapes and layouts
// (sizes 0, 1, primes, transposed, reversed and stepped views, broadcast
// extents) against naive references with float64/complex128 accumulation,
// the destination rule of package tenferro (in place, partial overlap,
// repeated elements, untouched destinations on error), error kinds, and
// zero allocations of the Into forms on a warm engine.
//
// An engine package runs it from a test:
//
//	func TestConformance(t *testing.T) {
//		enginetest.Run(t, func(t testing.TB) tf.Engine { return cpu.Serial() })
//	}
//
// Engines are closed after each subtest when they have a Close() error
// method.
package enginetest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
)

// Factory builds a fresh engine for one subtest.
type Factory func(t testing.TB) tf.Engine

// Run runs the whole suite on engines from newEngine.
func Run(t *testing.T, newEngine Factory) {
	engine := func(t *testing.T) tf.Engine {
		e := newEngine(t)
		if c, ok := e.(interface{ Close() error }); ok {
			t.Cleanup(func() {
				if err := c.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
		}
		return e
	}
	t.Run("Copy", func(t *testing.T) { testCopy(t, engine(t)) })
	forScalars(t, "Unary", func(t *testing.T, dt tf.DType) { scalarSuite[dt].unary(t, engine(t)) })
	forScalars(t, "Binary", func(t *testing.T, dt tf.DType) { scalarSuite[dt].binary(t, engine(t)) })
	forScalars(t, "Reduce", func(t *testing.T, dt tf.DType) { scalarSuite[dt].reduce(t, engine(t)) })
	forScalars(t, "Reductions", func(t *testing.T, dt tf.DType) { scalarSuite[dt].reductions(t, engine(t)) })
	forScalars(t, "Matmul", func(t *testing.T, dt tf.DType) { scalarSuite[dt].matmul(t, engine(t)) })
	forScalars(t, "Einsum", func(t *testing.T, dt tf.DType) { scalarSuite[dt].einsum(t, engine(t)) })
	forScalars(t, "Accumulate", func(t *testing.T, dt tf.DType) { scalarSuite[dt].accumulate(t, engine(t)) })
	forScalars(t, "Program", func(t *testing.T, dt tf.DType) { scalarSuite[dt].program(t, engine(t)) })
	forScalars(t, "Destinations", func(t *testing.T, dt tf.DType) { scalarSuite[dt].destinations(t, engine(t)) })
	forScalars(t, "Mixed", func(t *testing.T, dt tf.DType) { scalarSuite[dt].mixed(t, engine(t)) })
	forScalars(t, "Linalg", func(t *testing.T, dt tf.DType) { scalarSuite[dt].linalg(t, engine(t)) })
	t.Run("Logical", func(t *testing.T) { testLogical(t, engine(t)) })
	t.Run("BoolReductions", func(t *testing.T) { testBoolReductions(t, engine(t)) })
	forElems(t, "Structural", func(t *testing.T, dt tf.DType) { elemSuites[dt].structural(t, engine(t)) })
	forElems(t, "Indexing", func(t *testing.T, dt tf.DType) { elemSuites[dt].indexing(t, engine(t)) })
	t.Run("Errors", func(t *testing.T) { testErrors(t, engine(t)) })
	t.Run("Allocs", func(t *testing.T) { testAllocs(t, engine(t)) })
	t.Run("StructuralAllocs", func(t *testing.T) { testStructuralAllocs(t, engine(t)) })
	t.Run("IndexingAllocs", func(t *testing.T) { testIndexingAllocs(t, engine(t)) })
	t.Run("StructuralProgram", func(t *testing.T) { testStructuralProgram(t, engine(t)) })
}

func forScalars(t *testing.T, name string, f func(t *testing.T, dt tf.DType)) {
	t.Run(name, func(t *testing.T) {
		for _, dt := range tf.ScalarDTypes {
			t.Run(dt.String(), func(t *testing.T) { f(t, dt) })
		}
	})
}

// typed is the suite for one element type.
type typed interface {
	unary(t *testing.T, e tf.Engine)
	binary(t *testing.T, e tf.Engine)
	reduce(t *testing.T, e tf.Engine)
	reductions(t *testing.T, e tf.Engine)
	matmul(t *testing.T, e tf.Engine)
	einsum(t *testing.T, e tf.Engine)
	accumulate(t *testing.T, e tf.Engine)
	program(t *testing.T, e tf.Engine)
	destinations(t *testing.T, e tf.Engine)
	mixed(t *testing.T, e tf.Engine)
	linalg(t *testing.T, e tf.Engine)
}

// suite implements typed for T.
type suite[T tf.Scalar] struct{}

var scalarSuite = [...]typed{
	tf.Float32:    suite[float32]{},
	tf.Float64:    suite[float64]{},
	tf.Complex64:  suite[complex64]{},
	tf.Complex128: suite[complex128]{},
}

// Shapes are the awkward sizes every operation meets: empty, scalar,
// single elements, primes and tails around the kernels' block sizes.
var Shapes = [][]int{{}, {0}, {1}, {7}, {4, 0}, {1, 1}, {3, 5}, {17, 1}, {1, 33}, {67, 3}, {2, 3, 5}, {5, 1, 7, 2}, {129, 5}, {300}}

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x656e67)) }

func name(parts ...any) string { return fmt.Sprint(parts...) }

// mustNil fails t on err.
func mustNil(t testing.TB, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}
