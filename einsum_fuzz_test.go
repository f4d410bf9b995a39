package tenferro_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
)

// FuzzEinsum evaluates random small networks (operands, labels, extents
// 0 to 3, repeated and broadcast labels, an explicit or implicit output,
// a random path or strategy) on an engine with a small memory budget and
// checks the result against the naive reference, or that the error is a
// typed one. It never panics or allocates beyond the budget.
func FuzzEinsum(f *testing.F) {
	for _, seed := range []uint64{0, 1, 2, 3, 42, 1 << 40} {
		f.Add(seed, uint8(3), uint8(0))
	}
	e := cpu.Serial(cpu.WithMemoryBudget(1 << 20))
	f.Fuzz(func(t *testing.T, seed uint64, nops, flags uint8) {
		r := rand.New(rand.NewPCG(seed, uint64(nops)<<8|uint64(flags)))
		n := 1 + int(nops)%4
		letters := "abcde"
		ext := map[byte]int{}
		for i := range letters {
			ext[letters[i]] = r.IntN(4)
		}
		terms := make([]string, n)
		shapes := make([][]int, n)
		for k := range terms {
			rank := r.IntN(4)
			var b strings.Builder
			for range rank {
				l := letters[r.IntN(len(letters))]
				b.WriteByte(l)
				x := ext[l]
				if r.IntN(5) == 0 {
					x = 1 // broadcast
				}
				shapes[k] = append(shapes[k], x)
			}
			terms[k] = b.String()
		}
		sub := strings.Join(terms, ",")
		if flags&1 != 0 {
			// An explicit output of distinct labels that occur.
			seen := map[rune]bool{}
			var out []rune
			for _, c := range sub {
				if c != ',' && !seen[c] && r.IntN(2) == 0 {
					seen[c] = true
					out = append(out, c)
				}
			}
			sub += "->" + string(out)
		}
		var opts []tf.Option
		if flags&2 != 0 && n > 1 {
			var path [][2]int
			for left := n; left > 1; left-- {
				i := r.IntN(left)
				j := r.IntN(left - 1)
				if j >= i {
					j++
				}
				path = append(path, [2]int{i, j})
			}
			opts = append(opts, tf.WithPath(path))
		}
		ops := make([]*tf.Tensor[float64], n)
		data := make([][]complex128, n)
		for k, s := range shapes {
			ops[k] = enginetest.Operand[float64](t, r, s, int(flags>>2)%enginetest.NumLayouts)
			data[k] = enginetest.Dense(ops[k])
		}
		got, err := tf.EinsumWith(e, sub, ops, opts...)
		if err != nil {
			var te *tf.Error
			if !errors.As(err, &te) {
				t.Fatalf("%s %v: untyped error %v", sub, shapes, err)
			}
			// Bindings that do not fit the shapes are reported, not run.
			if errors.Is(err, tf.ErrShape) || errors.Is(err, tf.ErrMemory) || errors.Is(err, tf.ErrArgument) {
				return
			}
			t.Fatalf("%s %v: %v", sub, shapes, err)
		}
		ref := enginetest.EinsumReference(sub, shapes, data)
		enginetest.Check(t, fmt.Sprintf("%s %v", sub, shapes), got, ref)
		got.Release()
	})
}
