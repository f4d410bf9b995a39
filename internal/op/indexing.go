package op

import "strconv"

// The dtype policy and shape rules of the indexing operations (category
// Indexing): Take, Gather, ScatterAdd and MaskedSelect. Their second
// argument is an int64 index or, for MaskedSelect, a bool mask; index
// values are data, checked by the engines when they run (backend.Index).

// indexDTypes is DTypeOf for the indexing operations: the second argument
// is int64 (bool for MaskedSelect), a third one (ScatterAdd's src) has the
// first one's dtype, which k accepts and the result has.
func indexDTypes(k Kind, names []string, in []DType) (DType, *Fault) {
	want := Int64
	if k == MaskedSelect {
		want = Bool
	}
	if len(in) > 1 && in[1] != want {
		return InvalidDType, fault(ErrDType, argName(names, 1), want.String(), in[1].String())
	}
	if len(in) > 2 && in[2] != in[0] {
		return InvalidDType, fault(ErrDType, argName(names, 2), in[0].String()+" like "+argName(names, 0), in[2].String())
	}
	if !in[0].In(k.Info().Accept) {
		return InvalidDType, fault(ErrDType, argName(names, 0), k.Info().Accept.String(), in[0].String())
	}
	return in[0], nil
}

// indexAxis checks a and index for an indexing rule and returns the
// normalized axis.
func indexAxis(a, index []int, axis int) (int, *Fault) {
	if _, f := Numel("a", a); f != nil {
		return 0, f
	}
	if _, f := Numel("index", index); f != nil {
		return 0, f
	}
	if len(a) == 0 {
		return 0, fault(ErrShape, "a", "rank >= 1", "rank 0")
	}
	return Axis("axis", axis, len(a))
}

// TakeShape is the rule of Take: index is 1-D and replaces the extent of
// axis (negative from the end). It returns the normalized axis and the
// output shape.
func TakeShape(a []int, axis int, index, buf []int) (int, []int, *Fault) {
	ax, f := indexAxis(a, index, axis)
	if f != nil {
		return 0, nil, f
	}
	if len(index) != 1 {
		return 0, nil, faultf(ErrShape, "index", "a 1-D index", "rank %d", len(index))
	}
	base := len(buf)
	buf = append(buf, a...)
	buf[base+ax] = index[0]
	if _, f := Numel("index", buf[base:]); f != nil {
		return 0, nil, f
	}
	return ax, buf, nil
}

// within checks that the extents of index are at most those of x (named
// arg) on every axis but skip (-1: none).
func within(index, x []int, arg string, skip int) *Fault {
	for d, n := range index {
		if d != skip && n > x[d] {
			return faultf(ErrShape, "index", "extent <= "+strconv.Itoa(x[d])+" at axis "+strconv.Itoa(d)+" ("+arg+" is "+FmtInts(x)+")", "%d (index is %s)", n, FmtInts(index))
		}
	}
	return nil
}

// GatherShape is the rule of Gather: index has a's rank and, on every
// axis but axis, at most a's extent; the result has index's shape. It
// returns the normalized axis and the output shape.
func GatherShape(a []int, axis int, index, buf []int) (int, []int, *Fault) {
	ax, f := indexAxis(a, index, axis)
	if f != nil {
		return 0, nil, f
	}
	if len(index) != len(a) {
		return 0, nil, faultf(ErrShape, "index", "rank "+strconv.Itoa(len(a))+" like a", "rank %d", len(index))
	}
	if f := within(index, a, "a", ax); f != nil {
		return 0, nil, f
	}
	return ax, append(buf, index...), nil
}

// ScatterAddShape is the rule of ScatterAdd: index and src have a's rank,
// index's extents are at most src's on every axis and at most a's on
// every axis but axis; the result has a's shape. It returns the
// normalized axis and the output shape.
func ScatterAddShape(a []int, axis int, index, src, buf []int) (int, []int, *Fault) {
	ax, f := indexAxis(a, index, axis)
	if f != nil {
		return 0, nil, f
	}
	if _, f := Numel("src", src); f != nil {
		return 0, nil, f
	}
	if len(index) != len(a) {
		return 0, nil, faultf(ErrShape, "index", "rank "+strconv.Itoa(len(a))+" like a", "rank %d", len(index))
	}
	if len(src) != len(a) {
		return 0, nil, faultf(ErrShape, "src", "rank "+strconv.Itoa(len(a))+" like a", "rank %d", len(src))
	}
	if f := within(index, src, "src", -1); f != nil {
		return 0, nil, f
	}
	if f := within(index, a, "a", ax); f != nil {
		return 0, nil, f
	}
	return ax, append(buf, a...), nil
}

// MaskedSelectShape is the rule of MaskedSelect: a and mask broadcast
// together (NumPy's rule); it returns the broadcast shape, over which the
// selection runs.
func MaskedSelectShape(a, mask, buf []int) ([]int, *Fault) {
	out, f := BroadcastShape(a, mask, buf)
	if f != nil && f.Arg == "b" {
		f.Arg = "mask"
	}
	return out, f
}

// indexingShape is Kind.Shape for the indexing operations.
func indexingShape(k Kind, a *Attrs, in [][]int) (out []int, f *Fault, ok bool) {
	var ax int
	switch k {
	case Take, Gather, ScatterAdd:
		if ax, f = attrAxis(a); f != nil {
			return nil, f, true
		}
		switch k {
		case Take:
			ax, out, f = TakeShape(in[0], ax, in[1], nil)
		case Gather:
			ax, out, f = GatherShape(in[0], ax, in[1], nil)
		default:
			ax, out, f = ScatterAddShape(in[0], ax, in[1], in[2], nil)
		}
		a.Axes = []int{ax}
	case MaskedSelect:
		var size []int
		if _, f = MaskedSelectShape(in[0], in[1], nil); f == nil {
			if size, f = attrInts(a, "size", 1); f == nil {
				if size[0] < 0 || size[0] > MaxElements {
					f = faultf(ErrArgument, "size", "a length in [0, 2^46]", "%d", size[0])
				}
				out = []int{size[0]}
			}
		}
	default:
		return nil, nil, false
	}
	if f != nil {
		return nil, f, true
	}
	return out, nil, true
}
