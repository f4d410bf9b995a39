package npy

import (
	"errors"
	"strings"
)

// Sentinel error kinds. Every error returned by this package for bad input
// matches exactly one of them under [errors.Is]; the message says which
// argument or header field was wrong, what was expected and what was found.
var (
	// ErrFormat reports input that is not a well-formed .npy stream: bad
	// magic string, malformed header dictionary, missing or extra keys,
	// wrongly typed values, negative extents.
	ErrFormat = errors.New("malformed npy data")
	// ErrUnsupported reports a well-formed stream this package does not
	// handle: an unknown format version, a big-endian, object, string or
	// structured dtype, an integer dtype other than int64.
	ErrUnsupported = errors.New("unsupported npy feature")
	// ErrTooLarge reports a header over the header cap, or data whose byte
	// count overflows or exceeds the configured maximum.
	ErrTooLarge = errors.New("npy data too large")
	// ErrTruncated reports a stream that ends before the header or the data
	// it announces.
	ErrTruncated = errors.New("npy data truncated")
	// ErrArgument reports an invalid argument passed to a writing function
	// (unsupported element type, negative extent, a data length that does
	// not match the shape, a nil, zero or released tensor) or a type
	// argument of ReadTensor that is not the file's dtype.
	ErrArgument = errors.New("invalid npy argument")
)

// Error is the concrete type of errors returned by this package. It matches
// its Kind (one of the sentinels above) and its underlying cause, if any,
// under [errors.Is] and [errors.As].
type Error struct {
	Op   string // "read" or "write"
	Kind error  // ErrFormat, ErrUnsupported, ErrTooLarge, ErrTruncated, ErrArgument, or nil for an I/O failure
	Msg  string // what was wrong: argument or field, expected and actual
	Err  error  // underlying cause, such as an I/O error; may be nil
}

// Error formats the error as "npy: op: msg: cause".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("npy: ")
	b.WriteString(e.Op)
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the kind and the cause, so errors.Is matches both.
func (e *Error) Unwrap() []error {
	var errs []error
	if e.Kind != nil {
		errs = append(errs, e.Kind)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

func readErr(kind error, msg string) error { return &Error{Op: "read", Kind: kind, Msg: msg} }

func writeErr(kind error, msg string) error { return &Error{Op: "write", Kind: kind, Msg: msg} }
