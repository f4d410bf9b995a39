package ad

import (
	"slices"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/kernel/index"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

// transposeRule maps the cotangent ct of linear node n's result to the
// cotangent of its linear operand i (false: zero). The transpose is the
// adjoint for the real inner product <a, b> = Re Σ conj(a)·b, so a
// complex-linear map's transpose conjugates its coefficients.
type transposeRule func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool)

var transposeRules [numPseudo]transposeRule

func init() {
	same := func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) { return ct, true }
	reshaped := func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		return b.reshape(ct, b.argShape(n.args[i])), true
	}
	selfAdjoint := func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		return b.ap(n.kind, n.attrs, ct), true
	}
	t := &transposeRules
	t[op.Copy], t[op.Contiguous] = same, same
	t[op.Reshape], t[op.Flatten], t[op.Squeeze], t[op.Unsqueeze] = reshaped, reshaped, reshaped, reshaped
	t[op.Negate], t[op.Conj], t[op.Tril], t[op.Triu] = selfAdjoint, selfAdjoint, selfAdjoint, selfAdjoint
	t[op.Scale] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		alpha := n.attrs.Alpha
		return b.scale(complex(real(alpha), -imag(alpha)), ct), true
	}
	t[op.Add] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		return b.unbroadcast(ct, b.argShape(n.args[i])), true
	}
	t[op.Sub] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		if i == 1 {
			ct = b.un(op.Negate, ct)
		}
		return b.unbroadcast(ct, b.argShape(n.args[i])), true
	}
	t[kBroadcast] = t[op.Add]
	t[op.Mul] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		c := n.args[1-i].v
		return b.unbroadcast(b.bin(op.Mul, ct, b.conj(c)), b.argShape(n.args[i])), true
	}
	t[op.Div] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		return b.unbroadcast(b.bin(op.Div, ct, b.conj(n.args[1].v)), b.argShape(n.args[0])), true
	}
	t[op.Where] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		zero := b.scalarOf(ct, 0)
		x, y := ct, zero
		if i == 2 {
			x, y = zero, ct
		}
		return b.unbroadcast(b.ap(op.Where, op.Attrs{}, n.args[0].v, x, y), b.argShape(n.args[i])), true
	}
	t[op.Real] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		if !b.argDType(n.args[0]).IsComplex() {
			return ct, true
		}
		return b.bin(op.Complex, ct, b.scalarOf(ct, 0)), true
	}
	t[op.Imag] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		if !b.argDType(n.args[0]).IsComplex() {
			return trace.Var{}, false
		}
		return b.bin(op.Complex, b.scalarOf(ct, 0), ct), true
	}
	t[op.Complex] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		part := op.Real
		if i == 1 {
			part = op.Imag
		}
		return b.unbroadcast(b.un(part, ct), b.argShape(n.args[i])), true
	}
	t[op.Sum] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		return b.spread(ct, b.argShape(n.args[0]), n.attrs.Axes), true
	}
	t[op.Mean] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		s := b.argShape(n.args[0])
		cnt := 1
		for _, d := range n.attrs.Axes {
			cnt *= s[d]
		}
		if cnt == 0 {
			return trace.Var{}, false
		}
		return b.scale(complex(1/float64(cnt), 0), b.spread(ct, s, n.attrs.Axes)), true
	}
	t[op.CumSum] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		ax := n.attrs.Axes[0]
		rev := b.reversal(ct.Shape()[ax])
		x := b.ap(op.Take, op.Attrs{Axes: []int{ax}}, ct, rev)
		x = b.ap(op.CumSum, op.Attrs{Axes: []int{ax}}, x)
		return b.ap(op.Take, op.Attrs{Axes: []int{ax}}, x, rev), true
	}
	t[op.Matmul] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		var r trace.Var
		if i == 0 {
			r = b.bin(op.Matmul, ct, b.adjoint(n.args[1].v))
		} else {
			r = b.bin(op.Matmul, b.adjoint(n.args[0].v), ct)
		}
		return b.unbroadcast(r, b.argShape(n.args[i])), true
	}
	t[op.Einsum] = transposeEinsum
	t[op.Permute] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		inv := make([]int, len(n.attrs.Axes))
		for d, p := range n.attrs.Axes {
			inv[p] = d
		}
		return b.ap(op.Permute, op.Attrs{Axes: inv}, ct), true
	}
	t[op.Concatenate] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		ax := n.attrs.Axes[0]
		start := 0
		for _, a := range n.args[:i] {
			start += b.argShape(a)[ax]
		}
		return b.slice(ct, ax, start, start+b.argShape(n.args[i])[ax]), true
	}
	t[op.Stack] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		return b.reshape(b.slice(ct, n.attrs.Axes[0], i, i+1), b.argShape(n.args[i])), true
	}
	t[op.Split] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		s := b.argShape(n.args[0])
		ax := n.attrs.Axes[0]
		widths := make([][2]int, len(s))
		widths[ax] = [2]int{n.attrs.Ints[0], s[ax] - n.attrs.Ints[1]}
		return b.padZeros(ct, widths), true
	}
	t[op.Tile] = transposeTile
	t[op.Repeat] = transposeRepeat
	t[op.Pad] = transposePad
	t[op.Roll] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		s := ct.Shape()
		shifts := make([]int, len(s))
		for d, sh := range n.attrs.Ints {
			if s[d] > 0 {
				shifts[d] = (s[d] - sh) % s[d]
			}
		}
		return b.ap(op.Roll, op.Attrs{Axes: slices.Clone(n.attrs.Axes), Ints: shifts}, ct), true
	}
	t[op.Diag] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		k := n.attrs.Ints[0]
		s := b.argShape(n.args[0])
		d := b.ap(op.Diag, op.Attrs{Ints: []int{k}}, ct)
		if len(s) == 1 {
			return d, true
		}
		return b.resize(d, s), true
	}
	t[op.Take] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		ax := n.attrs.Axes[0]
		s := b.argShape(n.args[0])
		idx := n.args[1].v
		shape := make([]int, len(s))
		for d := range shape {
			shape[d] = 1
		}
		shape[ax] = idx.Shape()[0]
		full := b.broadcastTo(b.reshape(idx, shape), ct.Shape())
		return b.scatterInto(s, ax, full, ct), true
	}
	t[op.Gather] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		return b.scatterInto(b.argShape(n.args[0]), n.attrs.Axes[0], n.args[1].v, ct), true
	}
	t[op.Convert] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		// The adjoint of an embedding or of taking the real part is the
		// other one; of a change of precision, the change back.
		return b.ap(op.Convert, op.Attrs{Ints: []int{int(b.argDType(n.args[0]))}}, ct), true
	}
	t[op.MaskedSelect] = transposeMaskedSelect
	initLinalgTransposes()
	t[op.ScatterAdd] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		if i == 0 {
			return ct, true
		}
		g := b.ap(op.Gather, op.Attrs{Axes: slices.Clone(n.attrs.Axes)}, ct, n.args[1].v)
		return b.resize(g, b.argShape(n.args[2])), true
	}
}

// spread is the transpose of a sum over axes: ct (shape s without the
// axes) repeated along them to shape s.
func (b *builder) spread(ct trace.Var, s, axes []int) trace.Var {
	keep := slices.Clone(s)
	for _, d := range axes {
		keep[d] = 1
	}
	return b.broadcastTo(b.reshape(ct, keep), s)
}

// adjoint is the conjugate transpose of every matrix of x (its first two
// axes).
func (b *builder) adjoint(x trace.Var) trace.Var {
	perm := make([]int, x.Rank())
	for d := range perm {
		perm[d] = d
	}
	perm[0], perm[1] = 1, 0
	return b.conj(b.ap(op.Permute, op.Attrs{Axes: perm}, x))
}

// slice is x[start:stop] along axis ax.
func (b *builder) slice(x trace.Var, ax, start, stop int) trace.Var {
	if start == 0 && stop == x.Shape()[ax] {
		return x
	}
	return b.ap(op.Split, op.Attrs{Axes: []int{ax}, Ints: []int{start, stop}}, x)
}

// padZeros pads x with zeros by widths (one pair per axis).
func (b *builder) padZeros(x trace.Var, widths [][2]int) trace.Var {
	ints := []int{int(op.PadConstant)}
	any := false
	for _, w := range widths {
		ints = append(ints, w[0], w[1])
		any = any || w != [2]int{}
	}
	if !any {
		return x
	}
	return b.ap(op.Pad, op.Attrs{Ints: ints}, x)
}

// resize crops or zero-pads x at the end of every axis to shape.
func (b *builder) resize(x trace.Var, shape []int) trace.Var {
	widths := make([][2]int, len(shape))
	for d, n := range shape {
		if m := x.Shape()[d]; m > n {
			x = b.slice(x, d, 0, n)
		} else {
			widths[d][1] = n - m
		}
	}
	return b.padZeros(x, widths)
}

// reversal is the int64 index n-1, ..., 1, 0.
func (b *builder) reversal(n int) trace.Var {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = n - 1 - i
	}
	return b.indexConst(idx)
}

// indexConst records the 1-D int64 constant idx.
func (b *builder) indexConst(idx []int) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	data := make([]int64, len(idx))
	for i, v := range idx {
		data[i] = int64(v)
	}
	x, err := tf.FromSlice(data, len(data))
	if err != nil {
		b.fail(err)
		return trace.Var{}
	}
	return b.p(b.t.Const(tf.ValueOf(x)))
}

// scatterInto is the zero tensor of shape s with src added at the
// coordinates along ax that index (src's shape) gives.
func (b *builder) scatterInto(s []int, ax int, index, src trace.Var) trace.Var {
	return b.ap(op.ScatterAdd, op.Attrs{Axes: []int{ax}}, b.zeros(src.DType(), s), index, src)
}

// gatherBack is the transpose of taking the positions src along axis ax:
// ct (whose extent along ax is len(src)) summed into a tensor of shape s.
func (b *builder) gatherBack(ct trace.Var, s []int, ax int, src []int) trace.Var {
	shape := make([]int, ct.Rank())
	for d := range shape {
		shape[d] = 1
	}
	shape[ax] = len(src)
	full := b.broadcastTo(b.reshape(b.indexConst(src), shape), ct.Shape())
	return b.scatterInto(s, ax, full, ct)
}

// transposeTile sums the tiles of ct: the result axis d of extent
// s'_d·r_d is split into (s'_d, r_d) (column-major, the tile index
// slowest) and the r axes summed.
func transposeTile(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
	reps := n.attrs.Ints
	s := b.argShape(n.args[0])
	lead := len(reps) - len(s)
	split := make([]int, 0, 2*len(reps))
	var axes []int
	for d, r := range reps {
		e := 1
		if d >= lead {
			e = s[d-lead]
		}
		split = append(split, e, r)
		axes = append(axes, 2*d+1)
	}
	x := b.ap(op.Sum, op.Attrs{Axes: axes}, b.reshape(ct, split))
	return b.reshape(x, s), true
}

// transposeRepeat sums the copies of every element: one count r splits
// the axis into (r, n) and sums the r axis; per-element counts scatter.
func transposeRepeat(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
	ax := n.attrs.Axes[0]
	counts := n.attrs.Ints
	s := b.argShape(n.args[0])
	if len(counts) == 1 {
		split := slices.Concat(s[:ax], []int{counts[0], s[ax]}, s[ax+1:])
		return b.ap(op.Sum, op.Attrs{Axes: []int{ax}}, b.reshape(ct, split)), true
	}
	var src []int
	for j, c := range counts {
		for range c {
			src = append(src, j)
		}
	}
	return b.gatherBack(ct, s, ax, src), true
}

// transposePad crops a constant pad; the other modes read the source
// along each axis through a coordinate map (index.PadSource), whose
// transpose sums the cotangent back axis by axis.
func transposePad(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
	mode := op.PadMode(n.attrs.Ints[0])
	w := n.attrs.Ints[1:]
	s := b.argShape(n.args[0])
	x := ct
	for d := len(s) - 1; d >= 0; d-- {
		before, after := w[2*d], w[2*d+1]
		if before == 0 && after == 0 {
			continue
		}
		if mode == op.PadConstant {
			x = b.slice(x, d, before, before+s[d])
			continue
		}
		src := make([]int, before+s[d]+after)
		for u := range src {
			src[u] = index.PadSource(index.Mode(mode), u-before, s[d])
		}
		shape := slices.Clone(x.Shape())
		shape[d] = s[d]
		x = b.gatherBack(x, shape, d, src)
	}
	return x, true
}

// transposeMaskedSelect scatters the cotangent of the selected elements
// back to their places: the k-th true element of the broadcast mask (in
// column-major order) receives ct[k] when k < size, found from the
// running count of the mask.
func transposeMaskedSelect(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
	size := n.attrs.Ints[0]
	if size == 0 {
		return trace.Var{}, false
	}
	as, mask := b.argShape(n.args[0]), n.args[1].v
	bs, f := op.BroadcastShape(as, mask.Shape(), nil)
	if f != nil {
		b.fail(faultErr(b, f))
		return trace.Var{}, false
	}
	cnt := op.Count(bs)
	flat := b.reshape(b.broadcastTo(mask, bs), []int{cnt})
	rank := b.ap(op.CumSum, op.Attrs{Axes: []int{0}}, b.weight(flat, tf.Float64))
	pos := b.bin(op.Sub, rank, b.full(tf.Float64, 1))
	valid := b.bin(op.LogicalAnd, flat, b.bin(op.Less, pos, b.full(tf.Float64, complex(float64(size), 0))))
	idx := b.ap(op.Convert, op.Attrs{Ints: []int{int(tf.Int64)}}, b.ap(op.Where, op.Attrs{}, valid, pos, b.full(tf.Float64, 0)))
	picked := b.ap(op.Take, op.Attrs{Axes: []int{0}}, ct, idx)
	scattered := b.ap(op.Where, op.Attrs{}, valid, picked, b.scalarOf(ct, 0))
	return b.unbroadcast(b.reshape(scattered, bs), as), true
}
