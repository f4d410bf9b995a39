package program

import (
	"math/bits"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The steps of the reductions and scans. The attribute (ddof, order)
// travels in the command's alpha; the axis of ArgMax, ArgMin and the scans
// is the one bit of its mask.

// reductionStep makes the step of a reduce, real-reduce, arg or scan
// command whose input has dtype T.
func reductionStep[T backend.Elem](b *preparer, c *command) (step, error) {
	k, err := kernels(b, "reduction kernels", func(ks *backend.Kernels[T]) backend.Reduction[T] { return ks.Reduction })
	if err != nil {
		return nil, err
	}
	r := regs[T](b)
	p, axis := real(c.alpha), bits.TrailingZeros64(c.mask)
	switch c.op {
	case cmdReduce:
		return &reduceStep[T]{k, c.kind, p, c.mask, r.at(c.dst), r.at(c.args[0])}, nil
	case cmdArg:
		return &argStep[T]{k, c.kind, axis, regs[int64](b).at(c.dst), r.at(c.args[0])}, nil
	case cmdScan:
		return &scanStep[T]{k, c.kind, axis, r.at(c.dst), r.at(c.args[0])}, nil
	}
	var dst any
	switch tf.DTypeOf[T]().Real() {
	case tf.Float32:
		dst = regs[float32](b).at(c.dst)
	case tf.Float64:
		dst = regs[float64](b).at(c.dst)
	default:
		return nil, tf.Errorf(tf.ErrDType, "Prepare", "command", "a real-valued reduction of a number", "%v of %v", c.kind, tf.DTypeOf[T]())
	}
	return &realReduceStep[T]{k, c.kind, p, c.mask, dst, r.at(c.args[0])}, nil
}

type reduceStep[T backend.Elem] struct {
	k      backend.Reduction[T]
	kind   op.Kind
	p      float64
	mask   uint64
	dst, a *backend.View[T]
}

func (s *reduceStep[T]) run() error { return s.k.Reduce(s.kind, s.p, s.dst, s.a, s.mask) }

type realReduceStep[T backend.Elem] struct {
	k    backend.Reduction[T]
	kind op.Kind
	p    float64
	mask uint64
	dst  any // *backend.View[R], R the real type of T
	a    *backend.View[T]
}

func (s *realReduceStep[T]) run() error { return s.k.ReduceReal(s.kind, s.p, s.dst, s.a, s.mask) }

type argStep[T backend.Elem] struct {
	k    backend.Reduction[T]
	kind op.Kind
	axis int
	dst  *backend.View[int64]
	a    *backend.View[T]
}

func (s *argStep[T]) run() error { return s.k.Arg(s.kind, s.dst, s.a, s.axis) }

type scanStep[T backend.Elem] struct {
	k      backend.Reduction[T]
	kind   op.Kind
	axis   int
	dst, a *backend.View[T]
}

func (s *scanStep[T]) run() error { return s.k.Scan(s.kind, s.dst, s.a, s.axis) }
