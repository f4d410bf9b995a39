// Package op is the operation catalog: for every operation of the library
// its name, category, arity, attribute, dtype policy, shape rule and the
// errors those rules report. The eager operations of package tenferro,
// package trace, the compiler in package program and the engines'
// dispatch all key on it, so an operation's shapes, dtypes and errors are
// defined once.
//
// # Adding an elementwise operation
//
// One entry in the table below (name, the math in Doc, dtype set, attribute,
// scalar references), one kernel in internal/kernel/elementwise, and its
// test; `go generate` in the module root then writes the typed wrappers of
// package tenferro and the methods of package trace (internal/op/gen).
//
// # Dtypes
//
// The run-time dtype codes ([DType]) and NumPy's promotion table
// ([Promote]) live here too; tenferro.DType uses the same values.
package op

//go:generate go run ./gen

import "strconv"

// Kind identifies an operation.
type Kind uint16

// The operations.
const (
	None Kind = iota
	Copy
	Scale
	Negate
	Conj
	Add
	Sub
	Mul
	Div
	Pow
	Maximum
	Minimum
	Atan2
	Hypot
	Sqrt
	Rsqrt
	Square
	Reciprocal
	Sign
	Exp
	Expm1
	Log
	Log1p
	Sin
	Cos
	Tan
	Tanh
	Sinh
	Cosh
	Asin
	Acos
	Atan
	Sigmoid
	Relu
	Gelu
	Erf
	Erfc
	Floor
	Ceil
	Round
	Trunc
	Clip
	Abs
	Real
	Imag
	Angle
	Complex
	IsNaN
	IsInf
	IsFinite
	Equal
	NotEqual
	Less
	LessEqual
	Greater
	GreaterEqual
	LogicalNot
	LogicalAnd
	LogicalOr
	LogicalXor
	Where
	Sum
	Prod
	Mean
	Var
	Std
	Max
	Min
	LogSumExp
	Norm
	All
	Any
	ArgMax
	ArgMin
	CumSum
	CumProd
	Matmul
	Einsum
	Permute
	Reshape
	Squeeze
	Unsqueeze
	Flatten
	Concatenate
	Stack
	Split
	Tile
	Repeat
	Pad
	Tril
	Triu
	Roll
	Diag
	Contiguous
	Take
	Gather
	ScatterAdd
	MaskedSelect
	Cholesky
	Solve
	SolveTriangular
	Inv
	Det
	SlogDetSign
	SlogDetLogAbs
	Expm
	EighValues
	EighVectors
	SVDU
	SVDS
	SVDVh
	QRQ
	QRR
	Pinv
	GaugeCheck
	Convert
	NumKinds
)

// Category groups operations by how they map inputs to outputs; it decides
// the shape rule, the engine capability that runs them, and whether the
// compiler may fuse them.
type Category uint8

// The categories.
const (
	// Data moves elements without arithmetic (copy); every engine's core.
	Data Category = iota + 1
	// Unary is elementwise with one input: out[i] = f(a[i]).
	Unary
	// Binary is elementwise with two inputs, broadcast against each other:
	// out[i] = f(a[i], b[i]).
	Binary
	// Select is Where: out[i] = mask[i] ? a[i] : b[i], the three inputs
	// broadcast against each other.
	Select
	// Reduction combines the elements over a set of axes (one axis for
	// ArgMax and ArgMin).
	Reduction
	// Scan accumulates along one axis (CumSum, CumProd); the result has the
	// input's shape.
	Scan
	// Contraction sums products (matmul, einsum); engines run it on GEMM.
	Contraction
	// Structural changes shape or axis order without changing elements.
	Structural
	// Indexing selects or accumulates elements by the values of an index
	// tensor (int64) or a mask (bool), its second argument.
	Indexing
	// Linalg is dense linear algebra on matrices, the first two axes
	// (package linalg's operations); a decomposition is one operation per
	// factor (see Kind.Group).
	Linalg
)

// IsElementwise reports whether out[i] depends only on the inputs at
// (the broadcast of) i, so that the destination may be an input itself.
func (c Category) IsElementwise() bool { return c == Data || c == Unary || c == Binary || c == Select }

// Result names the dtype of an operation's result relative to its
// inputs'.
type Result uint8

// The result rules.
const (
	// SameDType: the inputs' dtype.
	SameDType Result = iota
	// RealDType: the real dtype of the inputs' precision (DType.Real): Abs,
	// Real, Imag and Angle of complex inputs.
	RealDType
	// ComplexDType: the complex dtype of the inputs' precision
	// (DType.Complex): Complex of two real inputs.
	ComplexDType
	// BoolDType: bool (predicates and comparisons).
	BoolDType
	// IndexDType: int64 (ArgMax, ArgMin).
	IndexDType
	// AttrDType: the dtype its attribute names (Convert; see
	// Kind.DTypeWith).
	AttrDType
)

// Of returns the result dtype for inputs of dtype in.
func (r Result) Of(in DType) DType {
	switch r {
	case RealDType:
		return in.Real()
	case ComplexDType:
		return in.Complex()
	case BoolDType:
		return Bool
	case IndexDType:
		return Int64
	}
	return in
}

// Attr names the attribute an operation takes besides its tensors.
type Attr uint8

// The attributes.
const (
	NoAttr         Attr = iota
	AlphaAttr           // a scalar of the input dtype (Attrs.Alpha)
	BoundsAttr          // two real scalars lo and hi (Attrs.Alpha, Attrs.Beta)
	AxesAttr            // a set of axes, any order, negative from the end (Attrs.Axes)
	PermAttr            // a permutation of the axes (Attrs.Axes)
	ShapeAttr           // a target shape, one extent may be -1 (Attrs.Shape)
	SubscriptsAttr      // einsum subscripts (Attrs.Subscripts)
	DdofAttr            // delta degrees of freedom (real part of Attrs.Alpha) and a set of axes (Var, Std)
	OrdAttr             // the order p of a norm (real part of Attrs.Alpha, +Inf allowed) and a set of axes
	AxisAttr            // one axis, negative from the end (Attrs.Axes[0])
	// IntsAttr: the integer parameters of a structural or indexing
	// operation (Attrs.Axes, Attrs.Ints) and for Pad the pad value
	// (Attrs.Alpha), laid out as its shape rule says (structural.go).
	IntsAttr
	// DTypeAttr: the dtype of the result (Attrs.Ints[0], a DType code):
	// Convert.
	DTypeAttr
)

// Info describes one operation.
type Info struct {
	Name     string   // the eager function, for example "Add"
	Into     string   // its Into twin, for example "AddInto"
	Doc      string   // the math, leading the generated doc comments
	Category Category // shape rule, capability, fusion
	Args     []string // names of the tensor arguments, in order ("a", "b")
	Attr     Attr     // the attribute, if any
	Accept   DTypeSet // dtypes the inputs may have (all inputs share one; Where's mask is bool)
	Result   Result   // the result's dtype rule
	// Commutative marks binary operations whose arguments may be swapped
	// (common subexpressions are found across both orders).
	Commutative bool
	// Generated marks operations whose typed wrappers (tenferro's XxxInto
	// pair, trace's method) are written by internal/op/gen.
	Generated bool
	// Ref is the value of one output element for complex128 inputs x, y
	// (y unused for unary operations) and attributes alpha, beta: the
	// reference the conformance suites check engines against. RefReal is
	// the same for real inputs; an operation on real inputs has one, or
	// uses the real part of Ref. For a reduction, Ref(acc, x, 0, 0) folds
	// one element into the accumulator, which starts at Identity. Ref is
	// nil for operations that accept real dtypes only, except Complex
	// (real inputs, a complex result), whose Ref reads the real parts of x
	// and y.
	Ref      func(x, y, alpha, beta complex128) complex128
	RefReal  func(x, y, alpha, beta float64) float64
	Identity complex128
	// RefReduce is the reference of a reduction: its value over the
	// reduced elements xs (complex128; bools as 0 and 1, indices as real
	// integers) with attribute p (ddof, order); for a scan, the value of
	// element k is RefReduce of the first k+1 elements.
	RefReduce func(xs []complex128, p float64) complex128
	// NonEmpty marks reductions without an identity (Max, Min, ArgMax,
	// ArgMin): reducing an empty set is an error.
	NonEmpty bool
}

func init() {
	for k := range catalog {
		if in := &catalog[k]; in.Name != "" && in.Into == "" {
			in.Into = in.Name + "Into"
		}
	}
}

// Info returns the catalog entry of k (the zero Info for an unknown kind).
func (k Kind) Info() *Info {
	if k < NumKinds {
		return &catalog[k]
	}
	return &catalog[None]
}

// Valid reports whether k names an operation.
func (k Kind) Valid() bool { return k > None && k < NumKinds }

// String returns the operation's name.
func (k Kind) String() string {
	if k.Valid() {
		return catalog[k].Name
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Category returns k's category.
func (k Kind) Category() Category { return k.Info().Category }

// Kinds returns every operation, in catalog order.
func Kinds() []Kind {
	ks := make([]Kind, 0, NumKinds-1)
	for k := None + 1; k < NumKinds; k++ {
		ks = append(ks, k)
	}
	return ks
}

// Attrs are the non-tensor arguments of one operation, as a trace records
// them (normalized: axes sorted and non-negative, shapes with -1 resolved).
type Attrs struct {
	Alpha      complex128 // AlphaAttr; lo of BoundsAttr; ddof (DdofAttr), the order (OrdAttr)
	Beta       complex128 // hi of BoundsAttr
	Axes       []int      // AxesAttr, DdofAttr, OrdAttr (increasing), AxisAttr (one) and PermAttr
	Shape      []int      // ShapeAttr
	Subscripts string     // SubscriptsAttr
	Ints       []int      // IntsAttr
}

// Key renders the attributes of operation k, for finding equal operations.
func (a *Attrs) Key(k Kind) string {
	switch k.Info().Attr {
	case DTypeAttr:
		return FmtInts(a.Ints)
	case AlphaAttr:
		return strconv.FormatComplex(a.Alpha, 'g', -1, 128)
	case BoundsAttr:
		return strconv.FormatComplex(a.Alpha, 'g', -1, 128) + "," + strconv.FormatComplex(a.Beta, 'g', -1, 128)
	case AxesAttr, PermAttr, AxisAttr:
		return FmtInts(a.Axes)
	case DdofAttr, OrdAttr:
		return strconv.FormatFloat(real(a.Alpha), 'g', -1, 64) + "," + FmtInts(a.Axes)
	case ShapeAttr:
		return FmtInts(a.Shape)
	case SubscriptsAttr:
		return strconv.Quote(a.Subscripts)
	case IntsAttr:
		return intsKey(a)
	}
	return ""
}
