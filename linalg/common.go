package linalg

import (
	"slices"
	"sync"
	"unsafe"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Option modifies an operation: [Upper], [Right], [UnitDiagonal],
// [Complete], [PositiveDiagonal].
type Option uint16

const (
	// Upper selects the upper triangle: Cholesky returns U with A = Uᴴ·U,
	// CholeskySolve takes that U.
	Upper Option = 1 << iota
	// Right makes SolveTriangular solve X·A = B instead of A·X = B.
	Right
	// UnitDiagonal makes SolveTriangular take A's diagonal as all ones
	// (and not read it).
	UnitDiagonal
	// Complete makes QR and LQ return the square unitary factor (mode
	// "complete" of numpy.linalg.qr) instead of the reduced one, and SVD
	// the full U and Vᴴ (full_matrices=True).
	Complete
	// PositiveDiagonal makes QR and LQ return a triangular factor with a
	// real, non-negative diagonal, the unitary factor's columns (rows)
	// scaled to match: the factorization is then unique for a matrix of
	// full rank, a fixed gauge for tensor networks and for derivatives.
	PositiveDiagonal
)

// flags folds opts into one set, rejecting those that op does not take.
func flags(name string, allowed Option, opts []Option) (Option, error) {
	var f Option
	for _, o := range opts {
		if o&^allowed != 0 || o == 0 {
			return 0, tf.Errorf(tf.ErrArgument, name, "opts", "options this operation takes", "option %d", int(o))
		}
		f |= o
	}
	return f, nil
}

// args is the room in which an operation builds its backend views, so
// that passing them allocates nothing; pooled per dtype.
type args[T tf.Scalar] struct {
	v     [4]backend.View[T]
	piv   backend.View[int64]
	r32   backend.View[float32]
	r64   backend.View[float64]
	dims  [4][2 * (tf.MaxRank + 1)]int
	shape [tf.MaxRank]int
}

var argPools [4]sync.Pool

func dtIndex[T tf.Scalar]() int {
	switch tf.DTypeOf[T]() {
	case tf.Float32:
		return 0
	case tf.Float64:
		return 1
	case tf.Complex64:
		return 2
	}
	return 3
}

func getArgs[T tf.Scalar]() *args[T] {
	a, _ := argPools[dtIndex[T]()].Get().(*args[T])
	if a == nil {
		a = new(args[T])
	}
	return a
}

// put drops the references to tensors' data and returns a to its pool.
func (a *args[T]) put() {
	a.v = [4]backend.View[T]{}
	a.piv, a.r32, a.r64 = backend.View[int64]{}, backend.View[float32]{}, backend.View[float64]{}
	argPools[dtIndex[T]()].Put(a)
}

// view fills v with t's view.
func view[E backend.Elem](v *backend.View[E], t *tf.Tensor[E]) *backend.View[E] {
	*v = backend.View[E]{Data: t.Storage(), Off: t.Offset(), Shape: t.Shape(), Strides: t.Strides()}
	return v
}

// realOf checks that R is the real dtype of T, for the real result arg.
func realOf[R tf.Float, T tf.Scalar](name, arg string) error {
	if want := tf.DTypeOf[T]().Real(); tf.DTypeOf[R]() != want {
		return tf.Errorf(tf.ErrDType, name, arg, "the real dtype of a, "+want.String(), "%s", tf.DTypeOf[R]())
	}
	return nil
}

// realView fills the real view of a with t's view and returns it as the
// backend's real operand (a *backend.View[float32] or [float64]).
func realView[R tf.Float, T tf.Scalar](a *args[T], t *tf.Tensor[R]) any {
	if r32, ok := any(t).(*tf.Tensor[float32]); ok {
		return view(&a.r32, r32)
	}
	return view(&a.r64, any(t).(*tf.Tensor[float64]))
}

// live checks that t is a usable tensor.
func live[E tf.Elem](name, arg string, t *tf.Tensor[E]) error {
	if t == nil {
		return tf.Errorf(tf.ErrArgument, name, arg, "a tensor", "nil")
	}
	if !t.Valid() {
		if t.Storage() == nil && t.Shape() == nil {
			return tf.Errorf(tf.ErrArgument, name, arg, "a tensor made by a constructor or an operation", "the zero Tensor")
		}
		return tf.Errorf(tf.ErrReleased, name, arg, "a live tensor", "a released tensor")
	}
	return nil
}

// matrices checks that t is live and a batch of matrices (rank ≥ 2),
// square when square is set, and returns its matrix extents.
func matrices[E tf.Elem](name, arg string, t *tf.Tensor[E], square bool) (m, n int, err error) {
	if err := live(name, arg, t); err != nil {
		return 0, 0, err
	}
	s := t.Shape()
	if len(s) < 2 {
		return 0, 0, tf.Errorf(tf.ErrShape, name, arg, "a matrix or a batch of matrices (rank >= 2, batch axes last)", "shape %s", op.FmtInts(s))
	}
	if square && s[0] != s[1] {
		return 0, 0, tf.Errorf(tf.ErrShape, name, arg, "square matrices (n, n, batch...)", "shape %s", op.FmtInts(s))
	}
	return s[0], s[1], nil
}

// checkDst applies the destination rule: dst is live, has shape want and
// distinct elements, and overlaps none of the inputs' storage.
func checkDst[E tf.Elem](name, arg string, dst *tf.Tensor[E], want []int, ins ...span) error {
	if err := live(name, arg, dst); err != nil {
		return err
	}
	if !slices.Equal(dst.Shape(), want) {
		return tf.Errorf(tf.ErrShape, name, arg, "shape "+op.FmtInts(want), "shape %s", op.FmtInts(dst.Shape()))
	}
	if !op.Distinct(dst.Shape(), dst.Strides()) {
		return tf.Errorf(tf.ErrAlias, name, arg, "a view whose elements are distinct (no zero or overlapping strides)", "strides %s for shape %s", op.FmtInts(dst.Strides()), op.FmtInts(dst.Shape()))
	}
	d := spanOf(arg, dst)
	for _, in := range ins {
		if d.overlaps(in) {
			return tf.Errorf(tf.ErrAlias, name, arg, "storage disjoint from "+in.arg, "a view overlapping %s", in.arg)
		}
	}
	return nil
}

// span is the byte range a view reaches.
type span struct {
	arg    string
	lo, hi uintptr
	ok     bool
}

func spanOf[E tf.Elem](arg string, t *tf.Tensor[E]) span {
	buf := t.Storage()
	lo, hi, ok := op.Span(t.Shape(), t.Strides(), t.Offset())
	if !ok || len(buf) == 0 {
		return span{arg: arg}
	}
	var z E
	base, size := uintptr(unsafe.Pointer(unsafe.SliceData(buf))), unsafe.Sizeof(z)
	return span{arg: arg, lo: base + uintptr(lo)*size, hi: base + uintptr(hi+1)*size - 1, ok: true}
}

func (s span) overlaps(o span) bool { return s.ok && o.ok && s.lo <= o.hi && o.lo <= s.hi }

// claim claims e for operation name and returns its linear algebra kernels
// for T; the caller ends the claim.
// session is one claimed call: the engine's linear algebra and a set of
// pooled operand views, both given back by end.
type session[T tf.Scalar] struct {
	be backend.Engine
	k  backend.Linalg[T]
	ar *args[T]
}

// begin claims e for operation name (see claim) and takes operand views
// from the pool.
func begin[T tf.Scalar](e tf.Engine, name string) (session[T], error) {
	be, k, err := claim[T](e, name)
	if err != nil {
		return session[T]{}, err
	}
	return session[T]{be, k, getArgs[T]()}, nil
}

func (s session[T]) end() {
	s.ar.put()
	s.be.End()
}

func claim[T tf.Scalar](e tf.Engine, name string) (backend.Engine, backend.Linalg[T], error) {
	if e == nil {
		return nil, nil, tf.Errorf(tf.ErrArgument, name, "e", "an engine", "nil")
	}
	be := e.Backend()
	if be == nil {
		return nil, nil, tf.Errorf(tf.ErrArgument, name, "e", "an engine", "%T without a backend", e)
	}
	if err := be.Begin(name); err != nil {
		return nil, nil, err
	}
	ks := backend.KernelsOf[T](be)
	if ks == nil || ks.Linalg == nil {
		be.End()
		return nil, nil, tf.Errorf(tf.ErrUnsupported, name, "e", "an engine with linear algebra kernels for "+tf.DTypeOf[T]().String(), "an engine that lacks them")
	}
	return be, ks.Linalg, nil
}

// alloc returns a new tensor of shape from e's pool.
func alloc[E tf.Elem](e tf.Engine, shape []int) (*tf.Tensor[E], error) {
	return tf.NewTensor[E](e, shape...)
}

// allocRun returns a new tensor of the given shape from e's pool that run
// fills, given back to the pool when run fails.
func allocRun[T tf.Elem](e tf.Engine, shape []int, run func(*tf.Tensor[T]) error) (*tf.Tensor[T], error) {
	t, err := alloc[T](e, shape)
	if err != nil {
		return nil, err
	}
	if err := run(t); err != nil {
		release(t)
		return nil, err
	}
	return t, nil
}

// allocRun2 is [allocRun] for an operation with two results.
func allocRun2[A, B tf.Elem](e tf.Engine, sa, sb []int, run func(*tf.Tensor[A], *tf.Tensor[B]) error) (*tf.Tensor[A], *tf.Tensor[B], error) {
	var b *tf.Tensor[B]
	a, err := allocRun(e, sa, func(a *tf.Tensor[A]) error {
		var err error
		b, err = allocRun(e, sb, func(b *tf.Tensor[B]) error { return run(a, b) })
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// release gives the results of a failed operation back to the pool.
func release[E tf.Elem](ts ...*tf.Tensor[E]) {
	for _, t := range ts {
		if t != nil {
			_ = t.Release()
		}
	}
}

// shaped fills v with t's view as a backend operand of rank r: a vector
// (vec) becomes a one-column matrix, and missing batch axes are added
// with extent 1 at the end.
func shaped[E backend.Elem](v *backend.View[E], t *tf.Tensor[E], vec bool, r int, dims *[2 * (tf.MaxRank + 1)]int) *backend.View[E] {
	sh, st := dims[:r:r], dims[r:2*r]
	ts, tt := t.Shape(), t.Strides()
	j := 0
	for d := range r {
		switch {
		case vec && d == 1, j >= len(ts):
			sh[d], st[d] = 1, 0
		default:
			sh[d], st[d] = ts[j], tt[j]
			j++
		}
	}
	*v = backend.View[E]{Data: t.Storage(), Off: t.Offset(), Shape: sh, Strides: st}
	return v
}
