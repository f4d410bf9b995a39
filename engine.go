package tenferro

import (
	"fmt"

	"github.com/tenferro-go/tenferro/backend"
)

// Engine executes operations: every operation of this package takes one as
// its first argument. Build it once with package cpu (cpu.Serial or
// cpu.New), pass it down like a context.Context, and use it from one
// goroutine at a time (see the package documentation, "Engines").
//
// Backend hands the operations of this package the engine's side of the
// contract (package backend). The operations validate every argument
// before they call it; user code has no reason to.
type Engine interface {
	Backend() backend.Engine
}

// begin claims e for operation name and returns its backend; the caller
// ends the claim.
func begin(e Engine, name string) (backend.Engine, error) {
	if e == nil {
		return nil, newError(name, "e", "an engine", "nil", ErrArgument)
	}
	be := e.Backend()
	if be == nil {
		return nil, newError(name, "e", "an engine", fmt.Sprintf("%T without a backend", e), ErrArgument)
	}
	if err := be.Begin(name); err != nil {
		return nil, err
	}
	return be, nil
}

// unsupported is the error of an operation whose engine lacks what it
// needs for T.
func unsupported[T Elem](name, what string) error {
	return newError(name, "e", "an engine with "+what+" for "+DTypeOf[T]().String(), "an engine that lacks them", ErrUnsupported)
}

// The capabilities of be for T, or ErrUnsupported errors naming them.

func coreOf[T Elem](be backend.Engine, name string) (backend.Core[T], error) {
	if ks := backend.KernelsOf[T](be); ks != nil && ks.Core != nil {
		return ks.Core, nil
	}
	return nil, unsupported[T](name, "storage")
}

func elementwiseOf[T Elem](be backend.Engine, name string) (backend.Elementwise[T], error) {
	if ks := backend.KernelsOf[T](be); ks != nil && ks.Elementwise != nil {
		return ks.Elementwise, nil
	}
	return nil, unsupported[T](name, "elementwise kernels")
}

func reductionOf[T Elem](be backend.Engine, name string) (backend.Reduction[T], error) {
	if ks := backend.KernelsOf[T](be); ks != nil && ks.Reduction != nil {
		return ks.Reduction, nil
	}
	return nil, unsupported[T](name, "reduction kernels")
}

// claimElementwise and claimReduction claim e for the Into form name and
// return its elementwise or reduction kernels for T; the caller ends the
// claim. On error nothing stays claimed.
func claimElementwise[T Elem](e Engine, name string) (backend.Engine, backend.Elementwise[T], error) {
	be, err := begin(e, name)
	if err != nil {
		return nil, nil, err
	}
	kern, err := elementwiseOf[T](be, name)
	if err != nil {
		be.End()
		return nil, nil, err
	}
	return be, kern, nil
}

func claimReduction[T Elem](e Engine, name string) (backend.Engine, backend.Reduction[T], error) {
	be, err := begin(e, name)
	if err != nil {
		return nil, nil, err
	}
	kern, err := reductionOf[T](be, name)
	if err != nil {
		be.End()
		return nil, nil, err
	}
	return be, kern, nil
}

func contractionOf[T Scalar](be backend.Engine, name string) (backend.Contraction[T], error) {
	if ks := backend.KernelsOf[T](be); ks != nil && ks.Contraction != nil {
		return ks.Contraction, nil
	}
	return nil, unsupported[T](name, "contraction kernels")
}

// alloc returns a compact tensor of shape (validated) with storage from
// the engine's pool.
func alloc[T Elem](be backend.Engine, name string, shape []int) (*Tensor[T], error) {
	core, err := coreOf[T](be, name)
	if err != nil {
		return nil, err
	}
	n := Numel(shape)
	if err := checkBudget(name, n, DTypeOf[T]().Size(), be.MemoryBudget()); err != nil {
		return nil, err
	}
	return wrap(core.Alloc(n), shape), nil
}

// produce claims e for op, takes an output of the given shape from e's
// pool and lets fill compute it; on failure the output goes back to the
// pool. It is the shared tail of every operation that returns a tensor.
func produce[T Elem](e Engine, name string, shape []int, fill func(be backend.Engine, out *Tensor[T]) error) (*Tensor[T], error) {
	be, err := begin(e, name)
	if err != nil {
		return nil, err
	}
	defer be.End()
	out, err := alloc[T](be, name, shape)
	if err != nil {
		return nil, err
	}
	if err := fill(be, out); err != nil {
		out.Release()
		return nil, err
	}
	return out, nil
}

// claimInto checks dst as the destination of a one-input operation on a
// (the given shape, distinct elements, no overlap with a) and then claims
// e as claim does.
func claimInto[T Elem](e Engine, name string, dst, a *Tensor[T], shape []int) (backend.Engine, *backend.Kernels[T], error) {
	if err := checkDst(name, false, dst, shape, []string{"a"}, a); err != nil {
		return nil, nil, err
	}
	return claim[T](e, name)
}

// claim claims e for operation name and returns its backend and its
// kernels for T (never nil); the caller ends the claim. The Into forms
// call it directly rather than through a closure: it is their hot path.
func claim[T Elem](e Engine, name string) (backend.Engine, *backend.Kernels[T], error) {
	be, err := begin(e, name)
	if err != nil {
		return nil, nil, err
	}
	if ks := backend.KernelsOf[T](be); ks != nil {
		return be, ks, nil
	}
	be.End()
	return nil, nil, unsupported[T](name, "kernels")
}

// NewTensor returns a compact tensor of the given shape whose storage comes
// from e's buffer pool. Its contents are unspecified (recycled storage is
// not cleared). Release it to give the storage back.
func NewTensor[T Elem](e Engine, shape ...int) (*Tensor[T], error) {
	const name = "NewTensor"
	if _, err := checkShape(name, shape); err != nil {
		return nil, err
	}
	be, err := begin(e, name)
	if err != nil {
		return nil, err
	}
	defer be.End()
	return alloc[T](be, name, shape)
}
