package op

import "strconv"

// DType is the run-time code of an element type. The public
// tenferro.DType has the same values; this package defines them so that
// every layer (catalog, backends, traces) agrees on one numbering.
type DType uint8

// The element types, in promotion order within each class.
const (
	InvalidDType DType = iota
	Float32
	Float64
	Complex64
	Complex128
	Int64 // the index type: indices, counts, ArgMax results
	Bool  // masks and comparison results
	NumDTypes
)

var dtypeInfo = [NumDTypes]struct {
	name, long string
	size       int
	class      DTypeSet
}{
	InvalidDType: {"invalid", "invalid", 0, 0},
	Float32:      {"f32", "float32", 4, Floats},
	Float64:      {"f64", "float64", 8, Floats},
	Complex64:    {"c64", "complex64", 8, Complexes},
	Complex128:   {"c128", "complex128", 16, Complexes},
	Int64:        {"i64", "int64", 8, Indices},
	Bool:         {"bool", "bool", 1, Bools},
}

// Valid reports whether d names an element type.
func (d DType) Valid() bool { return d > InvalidDType && d < NumDTypes }

// String returns the short name: f32, f64, c64, c128, i64 or bool.
func (d DType) String() string {
	if d < NumDTypes && d != InvalidDType {
		return dtypeInfo[d].name
	}
	return "dtype(" + strconv.Itoa(int(d)) + ")"
}

// Size returns the bytes of one element (0 for an invalid dtype).
func (d DType) Size() int {
	if d < NumDTypes {
		return dtypeInfo[d].size
	}
	return 0
}

// In reports whether d belongs to the set s.
func (d DType) In(s DTypeSet) bool { return d.Valid() && s&(1<<d) != 0 }

// IsComplex reports whether d is complex64 or complex128.
func (d DType) IsComplex() bool { return d.In(Complexes) }

// IsNumber reports whether d is one of the four arithmetic types.
func (d DType) IsNumber() bool { return d.In(Numbers) }

// Real returns the real dtype of the same precision: float32 for
// complex64, float64 for complex128, and d itself for every other dtype.
// Operations whose results are real (absolute values, norms, singular
// values, Hermitian eigenvalues) return this dtype.
func (d DType) Real() DType {
	switch d {
	case Complex64:
		return Float32
	case Complex128:
		return Float64
	}
	return d
}

// Complex returns the complex dtype of the same precision (complex64 for
// float32, complex128 for float64 and int64), d itself for a complex d and
// InvalidDType for bool.
func (d DType) Complex() DType {
	switch d {
	case Float32, Complex64:
		return Complex64
	case Float64, Complex128, Int64:
		return Complex128
	}
	return InvalidDType
}

// ParseDType accepts the short and the long names.
func ParseDType(s string) (DType, bool) {
	for d := Float32; d < NumDTypes; d++ {
		if s == dtypeInfo[d].name || s == dtypeInfo[d].long {
			return d, true
		}
	}
	return InvalidDType, false
}

// Promote returns the dtype that holds values of both a and b, as NumPy
// promotes arrays: bool < int64 < floating < complex, at the wider
// precision; int64 with float32 gives float64 and float64 with complex64
// gives complex128. It returns InvalidDType when either is invalid.
//
//	       bool  i64   f32   f64   c64   c128
//	bool   bool  i64   f32   f64   c64   c128
//	i64    i64   i64   f64   f64   c128  c128
//	f32    f32   f64   f32   f64   c64   c128
//	f64    f64   f64   f64   f64   c128  c128
//	c64    c64   c128  c64   c128  c64   c128
//	c128   c128  c128  c128  c128  c128  c128
func Promote(a, b DType) DType {
	if !a.Valid() || !b.Valid() {
		return InvalidDType
	}
	if a == b {
		return a
	}
	if a == Bool {
		return b
	}
	if b == Bool {
		return a
	}
	wide := a == Float64 || a == Complex128 || a == Int64 || b == Float64 || b == Complex128 || b == Int64
	cplx := a.IsComplex() || b.IsComplex()
	switch {
	case cplx && wide:
		return Complex128
	case cplx:
		return Complex64
	case wide:
		return Float64
	}
	return Float32
}

// DTypeSet is a set of dtypes (bit d for dtype d).
type DTypeSet uint16

// Named dtype sets.
const (
	Floats    DTypeSet = 1<<Float32 | 1<<Float64
	Complexes DTypeSet = 1<<Complex64 | 1<<Complex128
	Numbers            = Floats | Complexes // the arithmetic types
	Indices   DTypeSet = 1 << Int64
	Bools     DTypeSet = 1 << Bool
	AllDTypes          = Numbers | Indices | Bools
)

// String lists the set's dtypes, for error messages ("f32, f64, c64 or
// c128").
func (s DTypeSet) String() string {
	var names []string
	for d := Float32; d < NumDTypes; d++ {
		if d.In(s) {
			names = append(names, d.String())
		}
	}
	switch len(names) {
	case 0:
		return "no dtype"
	case 1:
		return names[0]
	}
	out := ""
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			out += " or "
		default:
			out += ", "
		}
		out += n
	}
	return out
}
