package ad_test

import (
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/tenferro-go/tenferro/trace"
)

// The reductions, norms, structural operations and contractions of the op
// table.

func init() {
	m := oracleOps
	// Reductions.
	m["sum"] = oracleReduce(oracleAxes((*trace.Trace).Sum))
	m["mean"] = oracleReduce(oracleAxes((*trace.Trace).Mean))
	m["amax"] = oracleReduce(oracleAxes((*trace.Trace).Max))
	m["amin"] = oracleReduce(oracleAxes((*trace.Trace).Min))
	m["nansum"] = oracleReduce(func(b *oracleBuilder, a trace.Var, axes []int) trace.Var {
		return b.p(b.tr.Sum(b.dropNaN(a, a), axes...))
	})
	m["nanmean"] = oracleReduce(func(b *oracleBuilder, a trace.Var, axes []int) trace.Var {
		// nansum / the number of non-NaN elements.
		s := b.p(b.tr.Sum(b.dropNaN(a, a), axes...))
		n := b.p(b.tr.Sum(b.dropNaN(a, b.p(b.tr.Full(a.DType(), 1, a.Shape()...))), axes...))
		return b.bin((*trace.Trace).Div, s, n)
	})
	m["prod"] = oracleOp{inputs: 1, args: 1, kwargs: []string{"keepdim", "dtype"}, build: func(b *oracleBuilder) trace.Var {
		a := b.x[0]
		if raw, ok := b.kw("dtype"); ok {
			var dt string
			b.decode(raw, &dt)
			if dt != b.c.DType {
				return b.skip("dtype=%s converts %s: the trace has no dtype conversion", dt, b.c.DType)
			}
		}
		raw, ok := b.arg(0)
		axes := b.axes(raw, ok, a.Rank())
		return b.keep(b.p(b.tr.Prod(a, axes...)), a, axes, b.kwBool("keepdim", false))
	}}
	moments := func(f func(*trace.Trace, trace.Var, int, ...int) (trace.Var, error), std, positional bool) oracleOp {
		o := oracleOp{inputs: 1, kwargs: []string{"dim", "keepdim", "unbiased", "correction"}, build: func(b *oracleBuilder) trace.Var {
			a := b.x[0]
			raw, ok := b.kw("dim")
			axes := b.axes(raw, ok, a.Rank())
			ddof := 1.0 // PyTorch's default correction
			if raw, ok := b.arg(0); positional && ok {
				if b.float(raw) == 0 {
					ddof = 0
				}
			} else if raw, ok := b.kw("correction"); ok {
				ddof = b.float(raw)
			} else if !b.kwBool("unbiased", true) {
				ddof = 0
			}
			if b.err != nil {
				return trace.Var{}
			}
			if ddof != math.Trunc(ddof) {
				return b.skip("a fractional correction %g", ddof)
			}
			var y trace.Var
			if ddof >= 0 {
				y = b.p(f(b.tr, a, int(ddof), axes...))
			} else {
				// The library takes ddof >= 0: Σ|x - mean|²/(n - ddof) is
				// the population variance scaled by n/(n - ddof).
				n := 1
				for d, e := range a.Shape() {
					if len(axes) == 0 || slices.Contains(axes, d) {
						n *= e
					}
				}
				c := float64(n) / (float64(n) - ddof)
				if std {
					c = math.Sqrt(c)
				}
				y = b.scale(complex(c, 0), b.p(f(b.tr, a, 0, axes...)))
			}
			return b.keep(y, a, axes, b.kwBool("keepdim", false))
		}}
		if positional {
			o.args = 1
		}
		return o
	}
	m["var"] = moments((*trace.Trace).Var, false, false)
	m["std"] = moments((*trace.Trace).Std, true, false)
	m["var_unbiased"] = moments((*trace.Trace).Var, false, true)
	m["std_unbiased"] = moments((*trace.Trace).Std, true, true)
	m["norm"] = oracleOp{inputs: 1, args: 1, kwargs: []string{"ord", "dim", "keepdim"}, build: func(b *oracleBuilder) trace.Var {
		// linalg.norm(a, ord, dim, keepdim): over two axes (or a matrix
		// without dim) a matrix norm, over one axis (or a vector) a vector
		// norm; without ord and dim the 2-norm of all elements.
		a := b.x[0]
		keepdim := b.kwBool("keepdim", false)
		ord, hasOrd := b.arg(0)
		if !hasOrd {
			ord, hasOrd = b.kw("ord")
		}
		var axes []int
		raw, hasDim := b.kw("dim")
		if hasDim {
			axes = b.axes(raw, true, a.Rank())
		}
		switch {
		case b.err != nil:
			return trace.Var{}
		case !hasOrd && !hasDim:
			return b.keep(b.p(b.tr.Norm(a, 2)), a, nil, keepdim)
		case !hasOrd:
			return b.keep(b.p(b.tr.Norm(a, 2, axes...)), a, axes, keepdim)
		case hasDim && len(axes) == 2, !hasDim && a.Rank() == 2:
			if !hasDim {
				axes = []int{0, 1}
			}
			return b.matrixNorm(a, ord, axes, keepdim)
		case hasDim && len(axes) == 1, !hasDim && a.Rank() == 1:
			if o := string(ord); o == `"fro"` || o == `"nuc"` {
				return b.skip("ord %s of a vector", o)
			}
			return b.keep(b.p(b.tr.Norm(a, b.float(ord), axes...)), a, axes, keepdim)
		}
		return b.skip("ord %s over %d axes", ord, a.Rank())
	}}
	m["vector_norm"] = oracleOp{inputs: 1, kwargs: []string{"ord", "dim", "keepdim"}, build: func(b *oracleBuilder) trace.Var {
		a := b.x[0]
		raw, ok := b.kw("dim")
		axes := b.axes(raw, ok, a.Rank())
		p := b.kwFloat("ord", 2)
		if b.err != nil {
			return trace.Var{}
		}
		return b.keep(b.p(b.tr.Norm(a, p, axes...)), a, axes, b.kwBool("keepdim", false))
	}}
	m["matrix_norm"] = oracleOp{inputs: 1, args: 3, build: func(b *oracleBuilder) trace.Var {
		// linalg.matrix_norm(a, ord='fro', dim=(-2, -1), keepdim=False).
		a := b.x[0]
		ord, ok := b.arg(0)
		if !ok {
			ord = json.RawMessage(`"fro"`)
		}
		dims, ok := b.arg(1)
		if !ok {
			dims = json.RawMessage("[-2, -1]")
		}
		keepdim := false
		if raw, ok := b.arg(2); ok {
			b.decode(raw, &keepdim)
		}
		return b.matrixNorm(a, ord, b.axes(dims, true, a.Rank()), keepdim)
	}}

	// Structural operations and contractions.
	m["diagonal"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var { return b.diagonal(a) }, "offset", "dim1", "dim2")
	m["vecdot"] = oracleBinaryFn(func(b *oracleBuilder, x, y trace.Var) trace.Var {
		// Σ conj(x)·y over dim (PyTorch's linalg.vecdot), broadcasting.
		p := b.bin((*trace.Trace).Mul, b.un((*trace.Trace).Conj, x), y)
		if b.err != nil {
			return trace.Var{}
		}
		raw, ok := b.kw("dim")
		if !ok {
			raw = json.RawMessage("-1")
		}
		axes := b.axes(raw, true, p.Rank())
		if p.Rank() == 0 {
			return b.skip("0-d operands")
		}
		return b.p(b.tr.Sum(p, axes...))
	}, "dim")
	m["cross"] = oracleBinaryFn(func(b *oracleBuilder, x, y trace.Var) trace.Var { return b.cross(x, y) }, "dim")
	m["multi_dot"] = oracleOp{build: func(b *oracleBuilder) trace.Var {
		for _, x := range b.x {
			if x.Rank() != 2 {
				return b.skip("1-D operands")
			}
		}
		return b.matmuls(b.x...)
	}}
	m["matrix_power"] = oracleOp{inputs: 1, args: 1, build: func(b *oracleBuilder) trace.Var {
		a := b.x[0]
		raw, ok := b.arg(0)
		if !ok {
			return b.skip("no exponent")
		}
		var n int
		b.decode(raw, &n)
		switch {
		case b.err != nil:
			return trace.Var{}
		case n < 0:
			// PyTorch inverts first: inv(a)^-n.
			a, n = b.inv(a), -n
		case n == 0:
			// The identity of every matrix: a constant.
			return b.identity(a, a.Shape())
		}
		xs := make([]trace.Var, n)
		for i := range xs {
			xs[i] = a
		}
		return b.matmuls(xs...)
	}}
	m["vander"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		// linalg.vander: x^0, x^1, ..., x^(N-1) along a new last axis.
		if a.Rank() == 0 {
			a = b.p(b.tr.Reshape(a, 1))
		}
		s := a.Shape()
		n := s[len(s)-1]
		if raw, ok := b.kw("N"); ok {
			b.decode(raw, &n)
		}
		if b.err != nil {
			return trace.Var{}
		}
		pw := make([]complex128, n)
		for i := range pw {
			pw[i] = complex(float64(i), 0)
		}
		col := b.p(b.tr.Reshape(a, append(slices.Clone(s), 1)...))
		return b.bin((*trace.Trace).Pow, col, b.constant(a.DType(), []int{n}, pw))
	}, "N")
}

// oracleReduce records a reduction over the dim keyword (every axis when
// absent) with keepdim.
func oracleReduce(f func(b *oracleBuilder, a trace.Var, axes []int) trace.Var) oracleOp {
	return oracleOp{inputs: 1, kwargs: []string{"dim", "keepdim"}, build: func(b *oracleBuilder) trace.Var {
		a := b.x[0]
		raw, ok := b.kw("dim")
		axes := b.axes(raw, ok, a.Rank())
		return b.keep(f(b, a, axes), a, axes, b.kwBool("keepdim", false))
	}}
}

func oracleAxes(f func(*trace.Trace, trace.Var, ...int) (trace.Var, error)) func(b *oracleBuilder, a trace.Var, axes []int) trace.Var {
	return func(b *oracleBuilder, a trace.Var, axes []int) trace.Var {
		if b.err != nil {
			return trace.Var{}
		}
		return b.p(f(b.tr, a, axes...))
	}
}

// matmuls is the product of the matrices (the last two axes) of xs, left
// to right, batched over the leading axes.
func (b *oracleBuilder) matmuls(xs ...trace.Var) trace.Var {
	y := xs[0]
	for _, x := range xs[1:] {
		y = b.einsum("...ij,...jk->...ik", y, x)
	}
	return y
}

// dropNaN is x with 0 where a is NaN.
func (b *oracleBuilder) dropNaN(a, x trace.Var) trace.Var {
	return b.where(b.un((*trace.Trace).IsNaN, a), b.full(x, 0), x)
}

// matrixNorm is linalg.matrix_norm(a, ord, axes, keepdim): 'fro' the
// 2-norm of the matrix's elements; ord ±1 the largest (smallest) column
// sum of |a|, ±Inf the largest (smallest) row sum, as PyTorch computes
// them (amax/amin of a sum, ties averaged); ord ±2 and nuc from the
// singular values (spectralNorm).
func (b *oracleBuilder) matrixNorm(a trace.Var, ord json.RawMessage, axes []int, keepdim bool) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	if len(axes) != 2 || axes[0] == axes[1] {
		return b.skip("matrix norm over axes %v", axes)
	}
	var y trace.Var
	switch o := strings.Trim(string(ord), `"`); {
	case o == "fro":
		y = b.p(b.tr.Norm(a, 2, axes...))
	case o == "nuc" || o == "2" || o == "-2" || o == "2.0" || o == "-2.0":
		y = b.spectralNorm(a, o, axes)
	default:
		p := b.float(ord)
		if b.err != nil {
			return trace.Var{}
		}
		if p != 1 && p != -1 && !math.IsInf(p, 0) {
			return b.skip("matrix norm of ord %s", o)
		}
		d0, d1 := axes[0], axes[1]
		if math.IsInf(p, 0) {
			d0, d1 = d1, d0
		}
		s := b.p(b.tr.Sum(b.un((*trace.Trace).Abs, a), d0))
		if d0 < d1 {
			d1--
		}
		if p < 0 {
			y = b.p(b.tr.Min(s, d1))
		} else {
			y = b.p(b.tr.Max(s, d1))
		}
	}
	return b.keep(y, a, axes, keepdim)
}

// diagonal is torch.diagonal(a, offset, dim1, dim2): the elements
// a[..., i, i+offset] (dim1, dim2 moved last) along a new last axis.
func (b *oracleBuilder) diagonal(a trace.Var) trace.Var {
	r := a.Rank()
	off, d1, d2 := int(b.kwFloat("offset", 0)), int(b.kwFloat("dim1", 0)), int(b.kwFloat("dim2", 1))
	if d1 < 0 {
		d1 += r
	}
	if d2 < 0 {
		d2 += r
	}
	if b.err != nil {
		return trace.Var{}
	}
	var perm []int
	for d := range r {
		if d != d1 && d != d2 {
			perm = append(perm, d)
		}
	}
	perm = append(perm, d1, d2)
	x := b.p(b.tr.Permute(a, perm...))
	r0, c0 := max(-off, 0), max(off, 0)
	n := min(a.Shape()[d1]-r0, a.Shape()[d2]-c0)
	if n <= 0 {
		return b.skip("an empty diagonal")
	}
	rows, cols := make([]int64, n), make([]int64, n)
	for i := range n {
		rows[i], cols[i] = int64(r0+i), int64(c0+i)
	}
	x = b.take(b.take(x, r-2, rows...), r-1, cols...)
	return b.einsum("...ii->...i", x)
}

// cross is torch.cross(x, y, dim): x_{i+1}·y_{i+2} - x_{i+2}·y_{i+1} along
// dim (by default the first axis of extent 3), broadcasting.
func (b *oracleBuilder) cross(x, y trace.Var) trace.Var {
	rank := max(x.Rank(), y.Rank())
	shape := make([]int, rank) // the broadcast shape
	for _, v := range []trace.Var{x, y} {
		for i, e := range v.Shape() {
			d := i + rank - v.Rank()
			shape[d] = max(shape[d], e)
		}
	}
	dim := -1
	if raw, ok := b.kw("dim"); ok {
		b.decode(raw, &dim)
		if dim < 0 {
			dim += rank
		}
	} else {
		dim = slices.Index(shape, 3)
	}
	if b.err != nil {
		return trace.Var{}
	}
	if dim < 0 || dim >= rank {
		return b.skip("no axis of extent 3")
	}
	ax, ay := dim-(rank-x.Rank()), dim-(rank-y.Rank())
	if ax < 0 || ay < 0 {
		return b.skip("dim %d broadcast", dim)
	}
	next, last := []int64{1, 2, 0}, []int64{2, 0, 1}
	p := b.bin((*trace.Trace).Mul, b.take(x, ax, next...), b.take(y, ay, last...))
	q := b.bin((*trace.Trace).Mul, b.take(x, ax, last...), b.take(y, ay, next...))
	return b.bin((*trace.Trace).Sub, p, q)
}
