package tenferro

import (
	"errors"
	"testing"
)

// TestConstructorBudget: constructors refuse what the process's default
// budget cannot hold before allocating (Full(0, 2^46) once panicked in
// makeslice).
func TestConstructorBudget(t *testing.T) {
	if DefaultMemoryBudget() <= 0 {
		t.Fatalf("DefaultMemoryBudget = %d", DefaultMemoryBudget())
	}
	if _, err := Full(0.0, 1<<46); !errors.Is(err, ErrMemory) {
		t.Errorf("Full(0, 2^46): %v, want ErrMemory", err)
	}
	if _, err := Zeros[complex128](1<<23, 1<<23); !errors.Is(err, ErrMemory) {
		t.Errorf("Zeros of 2^46 complex128: %v, want ErrMemory", err)
	}
	if _, err := Rand[float32](1, 1<<45); !errors.Is(err, ErrMemory) {
		t.Errorf("Rand of 2^45 float32: %v, want ErrMemory", err)
	}
	if _, err := Zeros[float64](3, 4); err != nil {
		t.Fatal(err)
	}
	if err := checkBudget("x", 10, 8, 79); !errors.Is(err, ErrMemory) {
		t.Errorf("checkBudget: %v", err)
	}
	if err := checkPeak("x", 1e30, 8, 1<<40); !errors.Is(err, ErrMemory) {
		t.Errorf("checkPeak: %v", err)
	}
}
