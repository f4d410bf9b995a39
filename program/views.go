package program

import (
	"slices"

	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

// isView reports whether operation k is realized as a view: Permute and
// the reshapes (Reshape, Squeeze, Unsqueeze, Flatten).
func isView(k op.Kind) bool {
	return k == opPermute || k == opReshape || k == op.Squeeze || k == op.Unsqueeze || k == op.Flatten
}

// viewStrides returns the strides of view node nd over the storage of
// value src when src lives in a slot and the view is expressible: always
// for Permute, Squeeze and Unsqueeze, for Reshape and Flatten when src is
// compact.
func (c *compiler) viewStrides(nd trace.Node, src int) ([]int, bool) {
	sv := &c.p.vals[src]
	var ss []int
	switch sv.kind {
	case valSlot:
		ss = compactStrides(sv.shape)
	case valView:
		ss = sv.strides
	default:
		return nil, false
	}
	switch nd.Op {
	case opPermute:
		out := make([]int, len(nd.Attrs.Axes))
		for d, a := range nd.Attrs.Axes {
			out[d] = ss[a]
		}
		return out, true
	case op.Squeeze: // the strides of the kept axes
		out := make([]int, 0, len(nd.Shape))
		for d, s := range ss {
			if !slices.Contains(nd.Attrs.Axes, d) {
				out = append(out, s)
			}
		}
		return out, true
	case op.Unsqueeze: // new axes of extent 1 take any stride
		out := make([]int, len(nd.Shape))
		j := 0
		for d := range out {
			if !slices.Contains(nd.Attrs.Axes, d) {
				out[d] = ss[j]
				j++
			}
		}
		return out, true
	}
	if !isCompact(sv.shape, ss) {
		return nil, false
	}
	return compactStrides(nd.Shape), true
}

func compactStrides(shape []int) []int {
	s := make([]int, len(shape))
	st := 1
	for d, x := range shape {
		s[d] = st
		st *= x
	}
	return s
}

// isCompact reports whether strides are the compact column-major strides of
// shape, ignoring axes of extent 1 (an empty shape is compact).
func isCompact(shape, strides []int) bool {
	if slices.Contains(shape, 0) {
		return true
	}
	st := 1
	for d, x := range shape {
		if x != 1 && strides[d] != st {
			return false
		}
		st *= x
	}
	return true
}
