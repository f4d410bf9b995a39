// Package backend is the contract between package tenferro and the engines
// that execute its operations (package cpu; a GPU engine would be
// another). Users never need it: they build an engine with package cpu and
// pass it to the operations of package tenferro, which validate every
// argument and then call the methods below.
//
// # Core and capabilities
//
// An [Engine] has a small core (claim and release) and hands out the
// kernels of one element type T as a [Kernels] value: [Core] (allocation
// and copy) and the capability interfaces it supports for T ([Elementwise],
// [Reduction], [Contraction], [Fusion], [Index], [Linalg]), nil where it has none. An
// operation whose engine lacks the capability it needs fails with an error
// of kind ErrUnsupported before anything is written.
//
// # Preconditions
//
// Methods receive [View] descriptors that the caller has validated: shapes
// fit the operation (as the catalog in internal/op defines), every view
// stays inside its Data, destinations have distinct elements and overlap
// no input except as the caller's aliasing rule allows (the very same view,
// for elementwise operations). Methods may return errors only for limits of
// their own (for example a rank a kernel cannot walk); they never see
// invalid user input.
package backend

import (
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Number is the set of arithmetic element types.
type Number interface {
	float32 | float64 | complex64 | complex128
}

// Elem is the set of element types a tensor can hold: the arithmetic types,
// the index type int64 and bool.
type Elem interface {
	Number | int64 | bool
}

// View describes a strided array: element (i0, ..., i_{r-1}) of a view of
// rank r is Data[Off + Σ_d i_d·Strides[d]]. Strides may be zero (broadcast)
// or negative (reversed). Methods receive views by pointer (a tensor holds
// its view, so passing one costs nothing); the view and its slices belong
// to the caller and are only read during the call.
type View[T Elem] struct {
	Data    []T
	Off     int
	Shape   []int
	Strides []int
}

// Engine is the core of the contract.
type Engine interface {
	// Begin claims the engine for operation op. It fails with an error of
	// kind ErrEngineBusy while another goroutine holds the engine and
	// ErrClosed after Close. Every successful Begin is paired with End.
	Begin(op string) error
	// End returns the claim of a successful Begin.
	End()
	// Kernels returns the engine's kernels for element type dt: a
	// *Kernels[T] for dt's Go type T (see DTypeOf), or nil when the engine
	// has none for dt.
	Kernels(dt op.DType) any
	// MemoryBudget returns the bytes one operation may allocate (outputs,
	// intermediates, program slots); math.MaxInt64 for no budget. The
	// operations check it before they allocate.
	MemoryBudget() int64
}

// Marker is what an engine that profiles implements besides Engine: a
// runner of many steps under one Begin (a prepared program) names the
// step it starts with Mark, so profiles and execution traces attribute
// the time to it. Marking reports whether marks are wanted now (profile
// labels on, or an execution trace running); callers check it once per
// Begin and call Mark only then.
type Marker interface {
	Marking() bool
	// Mark says that the operation running now is op, until the next Mark
	// or End.
	Mark(op string)
}

// Kernels are an engine's kernels for element type T: Core always, each
// capability when the engine supports it for T (nil otherwise). An engine
// builds them once; looking one up is a field load.
type Kernels[T Elem] struct {
	Core        Core[T]
	Elementwise Elementwise[T]
	Reduction   Reduction[T]
	Contraction Contraction[T]
	Fusion      Fusion[T]
	Index       Index[T]
	Linalg      Linalg[T]
}

// Core is what every engine provides for every element type it supports.
type Core[T Elem] interface {
	// Alloc returns storage for n elements, from the engine's buffer pool
	// when one fits; its contents are unspecified.
	Alloc(n int) *Storage[T]
	// Copy sets dst = src elementwise (equal shapes).
	Copy(dst, src *View[T]) error
	// Fill sets every element of dst to v.
	Fill(dst *View[T], v T) error
}

// Elementwise runs the catalog's elementwise operations (categories Unary
// and Binary).
type Elementwise[T Elem] interface {
	// Unary sets dst = k(x) elementwise; alpha and beta are the attributes
	// of operations that take them (the factor of Scale, the bounds of
	// Clip). dst has x's shape.
	Unary(k op.Kind, alpha, beta T, dst, x *View[T]) error
	// Binary sets dst = k(x, y) elementwise. x and y broadcast against dst
	// as NumPy broadcasts: their axes align with dst's last axes, and a
	// missing leading axis or an extent of 1 repeats along dst's extent.
	Binary(k op.Kind, dst, x, y *View[T]) error
	// Predicate sets dst = k(x) elementwise for the predicates (IsNaN,
	// IsInf, IsFinite). dst has x's shape.
	Predicate(k op.Kind, dst *View[bool], x *View[T]) error
	// Compare sets dst = x k y elementwise for the comparisons (Equal,
	// NotEqual, Less, ...), x and y broadcast against dst as in Binary.
	Compare(k op.Kind, dst *View[bool], x, y *View[T]) error
	// Where sets dst = mask ? x : y elementwise, the three broadcast
	// against dst as in Binary.
	Where(dst *View[T], mask *View[bool], x, y *View[T]) error
}

// Reduction runs the catalog's reductions and scans.
type Reduction[T Elem] interface {
	// Reduce sets dst to reduction k of src over the axes whose bits are
	// set in axes; dst has src's shape without those axes (or src's rank
	// with extent 1 on them, NumPy's keepdims) and does not overlap src. p is k's attribute: the ddof of Var and Std, the order
	// of Norm. Every reduction with a result of dtype T runs here (for bool
	// tensors All and Any), and for real T also Var, Std and Norm.
	Reduce(k op.Kind, p float64, dst, src *View[T], axes uint64) error
	// ReduceReal is Reduce for the reductions with a real result (Var,
	// Std, Norm) and any T: dst is a *View[R], R the real type of T
	// (float32 for complex64, float64 for complex128, T itself for real
	// T).
	ReduceReal(k op.Kind, p float64, dst any, src *View[T], axes uint64) error
	// Arg sets dst to ArgMax or ArgMin of src along axis: dst has src's
	// shape without axis (or with extent 1 there), which is not empty.
	Arg(k op.Kind, dst *View[int64], src *View[T], axis int) error
	// Scan sets dst to CumSum or CumProd of src along axis; dst has src's
	// shape and may be src itself (an exact alias), or else does not
	// overlap it.
	Scan(k op.Kind, dst, src *View[T], axis int) error
}

// Contraction runs GEMM-backed operations, accumulating into the
// destination: dst = alpha·result + beta·dst (beta = 0 never reads dst,
// so NaNs in it do not propagate).
type Contraction[T Elem] interface {
	// Matmul computes the batched product of a (m, k, batch...) and b (k,
	// n, batch...) into dst (m, n, batch...); batch extents of a and b
	// equal dst's or are 1 (broadcast).
	Matmul(dst, a, b *View[T], alpha, beta T) error
	// Einsum evaluates plan on operands (of the plan's shapes) into dst (of
	// its output shape). Intermediates come from the engine's pool.
	Einsum(dst *View[T], plan *einsum.Plan, operands []*View[T], alpha, beta T) error
	// Operands returns engine-owned room for n operand views, so that
	// passing an operand list allocates nothing. It is valid until the
	// next call and is used by the goroutine holding the engine.
	Operands(n int) []*View[T]
	// Plans returns the engine's plan cache.
	Plans() PlanStore
}

// PlanStore is a concurrent map from plan keys to immutable plans.
type PlanStore interface {
	Get(key string) (any, bool)
	// Put stores plan unless key is present and returns the stored plan.
	Put(key string, plan any) any
}

// Fusion evaluates chains of elementwise operations in one pass.
type Fusion[T Elem] interface {
	// Fuse checks code for nin inputs (every Load in range, the stack
	// within MaxFusedStack, exactly one value left, only elementwise
	// catalog operations) and returns a kernel bound to the engine. The
	// kernel owns its scratch: it is used by the goroutine holding the
	// engine, one call at a time, and Eval allocates nothing.
	Fuse(code []FusedInstr, nin int) (FusedKernel[T], error)
}

// FusedKernel evaluates one fused program.
type FusedKernel[T Elem] interface {
	// Eval sets dst[i] = code(in[0][i], ..., in[n-1][i]) for every index i
	// of dst's shape. Inputs broadcast against dst as in Binary.
	// dst overlaps no input unless it is the very same view.
	Eval(dst *View[T], in []*View[T]) error
	// Reduce sets dst to the reduction kind (Sum, Mean, Prod, and for
	// real T Max and Min) over the axes in mask of code(in[0], ...,
	// in[n-1]), evaluated at the broadcast of the inputs' shapes, without
	// storing the program's result: a reduction fused with the elementwise
	// tree that feeds it. dst has that shape without the masked axes, or
	// with extent 1 on them (keepdims); it overlaps no input. When store
	// is not nil the program's result is also written there (store has the
	// evaluation shape and overlaps neither dst nor an input): one pass
	// for a value that is stored and reduced.
	Reduce(kind op.Kind, dst, store *View[T], in []*View[T], mask uint64) error
}

// FusedInstr is one instruction of a fused program, which runs on a stack
// of values (one per output element): a Load pushes input Arg; otherwise
// Op, an elementwise catalog operation, pops its operands (b then a for
// binary operations) and pushes its result, with Alpha and Beta as its
// attributes.
type FusedInstr struct {
	Load        bool
	Arg         int
	Op          op.Kind
	Alpha, Beta complex128
}

// Limits of fused programs that every Fusion accepts.
const (
	MaxFusedInputs = 8 // inputs of one program
	MaxFusedStack  = 8 // stack depth of one program
)

// FromComplex converts an attribute given as a complex128 (alpha of Scale,
// of Accumulate, of a fused instruction) to T: the real part for real T.
func FromComplex[T Number](c complex128) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(float32(real(c))).(T)
	case float64:
		return any(real(c)).(T)
	case complex64:
		return any(complex64(c)).(T)
	}
	return any(c).(T)
}

// ToComplex widens x to complex128 (a zero imaginary part for real T).
func ToComplex[T Number](x T) complex128 {
	switch v := any(x).(type) {
	case float32:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex64:
		return complex128(v)
	}
	return any(x).(complex128)
}

// KernelsOf returns e's kernels for T, or nil when e has none.
func KernelsOf[T Elem](e Engine) *Kernels[T] {
	ks, _ := e.Kernels(DTypeOf[T]()).(*Kernels[T])
	return ks
}
