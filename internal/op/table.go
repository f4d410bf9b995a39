package op

import (
	"math"
	"math/cmplx"

	"github.com/tenferro-go/tenferro/internal/op/scalar"
)

// The catalog: one entry per operation. Elementwise entries give the math
// in Doc (it leads the generated doc comments) and the value of one
// element in Ref/RefReal.
var catalog = [NumKinds]Info{
	Copy: {Name: "Copy", Into: "CopyInto", Category: Data, Args: []string{"a"}, Accept: AllDTypes,
		Doc: "returns a compact column-major copy of a",
		Ref: func(x, _, _, _ complex128) complex128 { return x }},

	// Arithmetic.
	Scale:  unaryC("Scale", "returns alpha·a elementwise", func(x, a complex128) complex128 { return a * x }, nil).withAttr(AlphaAttr),
	Negate: unaryC("Negate", "returns -a elementwise", func(x, _ complex128) complex128 { return -x }, nil),
	Conj: unaryC("Conj", "returns the complex conjugate of a elementwise (a copy for real dtypes)",
		func(x, _ complex128) complex128 { return cmplx.Conj(x) }, nil),
	Add: binaryC("Add", "returns a + b elementwise", func(x, y complex128) complex128 { return x + y }, nil).commutative(),
	Sub: binaryC("Sub", "returns a - b elementwise", func(x, y complex128) complex128 { return x - y }, nil),
	Mul: binaryC("Mul", "returns the Hadamard product a·b elementwise",
		func(x, y complex128) complex128 { return x * y }, nil).commutative(),
	Div: binaryC("Div", "returns a / b elementwise (IEEE division: x/0 is ±Inf, 0/0 is NaN)",
		func(x, y complex128) complex128 { return x / y }, nil),
	Pow: binaryC("Pow", "returns a**b elementwise: for real dtypes e^(b·ln|a|) within 2 ulps, with math.Pow's special values (a negative base with a non-integer exponent gives NaN, as in NumPy), and the principal value e^(b·log a) for complex ones (0**0 is 1)",
		scalar.CPow, scalar.Pow),
	Maximum: binaryR("Maximum", "returns the larger of a and b elementwise, NaN where either is NaN (NumPy's maximum)", scalar.Maximum).commutative(),
	Minimum: binaryR("Minimum", "returns the smaller of a and b elementwise, NaN where either is NaN (NumPy's minimum)", scalar.Minimum).commutative(),
	Atan2:   binaryR("Atan2", "returns the angle atan2(a, b) in [-π, π] of the point (b, a) elementwise, with the sign of a also where a/b underflows", scalar.Atan2),
	Hypot:   binaryR("Hypot", "returns sqrt(a² + b²) elementwise without undue overflow, the square root of the sum of squares rounded once, within an ulp (+Inf where either is infinite, as math.Hypot)", scalar.Hypot).commutative(),

	// Powers and signs.
	Sqrt: unaryC("Sqrt", "returns the square root of a elementwise (NaN for negative reals; the principal root for complex)",
		f1(scalar.CSqrt), math.Sqrt),
	Rsqrt: unaryC("Rsqrt", "returns 1/sqrt(a) elementwise",
		f1(scalar.CRsqrt), func(x float64) float64 { return 1 / math.Sqrt(x) }),
	Square:     unaryC("Square", "returns a·a elementwise", func(x, _ complex128) complex128 { return x * x }, nil),
	Reciprocal: unaryC("Reciprocal", "returns 1/a elementwise", func(x, _ complex128) complex128 { return 1 / x }, nil),
	Sign: unaryC("Sign", "returns the sign of a elementwise: -1, 0 or 1 for reals (±0 and NaN unchanged), a/|a| for complex (a signed zero for zero)",
		f1(scalar.CSign), scalar.Sign),

	// Exponentials and logarithms.
	Exp:   unaryC("Exp", "returns e^a elementwise", f1(scalar.CExp), scalar.Exp),
	Expm1: unaryC("Expm1", "returns e^a - 1 elementwise, accurate for small |a|", f1(scalar.CExpm1), scalar.Expm1),
	Log:   unaryC("Log", "returns the natural logarithm of a elementwise (-Inf at 0, NaN for negative reals; the principal value for complex)", f1(scalar.CLog), scalar.Log),
	Log1p: unaryC("Log1p", "returns log(1 + a) elementwise, accurate for small |a|", f1(scalar.CLog1p), math.Log1p),

	// Trigonometric and hyperbolic functions.
	Sin:  unaryC("Sin", "returns sin(a) elementwise", f1(scalar.CSin), math.Sin),
	Cos:  unaryC("Cos", "returns cos(a) elementwise", f1(scalar.CCos), math.Cos),
	Tan:  unaryC("Tan", "returns tan(a) elementwise", f1(scalar.CTan), scalar.Tan),
	Tanh: unaryC("Tanh", "returns tanh(a) elementwise", f1(scalar.CTanh), math.Tanh),
	Sinh: unaryC("Sinh", "returns sinh(a) elementwise", f1(scalar.CSinh), scalar.Sinh),
	Cosh: unaryC("Cosh", "returns cosh(a) elementwise", f1(scalar.CCosh), scalar.Cosh),
	Asin: unaryC("Asin", "returns arcsin(a) elementwise (NaN outside [-1, 1] for reals; the principal value for complex)", f1(scalar.CAsin), scalar.Asin),
	Acos: unaryC("Acos", "returns arccos(a) elementwise (NaN outside [-1, 1] for reals; the principal value for complex)", f1(scalar.CAcos), scalar.Acos),
	Atan: unaryC("Atan", "returns arctan(a) elementwise", f1(scalar.CAtan), math.Atan),

	// Activations, error functions and rounding (real dtypes).
	Sigmoid: unaryR("Sigmoid", "returns the logistic function 1/(1+e^-a) elementwise", scalar.Sigmoid),
	Relu:    unaryR("Relu", "returns max(a, 0) elementwise (NaN stays NaN)", scalar.Relu),
	Gelu:    unaryR("Gelu", "returns the Gaussian error linear unit a·Φ(a) = a/2·(1+erf(a/√2)) elementwise, accurate relative to its own value in the negative tail (NaN at -Inf, as PyTorch; within 3.6 ulps)", scalar.Gelu),
	Erf:     unaryR("Erf", "returns the error function erf(a) = 2/√π·∫₀^a e^(-t²) dt elementwise (±1 at ±Inf; within 1.1 ulps)", math.Erf),
	Erfc:    unaryR("Erfc", "returns the complementary error function erfc(a) = 1 - erf(a) elementwise, accurate relative to its own value where erf(a) is near 1 (0 at +Inf, 2 at -Inf; within 3.1 ulps)", math.Erfc),
	Floor:   unaryR("Floor", "returns the largest integer <= a elementwise", math.Floor),
	Ceil:    unaryR("Ceil", "returns the smallest integer >= a elementwise", math.Ceil),
	Round:   unaryR("Round", "returns a rounded to the nearest integer elementwise, halves to even (NumPy's round)", math.RoundToEven),
	Trunc:   unaryR("Trunc", "returns a rounded toward zero elementwise", math.Trunc),
	Clip: {Name: "Clip", Category: Unary, Args: []string{"a"}, Attr: BoundsAttr, Accept: Floats, Generated: true,
		Doc:     "returns min(max(a, lo), hi) elementwise (NumPy's clip: NaN stays NaN, lo > hi gives hi)",
		RefReal: func(x, _, lo, hi float64) float64 { return scalar.Clip(x, lo, hi) }},

	// Complex parts (real results) and complex numbers from their parts.
	Abs: unaryC("Abs", "returns the absolute value |a| elementwise; for complex inputs the modulus sqrt(re² + im²), computed without undue overflow, as a real tensor",
		func(x, _ complex128) complex128 { return complex(cmplx.Abs(x), 0) }, math.Abs).result(RealDType),
	Real: unaryC("Real", "returns the real part of a elementwise, as a real tensor (a copy for real inputs)",
		func(x, _ complex128) complex128 { return complex(real(x), 0) }, func(x float64) float64 { return x }).result(RealDType),
	Imag: unaryC("Imag", "returns the imaginary part of a elementwise, as a real tensor (zeros for real inputs, whatever their values)",
		func(x, _ complex128) complex128 { return complex(imag(x), 0) }, func(float64) float64 { return 0 }).result(RealDType),
	Angle: unaryC("Angle", "returns the argument atan2(im, re) of a elementwise in [-π, π], as a real tensor (for real inputs 0, or π for negative numbers and -0)",
		func(x, _ complex128) complex128 { return complex(scalar.Atan2(imag(x), real(x)), 0) }, scalar.Angle).result(RealDType),
	Complex: {Name: "Complex", Category: Binary, Args: []string{"re", "im"}, Accept: Floats, Result: ComplexDType, Generated: true,
		Doc: "returns the complex number re + i·im elementwise from real tensors re and im of one dtype, as a complex tensor of their precision (PyTorch's complex)",
		Ref: func(x, y, _, _ complex128) complex128 { return complex(real(x), real(y)) }},

	// Predicates and comparisons (bool results; the references give 1 for
	// true).
	IsNaN: unaryC("IsNaN", "reports elementwise whether a is NaN (for complex inputs, whether either part is)",
		pred(func(z complex128) bool { return math.IsNaN(real(z)) || math.IsNaN(imag(z)) }), nil).result(BoolDType),
	IsInf: unaryC("IsInf", "reports elementwise whether a is infinite (for complex inputs, whether either part is)",
		pred(func(z complex128) bool { return math.IsInf(real(z), 0) || math.IsInf(imag(z), 0) }), nil).result(BoolDType),
	IsFinite: unaryC("IsFinite", "reports elementwise whether a is finite: neither infinite nor NaN (for complex inputs, both parts)",
		pred(func(z complex128) bool { return isFinite(real(z)) && isFinite(imag(z)) }), nil).result(BoolDType),
	Equal: binaryC("Equal", "reports elementwise whether a == b (IEEE: NaN equals nothing)",
		func(x, y complex128) complex128 { return truth(x == y) }, nil).result(BoolDType).commutative(),
	NotEqual: binaryC("NotEqual", "reports elementwise whether a != b (true wherever either is NaN)",
		func(x, y complex128) complex128 { return truth(x != y) }, nil).result(BoolDType).commutative(),
	Less:         compareR("Less", "a < b", func(x, y float64) bool { return x < y }),
	LessEqual:    compareR("LessEqual", "a <= b", func(x, y float64) bool { return x <= y }),
	Greater:      compareR("Greater", "a > b", func(x, y float64) bool { return x > y }),
	GreaterEqual: compareR("GreaterEqual", "a >= b", func(x, y float64) bool { return x >= y }),

	// Logical operations on bool tensors (the references read 0 as false).
	LogicalNot: {Name: "LogicalNot", Category: Unary, Args: []string{"a"}, Accept: Bools, Generated: true,
		Doc: "returns !a elementwise",
		Ref: func(x, _, _, _ complex128) complex128 { return truth(x == 0) }},
	LogicalAnd: logical("LogicalAnd", "returns a && b elementwise", func(x, y bool) bool { return x && y }),
	LogicalOr:  logical("LogicalOr", "returns a || b elementwise", func(x, y bool) bool { return x || y }),
	LogicalXor: logical("LogicalXor", "returns a != b elementwise (exclusive or)", func(x, y bool) bool { return x != y }),

	Where: {Name: "Where", Category: Select, Args: []string{"mask", "a", "b"}, Accept: AllDTypes,
		Doc: "returns a where mask is true and b elsewhere, elementwise; mask (bool), a and b broadcast against each other as in NumPy"},

	Sum: {Name: "Sum", Category: Reduction, Args: []string{"a"}, Attr: AxesAttr, Accept: Numbers, Generated: true,
		Doc: "returns the sum of a over the given axes (any order, negative axes count from the end; none means every axis, giving a rank-0 tensor); the result has a's shape without those axes",
		Ref: func(x, y, _, _ complex128) complex128 { return x + y }, RefReduce: refSum},
	Prod:      reduction("Prod", "returns the product of a over the given axes (1 for an empty set)", Numbers, AxesAttr, SameDType).ref(refProd),
	Mean:      reduction("Mean", "returns the arithmetic mean of a over the given axes (NaN for an empty set)", Numbers, AxesAttr, SameDType).ref(refMean),
	Var:       reduction("Var", "returns the variance of a over the given axes, sum |a - mean|² / (n - ddof) for the n elements reduced (ddof 0: the population variance, 1: the unbiased sample variance; n <= ddof gives +Inf or NaN as in NumPy); the result is real, also for complex a", Numbers, DdofAttr, RealDType).ref(refVar),
	Std:       reduction("Std", "returns the standard deviation of a over the given axes, the square root of Var with the same ddof; the result is real, also for complex a", Numbers, DdofAttr, RealDType).ref(refStd),
	Max:       reduction("Max", "returns the maximum of a over the given axes (NaN if any element reduced is NaN, as NumPy's max; reducing an empty set is an error)", Floats, AxesAttr, SameDType).nonEmpty().ref(refMax),
	Min:       reduction("Min", "returns the minimum of a over the given axes (NaN if any element reduced is NaN, as NumPy's min; reducing an empty set is an error)", Floats, AxesAttr, SameDType).nonEmpty().ref(refMin),
	LogSumExp: reduction("LogSumExp", "returns log Σ exp(a) over the given axes, computed as m + log Σ exp(a - m) with m the maximum so that it neither overflows nor underflows (-Inf for an empty set)", Floats, AxesAttr, SameDType).ref(refLogSumExp),
	Norm:      reduction("Norm", "returns the vector norm of order ord of a over the given axes, as NumPy's vector norms: (Σ |a|^ord)^(1/ord) for finite non-zero ord (a negative order with a zero element gives 0), max |a| for ord = +Inf, min |a| for ord = -Inf (a non-empty set only), the number of non-zero elements for ord = 0; ord 2 over both axes of a matrix is its Frobenius norm. Order 2 scales the sum of squares so that no intermediate overflows or underflows. The result is real, also for complex a", Numbers, OrdAttr, RealDType).ref(refNorm),
	All:       reduction("All", "reports whether every element of a over the given axes is true (true for an empty set)", Bools, AxesAttr, SameDType).ref(refAll),
	Any:       reduction("Any", "reports whether any element of a over the given axes is true (false for an empty set)", Bools, AxesAttr, SameDType).ref(refAny),
	ArgMax:    reduction("ArgMax", "returns the index along axis of the first maximum of a (of the first NaN, if any, as NumPy's argmax); the result has a's shape without axis (reducing an empty axis is an error)", Floats, AxisAttr, IndexDType).nonEmpty().ref(refArgMax),
	ArgMin:    reduction("ArgMin", "returns the index along axis of the first minimum of a (of the first NaN, if any, as NumPy's argmin); the result has a's shape without axis (reducing an empty axis is an error)", Floats, AxisAttr, IndexDType).nonEmpty().ref(refArgMin),
	CumSum: {Name: "CumSum", Category: Scan, Args: []string{"a"}, Attr: AxisAttr, Accept: Numbers, Generated: true,
		Doc:       "returns the cumulative sum of a along axis, out[.., k, ..] = Σ_{j<=k} a[.., j, ..], with a's shape",
		RefReduce: refSum},
	CumProd: {Name: "CumProd", Category: Scan, Args: []string{"a"}, Attr: AxisAttr, Accept: Numbers, Generated: true,
		Doc:       "returns the cumulative product of a along axis, out[.., k, ..] = Π_{j<=k} a[.., j, ..], with a's shape",
		RefReduce: refProd},
	Matmul: {Name: "Matmul", Category: Contraction, Args: []string{"a", "b"}, Accept: Numbers},
	Einsum: {Name: "Einsum", Category: Contraction, Attr: SubscriptsAttr, Accept: Numbers},
	Permute: {Name: "Permute", Category: Structural, Args: []string{"a"}, Attr: PermAttr, Accept: AllDTypes,
		Doc: "returns a with its axes reordered: axis d of the result is axis perm[d] of a"},
	Reshape: {Name: "Reshape", Category: Structural, Args: []string{"a"}, Attr: ShapeAttr, Accept: AllDTypes,
		Doc: "returns a with a new shape and the same column-major element order"},
	Squeeze:   structural("Squeeze", AxesAttr, "returns a without the given axes, which have extent 1 (every axis of extent 1 when none are given)"),
	Unsqueeze: structural("Unsqueeze", AxesAttr, "returns a with new axes of extent 1 at the given positions of the result (NumPy's expand_dims)"),
	Flatten:   structural("Flatten", NoAttr, "returns a as one axis of its elements in column-major order"),
	Concatenate: {Name: "Concatenate", Category: Structural, Attr: IntsAttr, Accept: AllDTypes,
		Doc: "joins the operands along an existing axis (NumPy's concatenate): their shapes agree except along that axis"},
	Stack: {Name: "Stack", Category: Structural, Attr: IntsAttr, Accept: AllDTypes,
		Doc: "joins the operands, of one shape, along a new axis (NumPy's stack)"},
	Split:      structural("Split", IntsAttr, "returns one part of a split of a along an axis: the elements in a range of that axis (NumPy's split gives every part)"),
	Tile:       structural("Tile", IntsAttr, "returns a repeated as a whole along every axis (NumPy's tile)"),
	Repeat:     structural("Repeat", IntsAttr, "returns a with every element repeated along an axis, by one count or a count per element (NumPy's repeat)"),
	Pad:        structural("Pad", IntsAttr, "returns a surrounded by pads of given widths before and after every axis, filled with a value or from a's edges (NumPy's pad in modes constant, edge, reflect, symmetric and wrap)"),
	Tril:       structural("Tril", IntsAttr, "returns a with the elements above diagonal k of every matrix (the first two axes) set to zero (NumPy's tril)"),
	Triu:       structural("Triu", IntsAttr, "returns a with the elements below diagonal k of every matrix (the first two axes) set to zero (NumPy's triu)"),
	Roll:       structural("Roll", IntsAttr, "returns a rotated along the given axes by the given shifts (NumPy's roll)"),
	Diag:       structural("Diag", IntsAttr, "returns the square matrix with vector a on diagonal k, or diagonal k of matrix a as a vector (NumPy's diag)"),
	Contiguous: structural("Contiguous", IntsAttr, "returns a copy of a stored compact in column-major or row-major order"),
	Take: {Name: "Take", Category: Indexing, Args: []string{"a", "index"}, Attr: IntsAttr, Accept: AllDTypes,
		Doc: "returns the slices of a along an axis at the positions a 1-D int64 index lists (NumPy's take, PyTorch's index_select)"},
	Gather: {Name: "Gather", Category: Indexing, Args: []string{"a", "index"}, Attr: IntsAttr, Accept: AllDTypes,
		Doc: "returns the elements of a whose coordinate along an axis an int64 index of the result's shape gives (PyTorch's gather, NumPy's take_along_axis)"},
	ScatterAdd: {Name: "ScatterAdd", Category: Indexing, Args: []string{"a", "index", "src"}, Attr: IntsAttr, Accept: Numbers | Indices,
		Doc: "returns a plus the elements of src added at the coordinates along an axis an int64 index gives (PyTorch's scatter_add)"},
	MaskedSelect: {Name: "MaskedSelect", Category: Indexing, Args: []string{"a", "mask"}, Attr: IntsAttr, Accept: AllDTypes,
		Doc: "returns the elements of a where a bool mask, broadcast against a, is true, as a vector in column-major order (PyTorch's masked_select)"},

	// Linear algebra (one operation per factor of a decomposition).
	Cholesky:        linalgOp("Cholesky", "returns the Cholesky factor of every Hermitian positive definite matrix of a: L with a = L·Lᴴ from its lower triangle, or U with a = Uᴴ·U from its upper one (Ints [upper])", IntsAttr, SameDType, "a"),
	Solve:           linalgOp("Solve", "returns X with A·X = B for every square matrix of a and the matching matrix of b", NoAttr, SameDType, "a", "b"),
	SolveTriangular: linalgOp("SolveTriangular", "returns X with A·X = B (or X·A = B) for triangular A (Ints [upper, left, unit])", IntsAttr, SameDType, "a", "b"),
	Inv:             linalgOp("Inv", "returns the inverse of every square matrix of a", NoAttr, SameDType, "a"),
	Det:             linalgOp("Det", "returns the determinant of every square matrix of a", NoAttr, SameDType, "a"),
	SlogDetSign:     linalgOp("SlogDetSign", "returns the sign of the determinant of every square matrix of a (a unit complex number for complex a)", NoAttr, SameDType, "a"),
	SlogDetLogAbs:   linalgOp("SlogDetLogAbs", "returns log |det| of every square matrix of a", NoAttr, RealDType, "a"),
	Expm:            linalgOp("Expm", "returns the matrix exponential of every square matrix of a", NoAttr, SameDType, "a"),
	EighValues:      linalgOp("EighValues", "returns the eigenvalues, real and ascending, of every Hermitian matrix of a (Ints [upper]: the triangle read)", IntsAttr, RealDType, "a"),
	EighVectors:     linalgOp("EighVectors", "returns the orthonormal eigenvectors (columns, in the order of EighValues) of every Hermitian matrix of a", IntsAttr, SameDType, "a"),
	SVDU:            linalgOp("SVDU", "returns U (m, k) of the thin singular value decomposition a = U·diag(S)·Vh, k = min(m, n)", NoAttr, SameDType, "a"),
	SVDS:            linalgOp("SVDS", "returns the singular values S (k), real and descending, of every matrix of a", NoAttr, RealDType, "a"),
	SVDVh:           linalgOp("SVDVh", "returns Vh (k, n) of the thin singular value decomposition a = U·diag(S)·Vh", NoAttr, SameDType, "a"),
	QRQ:             linalgOp("QRQ", "returns Q (m, k) with orthonormal columns of the reduced QR decomposition a = Q·R, diag(R) real (non-negative with Ints [positive])", IntsAttr, SameDType, "a"),
	QRR:             linalgOp("QRR", "returns the upper triangular R (k, n) of the reduced QR decomposition a = Q·R", IntsAttr, SameDType, "a"),
	Convert: {Name: "Convert", Category: Data, Args: []string{"a"}, Attr: DTypeAttr, Accept: AllDTypes, Result: AttrDType,
		Ref: func(x, _, _, _ complex128) complex128 { return x }, // the value, in the target dtype
		Doc: "returns a's elements as another dtype (Attrs.Ints[0]), as NumPy's astype: complex to real keeps the real part, floating to int64 truncates toward zero, anything to bool tests for non-zero, bool to a number gives 0 or 1"},
	GaugeCheck: linalgOp("GaugeCheck", "returns x, failing the run with ErrGauge where |g| > tol·scale (Alpha: tol): the check of package ad that a loss does not depend on the phases of singular or eigen vectors", AlphaAttr, SameDType, "x", "g", "scale"),
	Pinv:       linalgOp("Pinv", "returns the pseudo-inverse (n, m) of every matrix of a, singular values at most rcond·s_max (Alpha) taken as zero", AlphaAttr, SameDType, "a"),
}

// structural is the entry of a structural operation on one tensor of any
// dtype.
func structural(name string, attr Attr, doc string) Info {
	return Info{Name: name, Category: Structural, Args: []string{"a"}, Attr: attr, Accept: AllDTypes, Doc: doc}
}

// unaryC is a generated elementwise unary entry for every arithmetic
// dtype: ref(x, alpha) for complex inputs, re(x) for real ones (nil: the
// real part of ref).
func unaryC(name, doc string, ref func(x, alpha complex128) complex128, re func(float64) float64) Info {
	in := Info{Name: name, Category: Unary, Args: []string{"a"}, Accept: Numbers, Generated: true, Doc: doc,
		Ref: func(x, _, a, _ complex128) complex128 { return ref(x, a) }}
	if re != nil {
		in.RefReal = func(x, _, _, _ float64) float64 { return re(x) }
	}
	return in
}

// unaryR is a generated elementwise unary entry for real dtypes only.
func unaryR(name, doc string, re func(float64) float64) Info {
	return Info{Name: name, Category: Unary, Args: []string{"a"}, Accept: Floats, Generated: true, Doc: doc,
		RefReal: func(x, _, _, _ float64) float64 { return re(x) }}
}

// binaryC is a generated elementwise binary entry for every arithmetic
// dtype (re nil: the real part of ref for real inputs).
func binaryC(name, doc string, ref func(x, y complex128) complex128, re func(x, y float64) float64) Info {
	in := Info{Name: name, Category: Binary, Args: []string{"a", "b"}, Accept: Numbers, Generated: true, Doc: doc,
		Ref: func(x, y, _, _ complex128) complex128 { return ref(x, y) }}
	if re != nil {
		in.RefReal = func(x, y, _, _ float64) float64 { return re(x, y) }
	}
	return in
}

// binaryR is a generated elementwise binary entry for real dtypes only.
func binaryR(name, doc string, re func(x, y float64) float64) Info {
	return Info{Name: name, Category: Binary, Args: []string{"a", "b"}, Accept: Floats, Generated: true, Doc: doc,
		RefReal: func(x, y, _, _ float64) float64 { return re(x, y) }}
}

// f1 adapts a one-argument complex function to unaryC's reference.
func f1(f func(complex128) complex128) func(x, _ complex128) complex128 {
	return func(x, _ complex128) complex128 { return f(x) }
}

// compareR is a generated comparison of real inputs with a bool result.
func compareR(name, rel string, f func(x, y float64) bool) Info {
	return Info{Name: name, Category: Binary, Args: []string{"a", "b"}, Accept: Floats, Generated: true, Result: BoolDType,
		Doc:     "reports elementwise whether " + rel + " (false wherever either is NaN)",
		RefReal: func(x, y, _, _ float64) float64 { return real(truth(f(x, y))) }}
}

// logical is a generated binary operation on bool tensors.
func logical(name, doc string, f func(x, y bool) bool) Info {
	return Info{Name: name, Category: Binary, Args: []string{"a", "b"}, Accept: Bools, Generated: true, Doc: doc, Commutative: true,
		Ref: func(x, y, _, _ complex128) complex128 { return truth(f(x != 0, y != 0)) }}
}

// pred adapts a complex predicate to unaryC's reference.
func pred(f func(complex128) bool) func(x, _ complex128) complex128 {
	return func(x, _ complex128) complex128 { return truth(f(x)) }
}

func isFinite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }

// truth is 1 for true and 0 for false, the references' encoding of bools.
func truth(b bool) complex128 {
	if b {
		return 1
	}
	return 0
}

// reduction is a generated reduction entry.
func reduction(name, doc string, accept DTypeSet, attr Attr, r Result) Info {
	return Info{Name: name, Category: Reduction, Args: []string{"a"}, Attr: attr, Accept: accept, Result: r, Generated: true, Doc: doc}
}

func (in Info) nonEmpty() Info { in.NonEmpty = true; return in }

func (in Info) ref(f func(xs []complex128, p float64) complex128) Info { in.RefReduce = f; return in }

func (in Info) withAttr(a Attr) Info { in.Attr = a; return in }
func (in Info) commutative() Info    { in.Commutative = true; return in }
func (in Info) result(r Result) Info { in.Result = r; return in }

// linalgOp is the entry of a linear-algebra operation on numbers.
func linalgOp(name, doc string, attr Attr, r Result, args ...string) Info {
	return Info{Name: name, Category: Linalg, Args: args, Attr: attr, Accept: Numbers, Result: r, Doc: doc}
}
