package ad

import (
	"slices"
	"strings"
	"unicode"

	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

// Einsum is linear in each operand. Its tangent is the sum over the
// operands with a tangent of the same einsum with that operand replaced by
// its tangent; the transpose for operand i is an einsum of the output's
// cotangent with the conjugates of the other operands, written to operand
// i's labels:
//
//   - a label repeated in operand i (a diagonal it reads) is repeated in
//     the output, which embeds the diagonal;
//   - a label repeated in the output is repeated in the cotangent's term,
//     which reads the diagonal;
//   - a label only operand i has (summed by the forward einsum) comes from
//     a vector of ones of its extent;
//   - an axis of extent 1 that the forward einsum broadcast is summed and
//     restored by a reshape.
//
// package program plans the transposed einsum like any other, with its
// own path.
//
// An einsum of three or more operands is differentiated as the pairwise
// contractions of its path (pairwise): each step's tangent and transpose
// are two pairwise einsums, so the derivative costs a small multiple of
// the forward pass, where one einsum per operand over all the others
// would cost the forward pass once per operand.

func jvpEinsum(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
	var terms []int
	for k, t := range ts {
		if t < 0 {
			continue
		}
		args := make([]arg, len(xs))
		for j, x := range xs {
			args[j] = coef(x)
		}
		args[k] = lin(t)
		terms = append(terms, b.emit(op.Einsum, op.Attrs{Subscripts: nd.Attrs.Subscripts}, args...))
	}
	return b.sum(terms...)
}

func transposeEinsum(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
	shapes := make([][]int, len(n.args))
	for k, a := range n.args {
		shapes[k] = b.argShape(a)
	}
	p, _, f := op.EinsumShape(n.attrs.Subscripts, shapes)
	if f != nil {
		b.fail(faultErr(b, f))
		return trace.Var{}, false
	}
	present := make([]bool, p.NumLabels)
	if small, ok := b.spreadOf[ct.ID()]; ok && len(p.Output) == small.Rank() && len(p.OutputUnique) == len(p.Output) {
		// A cotangent that repeats a smaller one (the seed of a sum's
		// gradient): read the smaller one, its repeated axes of extent
		// 1 broadcast by the einsum, and the other labels come from
		// ones below.
		for d, l := range p.Output {
			if small.Shape()[d] == ct.Shape()[d] {
				present[l] = true
			}
		}
		ct = small
	} else {
		for _, l := range p.Output {
			present[l] = true
		}
	}
	terms := []string{labelString(p.Output)}
	operands := []trace.Var{ct}
	for k, a := range n.args {
		if k == i {
			continue
		}
		for d, l := range p.Inputs[k] {
			if !p.Broadcast[k][d] {
				present[l] = true
			}
		}
		terms = append(terms, labelString(p.Inputs[k]))
		operands = append(operands, b.conj(a.v))
	}
	var out []int
	dropped := false
	for d, l := range p.Inputs[i] {
		if p.Broadcast[i][d] {
			dropped = true
			continue
		}
		out = append(out, l)
		if !present[l] {
			present[l] = true
			terms = append(terms, labelString([]int{l}))
			operands = append(operands, b.full(ct.DType(), 1, p.Extents[l]))
		}
	}
	r := b.ap(op.Einsum, op.Attrs{Subscripts: strings.Join(terms, ",") + "->" + labelString(out)}, operands...)
	if dropped {
		r = b.reshape(r, shapes[i])
	}
	return r, true
}

// labelRunes holds a letter for every label id, grown on demand.
var labelRunes = func() []rune {
	var rs []rune
	for r := 'a'; r <= 'z'; r++ {
		rs = append(rs, r)
	}
	for r := 'A'; r <= 'Z'; r++ {
		rs = append(rs, r)
	}
	for r := rune(0xC0); len(rs) < 4096 && r < unicode.MaxRune; r++ {
		if unicode.IsLetter(r) {
			rs = append(rs, r)
		}
	}
	return rs
}()

// labelString writes label ids as einsum letters.
func labelString(ls []int) string {
	var sb strings.Builder
	for _, l := range ls {
		sb.WriteRune(labelRunes[l])
	}
	return sb.String()
}

// pairwise records the einsum nd of operands xs as the pairwise
// contractions of its planned path (and the final relabelling), with
// their tangents; it returns the result and its tangent.
func (b *builder) pairwise(nd *trace.Node, xs []trace.Var, ts []int) (trace.Var, int) {
	shapes := make([][]int, len(xs))
	for k, x := range xs {
		shapes[k] = x.Shape()
	}
	p, _, f := op.EinsumShape(nd.Attrs.Subscripts, shapes)
	if f != nil {
		b.fail(faultErr(b, f))
		return trace.Var{}, -1
	}
	pl, err := einsum.NewPlan(p, einsum.Options{})
	if err != nil {
		b.fail(err)
		return trace.Var{}, -1
	}
	vals := slices.Clone(xs)
	tans := slices.Clone(ts)
	labels := slices.Clone(p.Inputs)
	for _, st := range pl.Steps {
		l, r := st.LeftID, st.RightID
		sub := labelString(labels[l]) + "," + labelString(labels[r]) + "->" + labelString(st.Out)
		v, t := b.einsumNode(sub, []trace.Var{vals[l], vals[r]}, []int{tans[l], tans[r]})
		vals, tans, labels = append(vals, v), append(tans, t), append(labels, st.Out)
	}
	last := len(vals) - 1
	if slices.Equal(labels[last], p.Output) {
		return vals[last], tans[last]
	}
	return b.einsumNode(labelString(labels[last])+"->"+labelString(p.Output), vals[last:], tans[last:])
}

// einsumNode records einsum sub of xs and its tangent.
func (b *builder) einsumNode(sub string, xs []trace.Var, ts []int) (trace.Var, int) {
	nd := trace.Node{Op: op.Einsum, Attrs: op.Attrs{Subscripts: sub}}
	y := b.ap(op.Einsum, nd.Attrs, xs...)
	if !slices.ContainsFunc(ts, func(t int) bool { return t >= 0 }) {
		return y, -1
	}
	return y, jvpEinsum(b, &nd, xs, y, ts)
}
