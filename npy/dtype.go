package npy

import "fmt"

// DType is the element type of an array. The zero value is invalid.
type DType uint8

// The supported element types, all stored little-endian in the file.
const (
	Float32    DType = iota + 1 // descr '<f4', Go float32
	Float64                     // descr '<f8', Go float64
	Complex64                   // descr '<c8', Go complex64 (two float32)
	Complex128                  // descr '<c16', Go complex128 (two float64)
	Int64                       // descr '<i8', Go int64 (two's complement)
	Bool                        // descr '|b1', Go bool (one byte, 0 or 1)
)

// supported lists the descr strings accepted, for error messages.
const supported = "supported: <f4 <f8 <c8 <c16 <i8 |b1"

// Size returns the number of bytes of one element, or 0 for an invalid DType.
func (d DType) Size() int {
	switch d {
	case Bool:
		return 1
	case Float32:
		return 4
	case Float64, Complex64, Int64:
		return 8
	case Complex128:
		return 16
	}
	return 0
}

// Descr returns the NumPy descr string written for d, such as "<f8".
func (d DType) Descr() string {
	switch d {
	case Float32:
		return "<f4"
	case Float64:
		return "<f8"
	case Complex64:
		return "<c8"
	case Complex128:
		return "<c16"
	case Int64:
		return "<i8"
	case Bool:
		return "|b1"
	}
	return ""
}

// String returns the Go name of the element type, such as "float64".
func (d DType) String() string {
	switch d {
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	case Complex64:
		return "complex64"
	case Complex128:
		return "complex128"
	case Int64:
		return "int64"
	case Bool:
		return "bool"
	}
	return fmt.Sprintf("DType(%d)", uint8(d))
}

// dtypeOf returns the DType and length of a supported data slice.
func dtypeOf(data any) (DType, int, bool) {
	switch s := data.(type) {
	case []float32:
		return Float32, len(s), true
	case []float64:
		return Float64, len(s), true
	case []complex64:
		return Complex64, len(s), true
	case []complex128:
		return Complex128, len(s), true
	case []int64:
		return Int64, len(s), true
	case []bool:
		return Bool, len(s), true
	}
	return 0, 0, false
}

// parseDescr maps a descr string to a DType. Accepted: the little-endian
// codes "<f4", "<f8", "<c8", "<c16", "<i8" and the boolean "|b1" (also
// NumPy's one-character "?"), each with the "<" or "|" mark or with no mark
// at all, all read as little-endian. Anything
// else is an ErrUnsupported (or ErrFormat for a string that is no dtype at
// all) naming the dtype and why.
func parseDescr(s string) (DType, error) {
	code := s
	if code != "" {
		switch code[0] {
		case '<', '|':
			code = code[1:]
		case '>', '!':
			return 0, readErr(ErrUnsupported, fmt.Sprintf("dtype %q is big-endian; %s", s, supported))
		case '=':
			return 0, readErr(ErrUnsupported, fmt.Sprintf("dtype %q has native byte order of an unknown writer; %s", s, supported))
		}
	}
	switch code {
	case "f4":
		return Float32, nil
	case "f8":
		return Float64, nil
	case "c8":
		return Complex64, nil
	case "c16":
		return Complex128, nil
	case "i8":
		return Int64, nil
	case "b1", "?":
		return Bool, nil
	}
	kind := "unknown"
	if code != "" {
		switch code[0] {
		case 'i':
			kind = "signed integer of this width"
		case 'u':
			kind = "unsigned integer"
		case 'b', '?':
			kind = "boolean"
		case 'O':
			kind = "Python object"
		case 'U', 'S', 'a':
			kind = "string"
		case 'V':
			kind = "void/raw bytes"
		case 'M', 'm':
			kind = "datetime"
		case 'f':
			kind = "floating point of this width"
		case 'c':
			kind = "complex of this width"
		}
	}
	if kind == "unknown" {
		return 0, readErr(ErrFormat, fmt.Sprintf("header 'descr' %q is not a dtype", s))
	}
	return 0, readErr(ErrUnsupported, fmt.Sprintf("dtype %q (%s); %s", s, kind, supported))
}
