package einsum

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Every error returned by this package is an *Error whose
// Kind is one of these, so callers can test with errors.Is.
// ErrLimitTooSmall wraps ErrMemoryLimit.
var (
	// ErrSyntax reports malformed subscripts or label lists.
	ErrSyntax = errors.New("einsum: syntax error")
	// ErrRank reports a mismatch between the number of operands or axes
	// named by the subscripts and the shapes given.
	ErrRank = errors.New("einsum: rank mismatch")
	// ErrShape reports extents that cannot be reconciled (for example a
	// label bound to 3 in one operand and 4 in another).
	ErrShape = errors.New("einsum: shape mismatch")
	// ErrPath reports an invalid caller-given contraction path.
	ErrPath = errors.New("einsum: invalid path")
	// ErrMemoryLimit reports that no path keeps every intermediate within
	// the requested memory limit.
	ErrMemoryLimit = errors.New("einsum: memory limit exceeded")
	// ErrOption reports an invalid planning option.
	ErrOption = errors.New("einsum: invalid option")
	// ErrLimitTooSmall reports a memory limit below the smallest peak one
	// slice reaches even with every summed label sliced (see
	// NewSlicedPlan). It wraps ErrMemoryLimit, so errors.Is matches both.
	ErrLimitTooSmall = fmt.Errorf("%w: below the smallest slice peak", ErrMemoryLimit)
)

// Error describes a failure to parse, bind or plan an einsum expression.
//
// Fields that do not apply hold their zero value, except Operand and Pos,
// which hold -1 when they do not apply. Extents holds the conflicting
// extents (or ranks) in the order they are mentioned by Msg.
type Error struct {
	Op      string // "parse", "labels", "bind", "plan", "path" or "slice"
	Kind    error  // one of the sentinel errors above
	Operand int    // operand index, or -1
	Label   string // label as written ("i", "..." or "(7)"), or ""
	Pos     int    // byte offset in the subscripts, or -1
	Extents []int  // conflicting extents or counts, if any
	Msg     string // human readable detail
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("einsum: ")
	b.WriteString(e.Op)
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the sentinel kind, so errors.Is(err, ErrShape) works.
func (e *Error) Unwrap() error { return e.Kind }

func newErr(op string, kind error, operand int, label string, format string, args ...any) *Error {
	return &Error{Op: op, Kind: kind, Operand: operand, Label: label, Pos: -1, Msg: fmt.Sprintf(format, args...)}
}
