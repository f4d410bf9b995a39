package ad_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/trace"
)

// The op table of the oracle runner: how each PyTorch op of the database
// (by its OpInfo name) is recorded on a trace. An op is mapped only where
// the library computes the same function with the same derivative,
// subgradients at kinks included; PyTorch ops that are compositions by
// definition (ldexp = a·2^b, silu = x·σ(x), ...) are recorded as that
// composition. Every op missing from the table is skipped as not in the
// library; an entry with a reason is skipped with it. This file holds the
// builder the entries record with; the entries are in oracle_ops_test.go,
// oracle_reduce_test.go and oracle_linalg_test.go.

// oracleOp records one op.
type oracleOp struct {
	inputs int      // the number of tensor inputs (0: any)
	kwargs []string // the op_kwargs the mapping reads; a case with others is skipped
	args   int      // the number of op_args the mapping reads
	// observables are the observable kinds the mapping computes (none:
	// identity, the op's output); a case with another is skipped.
	observables []string
	// build records an op of one output; outs one of several, in the
	// order of the names of the case's outputs.
	build func(b *oracleBuilder) trace.Var
	outs  func(b *oracleBuilder) []trace.Var
	// gauge records the real scalar loss of an error case of reason
	// gauge_ill_defined: a loss that reads the phases of the vectors,
	// whose gradient the library must refuse.
	gauge func(b *oracleBuilder) trace.Var
	// reason, when set, is why the op has no mapping: every case is
	// skipped with it.
	reason string
}

// oracleBuilder records the op of one case on a trace; the first error
// sticks and makes every later step a no-op (an oracleSkip error skips the
// case).
type oracleBuilder struct {
	tr  *trace.Trace
	c   *oracleCase
	x   []trace.Var // the inputs, in the order of their names
	err error
}

// unmapped returns why the case uses arguments m does not read ("" if
// none).
func (b *oracleBuilder) unmapped(m oracleOp) string {
	if k := b.c.Observable.Kind; k != "identity" && !slices.Contains(m.observables, k) {
		return "observable " + k + " is not mapped"
	}
	if m.inputs > 0 && len(b.x) != m.inputs {
		return fmt.Sprintf("%d inputs, the mapping takes %d", len(b.x), m.inputs)
	}
	var extra []string
	for k, v := range b.c.OpKwargs {
		if !slices.Contains(m.kwargs, k) {
			extra = append(extra, k+"="+string(v))
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return "op_kwargs " + strings.Join(extra, ", ") + " not mapped"
	}
	if len(b.c.OpArgs) > m.args {
		return fmt.Sprintf("%d op_args, the mapping reads %d", len(b.c.OpArgs), m.args)
	}
	return ""
}

func (b *oracleBuilder) p(v trace.Var, err error) trace.Var {
	if err != nil && b.err == nil {
		b.err = err
	}
	return v
}

func (b *oracleBuilder) skip(format string, args ...any) trace.Var {
	if b.err == nil {
		b.err = oracleSkip(fmt.Sprintf(format, args...))
	}
	return trace.Var{}
}

// kw returns the keyword argument name unless it is absent or null.
func (b *oracleBuilder) kw(name string) (json.RawMessage, bool) {
	v, ok := b.c.OpKwargs[name]
	if !ok || string(bytes.TrimSpace(v)) == "null" {
		return nil, false
	}
	return v, true
}

// arg returns positional argument i unless it is absent or null.
func (b *oracleBuilder) arg(i int) (json.RawMessage, bool) {
	if i >= len(b.c.OpArgs) || string(bytes.TrimSpace(b.c.OpArgs[i])) == "null" {
		return nil, false
	}
	return b.c.OpArgs[i], true
}

func (b *oracleBuilder) decode(raw json.RawMessage, v any) {
	if err := json.Unmarshal(raw, v); err != nil && b.err == nil {
		b.err = fmt.Errorf("argument %s: %w", raw, err)
	}
}

func (b *oracleBuilder) float(raw json.RawMessage) float64 {
	if raw[0] == 't' || raw[0] == 'f' {
		var v bool
		b.decode(raw, &v)
		if v {
			return 1
		}
		return 0
	}
	var f oracleNum
	b.decode(raw, &f)
	return float64(f)
}

// kwFloat is keyword argument name as a number, def when absent.
func (b *oracleBuilder) kwFloat(name string, def float64) float64 {
	if raw, ok := b.kw(name); ok {
		return b.float(raw)
	}
	return def
}

func (b *oracleBuilder) kwBool(name string, def bool) bool {
	if raw, ok := b.kw(name); ok {
		var v bool
		b.decode(raw, &v)
		return v
	}
	return def
}

// axes reads a dim argument (an int or a list; absent: every axis) for a
// tensor of the given rank, as non-negative axes. A rank-0 tensor has no
// axes to reduce (PyTorch accepts dim 0 and -1 for it).
func (b *oracleBuilder) axes(raw json.RawMessage, present bool, rank int) []int {
	if !present || rank == 0 {
		return nil
	}
	var dims []int
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
		b.decode(raw, &dims)
	} else {
		var d int
		b.decode(raw, &d)
		dims = []int{d}
	}
	for i, d := range dims {
		if d < 0 {
			dims[i] = d + rank
		}
	}
	return dims
}

// keep reshapes y, x reduced over axes (none: every axis), to x's rank
// with those axes of extent 1, when keepdim is set.
func (b *oracleBuilder) keep(y trace.Var, x trace.Var, axes []int, keepdim bool) trace.Var {
	if !keepdim || b.err != nil {
		return y
	}
	s := slices.Clone(x.Shape())
	for d := range s {
		if len(axes) == 0 || slices.Contains(axes, d) {
			s[d] = 1
		}
	}
	return b.p(b.tr.Reshape(y, s...))
}

// full is the 0-d constant x in like's dtype.
func (b *oracleBuilder) full(like trace.Var, x complex128) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(b.tr.Full(like.DType(), x))
}

// index is a 1-D int64 constant.
func (b *oracleBuilder) index(ix ...int64) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	v, err := tf.FromSlice(ix, len(ix))
	if err != nil {
		return b.p(trace.Var{}, err)
	}
	return b.p(b.tr.Const(tf.ValueOf(v)))
}

func (b *oracleBuilder) un(f func(*trace.Trace, trace.Var) (trace.Var, error), a trace.Var) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(f(b.tr, a))
}

func (b *oracleBuilder) bin(f func(*trace.Trace, trace.Var, trace.Var) (trace.Var, error), a, c trace.Var) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(f(b.tr, a, c))
}

func (b *oracleBuilder) scale(alpha complex128, a trace.Var) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(b.tr.Scale(alpha, a))
}

func (b *oracleBuilder) where(m, x, y trace.Var) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(b.tr.Where(m, x, y))
}

func (b *oracleBuilder) einsum(sub string, xs ...trace.Var) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(b.tr.Einsum(sub, xs...))
}

func (b *oracleBuilder) take(a trace.Var, axis int, ix ...int64) trace.Var {
	idx := b.index(ix...)
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(b.tr.Take(a, axis, idx))
}

// cmp is x OP c for a real scalar c.
func (b *oracleBuilder) cmp(f func(*trace.Trace, trace.Var, trace.Var) (trace.Var, error), x trace.Var, c float64) trace.Var {
	return b.bin(f, x, b.full(x, complex(c, 0)))
}

// constant is the tensor of dtype dt holding the row-major elements.
func (b *oracleBuilder) constant(dt tf.DType, shape []int, rowMajor []complex128) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	v, err := oracleValueOf(dt, shape, rowMajor)
	if err != nil {
		return b.p(trace.Var{}, err)
	}
	return b.p(b.tr.Const(v))
}

// The constructors of table entries.

func oracleUnary(f func(*trace.Trace, trace.Var) (trace.Var, error)) oracleOp {
	return oracleOp{inputs: 1, build: func(b *oracleBuilder) trace.Var { return b.un(f, b.x[0]) }}
}

func oracleUnaryFn(f func(b *oracleBuilder, a trace.Var) trace.Var, kwargs ...string) oracleOp {
	return oracleOp{inputs: 1, kwargs: kwargs, build: func(b *oracleBuilder) trace.Var { return f(b, b.x[0]) }}
}

// oracleBinary records f(a, b), or f(b, a) for PyTorch's reflected
// operators (__rsub__(a, b) is b - a).
func oracleBinary(f func(*trace.Trace, trace.Var, trace.Var) (trace.Var, error), reflected bool) oracleOp {
	return oracleOp{inputs: 2, build: func(b *oracleBuilder) trace.Var {
		if reflected {
			return b.bin(f, b.x[1], b.x[0])
		}
		return b.bin(f, b.x[0], b.x[1])
	}}
}

func oracleBinaryFn(f func(b *oracleBuilder, a, c trace.Var) trace.Var, kwargs ...string) oracleOp {
	return oracleOp{inputs: 2, kwargs: kwargs, build: func(b *oracleBuilder) trace.Var { return f(b, b.x[0], b.x[1]) }}
}

// oracleOps maps the PyTorch op names of the database to recordings.
var oracleOps = map[string]oracleOp{}
