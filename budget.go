package tenferro

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/op"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
)

// MemoryBudgetEnv names the environment variable that sets
// DefaultMemoryBudget: a number of bytes, 0 for no budget. It is read once
// per process.
const MemoryBudgetEnv = "TENFERRO_MEMORY_BUDGET"

// DefaultMemoryBudget returns the bytes one operation may allocate unless
// its engine says otherwise (cpu.WithMemoryBudget), and the bytes a
// constructor (Zeros, Full, Rand, FromRowMajor, Clone, Convert, ...) may
// allocate: $TENFERRO_MEMORY_BUDGET when set, else three quarters of the Go
// memory limit (GOMEMLIMIT) when one is set, else three quarters of the
// machine's physical memory (4 GiB where it cannot be read). An
// operation that would allocate more fails with ErrMemory before it
// allocates anything, instead of exhausting the machine.
func DefaultMemoryBudget() int64 { return defaultBudget() }

var defaultBudget = sync.OnceValue(func() int64 {
	if v, ok := os.LookupEnv(MemoryBudgetEnv); ok {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			if n == 0 {
				return math.MaxInt64
			}
			return n
		}
	}
	if lim := debug.SetMemoryLimit(-1); lim > 0 && lim < math.MaxInt64 {
		return lim / 4 * 3
	}
	if m := physicalMemory(); m > 0 {
		return m / 4 * 3
	}
	return 4 << 30
})

// checkBudget fails with ErrMemory when n elements of size bytes each
// exceed budget bytes.
func checkBudget(name string, n, size int, budget int64) error {
	if budget <= 0 || budget == math.MaxInt64 {
		return nil
	}
	if bytes := int64(n) * int64(size); bytes > budget {
		return newError(name, "memory", "at most "+strconv.FormatInt(budget, 10)+" bytes (the memory budget)",
			strconv.FormatInt(bytes, 10)+" bytes", ErrMemory)
	}
	return nil
}

// checkPeak is checkBudget for a plan's peak, counted in float64 elements
// (a plan's intermediates may exceed every integer type).
func checkPeak(name string, elems float64, size int, budget int64) error {
	if elems > op.MaxElements {
		// Whatever the budget: sizes and offsets of this many elements
		// would overflow the kernels' arithmetic.
		return newError(name, "memory", "intermediates of at most 2^46 elements", strconv.FormatFloat(elems, 'g', 4, 64)+" elements", ErrMemory)
	}
	if budget <= 0 || budget == math.MaxInt64 {
		return nil
	}
	if bytes := elems * float64(size); bytes > float64(budget) {
		return newError(name, "memory", "at most "+strconv.FormatInt(budget, 10)+" bytes (the memory budget)",
			strconv.FormatFloat(bytes, 'g', 4, 64)+" bytes for the contraction's result and intermediates", ErrMemory)
	}
	return nil
}

// budgetElems is the element limit a memory budget puts on one tensor of
// elements of size bytes (0: none), for the einsum planner.
func budgetElems(budget int64, size int) float64 {
	if budget <= 0 || budget == math.MaxInt64 {
		return 0
	}
	return float64(budget / int64(size))
}
