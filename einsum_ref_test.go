package tenferro_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
)

// The einsum tests check evaluation against enginetest.EinsumReference, a
// reference written from the rules of the grammar alone, element by element
// within (n+2)·u·Σ|terms| (enginetest.Check).

// runCase evaluates subscripts on random operands of the given shapes and
// layouts with Einsum (and the given options) and checks the result.
func runCase[T tf.Scalar](t testing.TB, e *cpu.Engine, rng *rand.Rand, sub string, shapes [][]int, kinds []int, opts ...tf.Option) {
	t.Helper()
	ops := make([]*tf.Tensor[T], len(shapes))
	data := make([][]complex128, len(shapes))
	for k, s := range shapes {
		kind := enginetest.Compact
		if kinds != nil {
			kind = kinds[k]
		}
		ops[k] = enginetest.Operand[T](t, rng, s, kind)
		data[k] = enginetest.Dense(ops[k])
	}
	ref := enginetest.EinsumReference(sub, shapes, data)
	got, err := tf.EinsumWith(e, sub, ops, opts...)
	what := fmt.Sprintf("%s %v %v %v", sub, shapes, kinds, tf.DTypeOf[T]())
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	enginetest.Check(t, what, got, ref)
	if err := got.Release(); err != nil {
		t.Fatal(err)
	}
	for k := range ops {
		if !slices.Equal(enginetest.Dense(ops[k]), data[k]) {
			t.Fatalf("%s: operand %d was modified", what, k)
		}
	}
}
