package cpu_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/team"
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
	// A broadcast operand costs nothing: a (1,1,1,1) tensor against four
	// vectors of 65536 sums each vector first instead of forming a
	// 2^48-element intermediate.
	s1, _ := tf.Ones[float64](1, 1, 1, 1)
	v, _ := tf.Ones[float64](65536)
	r, err := tf.Einsum(e, "abcd,a,b,c,d->", s1, v, v, v, v)
	if err != nil {
		t.Fatalf("Einsum of a broadcast scalar and four vectors: %v", err)
	}
	if got, _ := r.At(); got != 1<<64 {
		t.Errorf("Einsum of a broadcast scalar and four vectors = %g, want 2^64", got)
	}
	// A given path whose intermediate has 8192^6 elements (more than an
	// int holds) is refused by its size, not by an overflow.
	if _, err := tf.EinsumWith(e, outerChain, outerChainOps(), tf.WithPath(outerChainPath)); !errors.Is(err, tf.ErrMemory) {
		t.Errorf("a given path with a 2^78-element intermediate: %v, want ErrMemory", err)
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
	if err := e.SetMemoryBudget(-1); !errors.Is(err, tf.ErrArgument) || e.MemoryBudget() != 1<<20 {
		t.Errorf("SetMemoryBudget(-1) = %v, budget %d: want ErrArgument and the budget unchanged", err, e.MemoryBudget())
	}
	if err := e.SetMemoryBudget(0); err != nil || e.MemoryBudget() != math.MaxInt64 {
		t.Errorf("SetMemoryBudget(0) = %d, want no budget", e.MemoryBudget())
	}
	if _, err := tf.Add(e, big, big); err != nil {
		t.Errorf("Add without a budget: %v", err)
	}
}

// TestNegativeBudgetOption: a negative budget given as an option is an
// argument error that New returns and every operation of a Serial engine
// repeats.
func TestNegativeBudgetOption(t *testing.T) {
	tm, err := team.New(team.Threads(2))
	if err != nil {
		t.Fatal(err)
	}
	defer tm.Close()
	if _, err := cpu.New(tm, cpu.WithMemoryBudget(-5)); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("New with a budget of -5: %v, want ErrArgument", err)
	}
	e := cpu.Serial(cpu.WithMemoryBudget(-5))
	defer e.Close()
	x, _ := tf.Ones[float64](3)
	if _, err := tf.Add(e, x, x); !errors.Is(err, tf.ErrArgument) || !strings.Contains(err.Error(), "-5") {
		t.Errorf("Add on a Serial engine with a budget of -5: %v, want ErrArgument naming -5", err)
	}
}

// TestNoBudgetStillBounded: without a budget, a plan whose intermediates
// have more elements than any tensor may is refused instead of
// overflowing the executor's sizes.
func TestNoBudgetStillBounded(t *testing.T) {
	e := cpu.Serial(cpu.WithMemoryBudget(0))
	defer e.Close()
	if _, err := tf.EinsumWith(e, outerChain, outerChainOps(), tf.WithPath(outerChainPath)); !errors.Is(err, tf.ErrMemory) {
		t.Errorf("a 2^78-element intermediate without a budget: %v, want ErrMemory", err)
	}
}

// outerChain is twelve vectors of 8192 whose labels pair up; the path
// outerChainPath first multiplies a, b, c, d, e and f into their outer
// product, of 8192^6 = 2^78 elements.
const outerChain = "a,b,c,d,e,f,a,b,c,d,e,f->"

var outerChainPath = [][2]int{{0, 1}, {0, 10}, {0, 9}, {0, 8}, {0, 7}, {0, 6}, {0, 5}, {0, 4}, {0, 3}, {0, 2}, {0, 1}}

func outerChainOps() []*tf.Tensor[float64] {
	w, _ := tf.Ones[float64](8192)
	ops := make([]*tf.Tensor[float64], 12)
	for i := range ops {
		ops[i] = w
	}
	return ops
}
