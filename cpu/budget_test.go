package cpu_test

import (
	"errors"
	"math"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// TestMemoryBudget checks that operations whose outputs, intermediates or
// slots exceed the engine's budget fail with ErrMemory before they
// allocate, and that everything within it runs.
func TestMemoryBudget(t *testing.T) {
	e := cpu.Serial(cpu.WithMemoryBudget(1 << 20)) // 1 MiB
	defer e.Close()
	if e.MemoryBudget() != 1<<20 {
		t.Fatalf("MemoryBudget = %d", e.MemoryBudget())
	}
	big, _ := tf.Zeros[float64](1 << 18) // 2 MiB
	small, _ := tf.Ones[float64](64)
	// An outer product of two vectors of 2^20 elements would be 8 TiB.
	vec, _ := tf.Zeros[float64](1 << 20)
	if _, err := tf.Einsum(e, "i,j->ij", vec, vec); !errors.Is(err, tf.ErrMemory) {
		t.Errorf("Einsum with an 8 TiB output: %v, want ErrMemory", err)
	}
	if _, err := tf.Add(e, big, big); !errors.Is(err, tf.ErrMemory) {
		t.Errorf("Add with a 2 MiB output: %v, want ErrMemory", err)
	}
	if _, err := tf.Einsum(e, "i,j->ij", small, small); err != nil {
		t.Errorf("Einsum within the budget: %v", err)
	}
	// Into forms allocate nothing: a destination the caller owns is fine.
	if err := tf.AddInto(e, big, big, big); err != nil {
		t.Errorf("AddInto into the caller's 2 MiB: %v", err)
	}
	// An intermediate above the budget: a broadcast scalar times four
	// vectors of 65536 needs 2^32 elements on every path.
	s1, _ := tf.Ones[float64](1, 1, 1, 1)
	v, _ := tf.Ones[float64](65536)
	if _, err := tf.Einsum(e, "abcd,a,b,c,d->", s1, v, v, v, v); !errors.Is(err, tf.ErrMemory) {
		t.Errorf("Einsum whose every path needs 32 GiB: %v, want ErrMemory", err)
	}
	// A given path whose intermediate has 8192^5 elements (more than an
	// int holds) is refused by its size, not by an overflow.
	w, _ := tf.Ones[float64](8192)
	six, _ := tf.Ones[float64](1, 1, 1, 1, 1, 1)
	ops := []*tf.Tensor[float64]{six, w, w, w, w, w, w}
	path := [][2]int{{0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}}
	if _, err := tf.EinsumWith(e, "abcdef,a,b,c,d,e,f->", ops, tf.WithPath(path)); !errors.Is(err, tf.ErrMemory) {
		t.Errorf("a given path with a 2^65-element intermediate: %v, want ErrMemory", err)
	}
	// Compiled programs: slots above the budget are refused at Prepare.
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 512, 512)
	y, _ := tr.Matmul(x, x)
	z, _ := tr.Matmul(y, x)
	g, _ := tr.Finish(z)
	p, _ := program.Compile(g)
	if _, err := program.Prepare(p, e); !errors.Is(err, tf.ErrMemory) {
		t.Errorf("Prepare of a program with 2 MiB of slots: %v, want ErrMemory", err)
	}
	// No budget at all.
	e.SetMemoryBudget(0)
	if e.MemoryBudget() != math.MaxInt64 {
		t.Errorf("SetMemoryBudget(0) = %d, want no budget", e.MemoryBudget())
	}
	if _, err := tf.Add(e, big, big); err != nil {
		t.Errorf("Add without a budget: %v", err)
	}
}

// TestNoBudgetStillBounded: without a budget, a plan whose intermediates
// have more elements than any tensor may is refused instead of
// overflowing the executor's sizes.
func TestNoBudgetStillBounded(t *testing.T) {
	e := cpu.Serial(cpu.WithMemoryBudget(0))
	defer e.Close()
	w, _ := tf.Ones[float64](8192)
	six, _ := tf.Ones[float64](1, 1, 1, 1, 1, 1)
	ops := []*tf.Tensor[float64]{six, w, w, w, w, w, w}
	path := [][2]int{{0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}}
	if _, err := tf.EinsumWith(e, "abcdef,a,b,c,d,e,f->", ops, tf.WithPath(path)); !errors.Is(err, tf.ErrMemory) {
		t.Errorf("a 2^65-element intermediate without a budget: %v, want ErrMemory", err)
	}
}
