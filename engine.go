package tenferro

// Engine is the backend contract: the value every operation borrows to do
// its work. Users build one once (see package cpu), pass it as the first
// argument of every operation, and use it from one goroutine at a time.
//
// The public operations in this package validate their arguments, claim the
// engine with Begin, obtain output storage with Alloc, run the validated
// operation through the engine's methods, and End the claim. Backends
// implement the methods below; they may assume every argument was
// validated: same element type T throughout, shapes that fit, live tensors,
// destinations that do not overlap inputs.
type Engine interface {
	// Begin claims the engine for operation op. It returns an error of kind
	// ErrEngineBusy when another operation holds the engine (concurrent use
	// from two goroutines) and ErrClosed after the engine was closed.
	Begin(op string) error
	// End returns the claim taken by a successful Begin.
	End()
	// Alloc returns a *Storage[T] for n elements of dt, boxed in an
	// interface; its contents are unspecified. Storage from the engine's
	// buffer pool is reused when one fits.
	Alloc(dt DType, n int) any
	// Matmul computes dst = a·b for *Tensor[T] operands of one T: a is
	// (m, k, batch...), b is (k, n, batch...), dst is (m, n, batch...);
	// batch extents of a and b are equal to dst's or broadcast with stride 0.
	Matmul(dst, a, b any) error
	// Copy computes dst = src elementwise for *Tensor[T] of equal shapes.
	Copy(dst, src any) error

	Contractor
	Elementwise
}

// claim begins op on e, translating a nil engine into an error.
func claim(e Engine, op string) error {
	if e == nil {
		return newError(op, "engine", "an engine", "nil", ErrArgument)
	}
	return e.Begin(op)
}

// alloc returns a compact output tensor of shape from e's pool.
func alloc[T Scalar](e Engine, shape []int) *Tensor[T] {
	st := e.Alloc(DTypeOf[T](), Numel(shape)).(*Storage[T])
	return WrapStorage(st, shape)
}

// produce claims e for op, takes an output of the given shape from e's
// pool and lets fill compute it; on failure the output goes back to the
// pool. It is the shared tail of every operation that returns a tensor.
func produce[T Scalar](e Engine, op string, shape []int, fill func(out *Tensor[T]) error) (*Tensor[T], error) {
	if err := claim(e, op); err != nil {
		return nil, err
	}
	defer e.End()
	out := alloc[T](e, shape)
	if err := fill(out); err != nil {
		out.Release()
		return nil, err
	}
	return out, nil
}

// NewTensor returns a compact tensor of the given shape whose storage comes
// from e's buffer pool. Its contents are unspecified (recycled storage is
// not cleared). Release it to give the storage back.
func NewTensor[T Scalar](e Engine, shape ...int) (*Tensor[T], error) {
	if _, err := checkShape("NewTensor", shape); err != nil {
		return nil, err
	}
	if err := claim(e, "NewTensor"); err != nil {
		return nil, err
	}
	defer e.End()
	return alloc[T](e, shape), nil
}

// Contiguous returns a compact column-major copy of t whose storage comes
// from e's buffer pool; it is how a strided view is materialized.
func Contiguous[T Scalar](e Engine, t *Tensor[T]) (*Tensor[T], error) {
	if err := t.check("Contiguous", "t"); err != nil {
		return nil, err
	}
	if err := checkRank("Contiguous", "t", t); err != nil {
		return nil, err
	}
	return produce(e, "Contiguous", t.shape, func(out *Tensor[T]) error { return e.Copy(out, t) })
}

// CopyInto computes dst = src elementwise. Shapes must be equal; dst must
// not overlap src unless it is the very same view.
func CopyInto[T Scalar](e Engine, dst, src *Tensor[T]) error {
	if err := dst.check("CopyInto", "dst"); err != nil {
		return err
	}
	if err := src.check("CopyInto", "src"); err != nil {
		return err
	}
	if !equalInts(dst.shape, src.shape) {
		return shapeError("CopyInto", "src", dst.shape, src.shape)
	}
	if err := checkRank("CopyInto", "src", src); err != nil {
		return err
	}
	if err := checkWritable("CopyInto", dst); err != nil {
		return err
	}
	if overlaps(dst, src) {
		return newError("CopyInto", "dst", "storage disjoint from src", "an overlapping view", ErrAlias)
	}
	if err := claim(e, "CopyInto"); err != nil {
		return err
	}
	defer e.End()
	return e.Copy(dst, src)
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func shapeError(op, arg string, want, got []int) error {
	return &Error{Op: op, Arg: arg, Expected: "shape " + fmtInts(want), Actual: "shape " + fmtInts(got), Kind: ErrShape}
}
