package ad

import (
	"fmt"
	"slices"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

// The linear tape. A derivative rule expresses the tangent of a node's
// result as linear operations (catalog operations that are linear in
// their tape operands, with the other operands fixed primal values, the
// coefficients) on the tangents of its arguments. In forward mode every
// linear node is evaluated at once; in reverse mode the tape is
// transposed: walked backwards, each node maps the cotangent of its
// result to the cotangents of its linear operands.

// Pseudo-operations of the tape besides the catalog's.
const (
	kInput       = op.NumKinds + 1 + iota // the tangent of a wrt input
	kBroadcast                            // a linear operand broadcast to attrs.Shape (NumPy rules)
	kExpmFrechet                          // the Fréchet derivative of Expm at the coefficient A along the linear E
	numPseudo
)

// arg is one operand of a linear node: a tape value (lin >= 0) or a
// coefficient (lin < 0, the primal value v).
type arg struct {
	lin int
	v   trace.Var
}

func lin(l int) arg          { return arg{lin: l} }
func coef(v trace.Var) arg   { return arg{lin: -1, v: v} }
func (a arg) isLinear() bool { return a.lin >= 0 }

type linNode struct {
	kind  op.Kind
	attrs op.Attrs
	args  []arg
	dt    tf.DType
	shape []int
	val   trace.Var // the value, when evaluated (forward mode)
}

func (b *builder) argDType(a arg) tf.DType {
	if a.isLinear() {
		return b.tape[a.lin].dt
	}
	return a.v.DType()
}

func (b *builder) argShape(a arg) []int {
	if a.isLinear() {
		return b.tape[a.lin].shape
	}
	return a.v.Shape()
}

func (b *builder) emitInput(dt tf.DType, shape []int) int {
	n := linNode{kind: kInput, dt: dt, shape: slices.Clone(shape)}
	if b.eval {
		n.val = b.input(dt, shape)
	}
	b.tape = append(b.tape, n)
	return len(b.tape) - 1
}

// emit appends linear node k(args) and returns its tape id (-1 after an
// error).
func (b *builder) emit(k op.Kind, a op.Attrs, args ...arg) int {
	if b.err != nil {
		return -1
	}
	n := linNode{kind: k, args: args}
	switch k {
	case kBroadcast:
		n.dt, n.shape, n.attrs = b.argDType(args[0]), slices.Clone(a.Shape), a
	case kExpmFrechet:
		n.dt, n.shape = b.argDType(args[1]), slices.Clone(b.argShape(args[1]))
	default:
		info := k.Info()
		dts := make([]op.DType, len(args))
		shapes := make([][]int, len(args))
		for i, x := range args {
			dts[i], shapes[i] = op.DType(b.argDType(x)), b.argShape(x)
		}
		dt, f := k.DTypeWith(info.Args, &a, dts...)
		if f == nil {
			a.Axes, a.Shape, a.Ints = slices.Clone(a.Axes), slices.Clone(a.Shape), slices.Clone(a.Ints)
			n.shape, f = k.Shape(&a, shapes)
		}
		if f != nil {
			b.fail(tf.Errorf(f.Kind, b.name, b.node, "a valid linear "+info.Name, "%s: %s", f.Arg, f.Actual))
			return -1
		}
		n.dt, n.attrs = tf.DType(dt), a
	}
	if b.eval {
		vs := make([]trace.Var, len(args))
		for i, x := range args {
			vs[i] = x.v
			if x.isLinear() {
				vs[i] = b.tape[x.lin].val
			}
		}
		switch k {
		case kBroadcast:
			n.val = b.broadcastTo(vs[0], n.shape)
		case kExpmFrechet:
			n.val = b.frechet(vs[0], vs[1])
		default:
			n.val = b.ap(k, n.attrs, vs...)
		}
	}
	b.tape = append(b.tape, n)
	return len(b.tape) - 1
}

// The linear helpers: -1 is a zero tangent, and zeros propagate.

// lop emits k on one linear operand x at position 0 followed by
// coefficients; a zero x gives zero.
func (b *builder) lop(k op.Kind, a op.Attrs, x int, coefs ...trace.Var) int {
	if x < 0 {
		return -1
	}
	args := []arg{lin(x)}
	for _, c := range coefs {
		args = append(args, coef(c))
	}
	return b.emit(k, a, args...)
}

// lmul is x·c (c a coefficient, broadcast against x).
func (b *builder) lmul(x int, c trace.Var) int { return b.lop(op.Mul, op.Attrs{}, x, c) }

// ldiv is x/c.
func (b *builder) ldiv(x int, c trace.Var) int { return b.lop(op.Div, op.Attrs{}, x, c) }

// lscale is alpha·x.
func (b *builder) lscale(alpha complex128, x int) int {
	return b.lop(op.Scale, op.Attrs{Alpha: alpha}, x)
}

// lun is unary linear operation k of x.
func (b *builder) lun(k op.Kind, x int) int { return b.lop(k, op.Attrs{}, x) }

// ladd is x + y with the result broadcast to shape (the shape of the
// primal result whose tangent this is).
func (b *builder) ladd(x, y int, shape []int) int {
	switch {
	case x < 0 && y < 0:
		return -1
	case y < 0:
		return b.broadcast(x, shape)
	case x < 0:
		return b.broadcast(y, shape)
	}
	return b.emit(op.Add, op.Attrs{}, lin(x), lin(y))
}

// lsub is x - y, broadcast to shape.
func (b *builder) lsub(x, y int, shape []int) int {
	switch {
	case x < 0 && y < 0:
		return -1
	case y < 0:
		return b.broadcast(x, shape)
	case x < 0:
		return b.broadcast(b.lun(op.Negate, y), shape)
	}
	return b.emit(op.Sub, op.Attrs{}, lin(x), lin(y))
}

// broadcast stretches x to shape by NumPy's rules (a no-op when the shape
// already is x's).
func (b *builder) broadcast(x int, shape []int) int {
	if x < 0 || slices.Equal(b.tape[x].shape, shape) {
		return x
	}
	return b.emit(kBroadcast, op.Attrs{Shape: shape}, lin(x))
}

// sum adds the tangents of xs (zeros skipped), all of one shape.
func (b *builder) sum(xs ...int) int {
	acc := -1
	for _, x := range xs {
		if x < 0 {
			continue
		}
		if acc < 0 {
			acc = x
			continue
		}
		acc = b.emit(op.Add, op.Attrs{}, lin(acc), lin(x))
	}
	return acc
}

// The primal helpers record operations on primal values of the new trace.

// ap records catalog operation k.
func (b *builder) ap(k op.Kind, a op.Attrs, args ...trace.Var) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(b.t.Apply(k, a, args...))
}

func (b *builder) un(k op.Kind, x trace.Var) trace.Var { return b.ap(k, op.Attrs{}, x) }

// bin is the binary operation k of x and y. Where k is elementwise, one
// operand a spread (broadcastTo's Tile) and the other of its shape, the
// operation reads the value the spread repeats and broadcasts it itself,
// so the tiled copy is never formed (the cotangent of a sum reaching an
// elementwise rule is the common case).
func (b *builder) bin(k op.Kind, x, y trace.Var) trace.Var {
	if k.Category() != op.Binary {
		return b.ap(k, op.Attrs{}, x, y)
	}
	if sx, ok := b.unspread(x, y); ok {
		x = sx
	} else if sy, ok := b.unspread(y, x); ok {
		y = sy
	}
	return b.ap(k, op.Attrs{}, x, y)
}

// unspread returns the value x repeats when x is a spread and other has
// x's shape.
func (b *builder) unspread(x, other trace.Var) (trace.Var, bool) {
	small, ok := b.spreadOf[x.ID()]
	if !ok || !slices.Equal(other.Shape(), x.Shape()) {
		return trace.Var{}, false
	}
	return small, true
}

func (b *builder) scale(alpha complex128, x trace.Var) trace.Var {
	return b.ap(op.Scale, op.Attrs{Alpha: alpha}, x)
}

// full is a constant of dtype dt with every element x (0-d by default: it
// broadcasts).
func (b *builder) full(dt tf.DType, x complex128, shape ...int) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(b.t.Full(dt, x, shape...))
}

// scalar is the 0-d constant x in x's dtype.
func (b *builder) scalarOf(like trace.Var, x complex128) trace.Var {
	return b.full(like.DType(), x)
}

// zeros is a zero tensor of the given shape: a one-element constant tiled
// at run time, so that the graph does not hold the zeros.
func (b *builder) zeros(dt tf.DType, shape []int) trace.Var {
	if op.Count(shape) <= 1 || len(shape) == 0 {
		return b.full(dt, 0, shape...)
	}
	ones := make([]int, len(shape))
	for i := range ones {
		ones[i] = 1
	}
	return b.ap(op.Tile, op.Attrs{Ints: slices.Clone(shape)}, b.full(dt, 0, ones...))
}

// conj is the complex conjugate of x (x itself for real dtypes).
func (b *builder) conj(x trace.Var) trace.Var {
	if !x.DType().IsComplex() {
		return x
	}
	return b.un(op.Conj, x)
}

// reshape is x with shape (x itself when equal).
func (b *builder) reshape(x trace.Var, shape []int) trace.Var {
	if slices.Equal(x.Shape(), shape) {
		return x
	}
	return b.ap(op.Reshape, op.Attrs{Shape: slices.Clone(shape)}, x)
}

// broadcastTo stretches x to shape by NumPy's rules: missing leading axes
// and extents of 1 repeat.
func (b *builder) broadcastTo(x trace.Var, shape []int) trace.Var {
	xs := x.Shape()
	if slices.Equal(xs, shape) {
		return x
	}
	lead := len(shape) - len(xs)
	padded := make([]int, len(shape))
	reps := make([]int, len(shape))
	for d := range shape {
		padded[d] = 1
		if d >= lead {
			padded[d] = xs[d-lead]
		}
		reps[d] = 1
		if padded[d] != shape[d] {
			reps[d] = shape[d]
		}
	}
	small := b.reshape(x, padded)
	y := b.ap(op.Tile, op.Attrs{Ints: reps}, small)
	if b.err == nil {
		if b.spreadOf == nil {
			b.spreadOf = map[int]trace.Var{}
		}
		b.spreadOf[y.ID()] = small
	}
	return y
}

// unbroadcast sums x (of a broadcast shape) back to shape: the transpose
// of broadcastTo.
func (b *builder) unbroadcast(x trace.Var, shape []int) trace.Var {
	xs := x.Shape()
	if slices.Equal(xs, shape) {
		return x
	}
	lead := len(xs) - len(shape)
	var axes []int
	for d := range xs {
		if d < lead || shape[d-lead] == 1 && xs[d] != 1 {
			axes = append(axes, d)
		}
	}
	if len(axes) > 0 {
		x = b.ap(op.Sum, op.Attrs{Axes: axes}, x)
	}
	return b.reshape(x, shape)
}

// seed adds ct to the cotangent of tape value l.
func (b *builder) seed(cts map[int]trace.Var, l int, ct trace.Var) {
	if b.err != nil {
		return
	}
	if !slices.Equal(ct.Shape(), b.tape[l].shape) || ct.DType() != b.tape[l].dt {
		b.fail(tf.Errorf(tf.ErrShape, b.name, b.node, fmt.Sprintf("a cotangent %v%v", b.tape[l].dt, b.tape[l].shape),
			"%v%v", ct.DType(), ct.Shape()))
		return
	}
	if old, ok := cts[l]; ok {
		ct = b.bin(op.Add, old, ct)
	}
	cts[l] = ct
}

// transpose walks the tape backwards from the seeded cotangents and
// returns the cotangent of every wrt input (zeros where none reaches it).
func (b *builder) transpose(cts map[int]trace.Var) []trace.Var {
	for l := len(b.tape) - 1; l >= 0 && b.err == nil; l-- {
		ct, ok := cts[l]
		n := &b.tape[l]
		if !ok || n.kind == kInput {
			continue
		}
		delete(cts, l)
		b.stashGauge(l, ct)
		rule := transposeRules[n.kind]
		if rule == nil {
			b.fail(tf.Errorf(tf.ErrUnsupported, b.name, b.node, "a linear operation with a transpose", "%v", n.kind))
			break
		}
		for i, a := range n.args {
			if !a.isLinear() {
				continue
			}
			if c, ok := rule(b, n, ct, i); ok {
				b.seed(cts, a.lin, c)
			}
		}
	}
	outs := make([]trace.Var, len(b.wrt))
	for i, l := range b.wrt {
		if ct, ok := cts[l]; ok {
			outs[i] = ct
		} else {
			outs[i] = b.zeros(b.tape[l].dt, b.tape[l].shape)
		}
	}
	b.checkGauges(outs)
	return outs
}
