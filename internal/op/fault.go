package op

import (
	"errors"
	"fmt"
)

// The error kinds. Package tenferro exports these very values (ErrShape,
// ...), so that errors built from a Fault match them with errors.Is.
var (
	ErrShape       = errors.New("shape mismatch")
	ErrDType       = errors.New("dtype mismatch")
	ErrArgument    = errors.New("invalid argument")
	ErrReleased    = errors.New("tensor released")
	ErrEngineBusy  = errors.New("engine busy")
	ErrClosed      = errors.New("closed")
	ErrLayout      = errors.New("layout")
	ErrAlias       = errors.New("aliasing")
	ErrUnsupported = errors.New("unsupported by the engine")
	ErrMemory      = errors.New("memory budget exceeded")
	// The numerical failures of linear algebra.
	ErrSingular            = errors.New("singular matrix")
	ErrNotPositiveDefinite = errors.New("matrix not positive definite")
	ErrNoConvergence       = errors.New("iteration did not converge")
	// The refusal of a derivative that does not exist.
	ErrGauge = errors.New("gauge-dependent loss")
)

// Fault is what a catalog rule reports about a bad argument: which
// argument, what was expected, what was found, and the kind. The caller
// adds the name of the operation it is running (for example "Add" or
// "AddInto") when it turns the fault into a *tenferro.Error; eager
// operations and traces convert faults the same way, so the same bad input
// gives the same error on both paths.
type Fault struct {
	Arg      string
	Expected string
	Actual   string
	Kind     error // one of the Err* kinds above
	Err      error // optional cause (for example an *einsum.Error)
}

func fault(kind error, arg, expected, actual string) *Fault {
	return &Fault{Arg: arg, Expected: expected, Actual: actual, Kind: kind}
}

func faultf(kind error, arg, expected, format string, args ...any) *Fault {
	return fault(kind, arg, expected, fmt.Sprintf(format, args...))
}
