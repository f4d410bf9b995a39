package enginetest

import (
	"math/rand/v2"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
)

// The structural operations of every dtype against reference loops that
// read the inputs by logical index: every input layout (Broadcast
// included), destinations of every layout inside sentinels.

func (s elemSuite[T]) structural(t *testing.T, e tf.Engine) {
	r := rng(11)
	for _, shape := range elemShapes {
		for kind := range elemLayouts {
			a := elemOperand[T](t, r, shape, kind)
			what := name(shape, " ", elemLayoutName(kind), " ")
			s.reshapes(t, e, r, what, a, kind)
			s.joins(t, e, r, what, a, kind)
			s.tiles(t, e, r, what, a, kind)
			s.pads(t, e, r, what, a, kind)
			s.triangles(t, e, what, a, kind)
		}
	}
	for _, shape := range [][]int{{0}, {1}, {5}, {3, 4}, {4, 3}, {1, 6}, {0, 3}} {
		for kind := range elemLayouts {
			s.diags(t, e, name("Diag ", shape, " ", elemLayoutName(kind)), elemOperand[T](t, r, shape, kind), kind)
		}
	}
}

// reshapes checks Flatten, ReshapeCopy, Contiguous and the views Squeeze,
// Unsqueeze and SplitAt.
func (elemSuite[T]) reshapes(t *testing.T, e tf.Engine, r *rand.Rand, what string, a *tf.Tensor[T], kind int) {
	shape := a.Shape()
	n := a.Len()
	linear := func(idx []int, out []int) T { return elemAt(a, unravel(ravel(idx, out), shape)...) }
	flat := []int{n}
	got, err := tf.Flatten(e, a)
	result(t, what+"Flatten", got, err, flat, func(idx []int) T { return linear(idx, flat) })
	into(t, what+"FlattenInto", flat, kind+1, func(d *tf.Tensor[T]) error { return tf.FlattenInto(e, d, a) },
		func(idx []int) T { return linear(idx, flat) })
	rev := slices.Clone(shape)
	slices.Reverse(rev)
	got, err = tf.ReshapeCopy(e, a, rev...)
	result(t, what+"ReshapeCopy", got, err, rev, func(idx []int) T { return linear(idx, rev) })
	for dk := range NumLayouts {
		into(t, what+"ReshapeCopyInto "+LayoutName(dk), rev, dk, func(d *tf.Tensor[T]) error { return tf.ReshapeCopyInto(e, d, a) },
			func(idx []int) T { return linear(idx, rev) })
	}
	for _, order := range []tf.Order{tf.ColumnMajor, tf.RowMajor} {
		c, err := tf.Contiguous(e, a, order)
		mustNil(t, what+"Contiguous", err)
		expect(t, what+"Contiguous", c, shape, func(idx []int) T { return elemAt(a, idx...) })
		st, want := 1, make([]int, len(shape))
		for d := range shape {
			if order == tf.RowMajor {
				d = len(shape) - 1 - d
			}
			want[d] = st
			st *= shape[d]
		}
		if !slices.Equal(c.Strides(), want) || c.Offset() != 0 {
			t.Fatalf("%sContiguous(%d): strides %v offset %d, want %v", what, order, c.Strides(), c.Offset(), want)
		}
		mustNil(t, what, c.Release())
	}
	sq, err := a.Squeeze()
	mustNil(t, what+"Squeeze", err)
	kept := []int{}
	for d, x := range shape {
		if x != 1 {
			kept = append(kept, d)
		}
	}
	expect(t, what+"Squeeze", sq, sq.Shape(), func(idx []int) T {
		full := make([]int, len(shape))
		for i, d := range kept {
			full[d] = idx[i]
		}
		return elemAt(a, full...)
	})
	u, err := a.Unsqueeze(0, -1)
	mustNil(t, what+"Unsqueeze", err)
	expect(t, what+"Unsqueeze", u, append(append([]int{1}, shape...), 1), func(idx []int) T { return elemAt(a, idx[1:len(idx)-1]...) })
	if len(shape) > 0 {
		cut := []int{r.IntN(shape[0] + 2), -1}
		parts, err := a.SplitAt(0, cut...)
		mustNil(t, what+"SplitAt", err)
		lo := 0
		for k, p := range parts {
			hi := shape[0]
			if k < len(cut) {
				hi = min(max(cut[k], 0), shape[0])
				if cut[k] < 0 {
					hi = max(shape[0]+cut[k], 0)
				}
			}
			off := lo
			expect(t, what+"SplitAt", p, with(shape, 0, max(hi-lo, 0)), func(idx []int) T { return elemAt(a, with(idx, 0, idx[0]+off)...) })
			lo = hi
		}
	}
}

// joins checks Concatenate and Stack of a with operands of other layouts.
func (elemSuite[T]) joins(t *testing.T, e tf.Engine, r *rand.Rand, what string, a *tf.Tensor[T], kind int) {
	shape := a.Shape()
	for axis := range len(shape) {
		b := elemOperand[T](t, r, with(shape, axis, r.IntN(3)), (kind+1)%elemLayouts)
		c := elemOperand[T](t, r, with(shape, axis, 1), (kind+2)%elemLayouts)
		na, nb := shape[axis], b.Dim(axis)
		out := with(shape, axis, na+nb+1)
		want := func(idx []int) T {
			switch i := idx[axis]; {
			case i < na:
				return elemAt(a, idx...)
			case i < na+nb:
				return elemAt(b, with(idx, axis, i-na)...)
			}
			return elemAt(c, with(idx, axis, 0)...)
		}
		w := name(what, "Concatenate axis ", axis)
		got, err := tf.Concatenate(e, axis-len(shape), a, b, c)
		result(t, w, got, err, out, want)
		into(t, w+" into", out, kind+3, func(d *tf.Tensor[T]) error { return tf.ConcatenateInto(e, d, axis, a, b, c) }, want)
	}
	b := elemOperand[T](t, r, shape, (kind+3)%elemLayouts)
	for axis := range len(shape) + 1 {
		out := slices.Insert(slices.Clone(shape), axis, 3)
		want := func(idx []int) T {
			rest := slices.Delete(slices.Clone(idx), axis, axis+1)
			if idx[axis] == 1 {
				return elemAt(b, rest...)
			}
			return elemAt(a, rest...)
		}
		w := name(what, "Stack axis ", axis)
		got, err := tf.Stack(e, axis, a, b, a)
		result(t, w, got, err, out, want)
		into(t, w+" into", out, kind+1, func(d *tf.Tensor[T]) error { return tf.StackInto(e, d, axis, a, b, a) }, want)
	}
}

// tiles checks Tile and Repeat (one count and a count per element).
func (elemSuite[T]) tiles(t *testing.T, e tf.Engine, r *rand.Rand, what string, a *tf.Tensor[T], kind int) {
	shape := a.Shape()
	reps := make([]int, r.IntN(len(shape)+2))
	for i := range reps {
		reps[i] = r.IntN(4)
	}
	rank := max(len(shape), len(reps))
	out := make([]int, rank)
	for d := range out {
		m, x := 1, 1
		if s := d - (rank - len(shape)); s >= 0 {
			m = shape[s]
		}
		if s := d - (rank - len(reps)); s >= 0 {
			x = reps[s]
		}
		out[d] = m * x
	}
	want := func(idx []int) T {
		src := make([]int, len(shape))
		for s := range src {
			src[s] = idx[s+rank-len(shape)] % shape[s]
		}
		return elemAt(a, src...)
	}
	w := name(what, "Tile ", reps)
	got, err := tf.Tile(e, a, reps...)
	result(t, w, got, err, out, want)
	into(t, w+" into", out, kind+2, func(d *tf.Tensor[T]) error { return tf.TileInto(e, d, a, reps...) }, want)
	for axis, n := range shape {
		counts := [][]int{{r.IntN(4)}, make([]int, n)}
		for i := range counts[1] {
			counts[1][i] = r.IntN(4)
		}
		for _, c := range counts {
			var src []int // source index of every output position along axis
			for i := range n {
				for range c[min(i, len(c)-1)] {
					src = append(src, i)
				}
			}
			out := with(shape, axis, len(src))
			want := func(idx []int) T { return elemAt(a, with(idx, axis, src[idx[axis]])...) }
			w := name(what, "Repeat axis ", axis, " ", c)
			got, err := tf.Repeat(e, a, axis, c...)
			result(t, w, got, err, out, want)
			into(t, w+" into", out, kind+1, func(d *tf.Tensor[T]) error { return tf.RepeatInto(e, d, a, axis, c...) }, want)
		}
	}
}

// padSource is the reference of one axis of Pad: the source coordinate
// of offset u from the first source element (s elements), -1 for the
// value. It folds and clamps directly, unlike the kernels.
func padSource(mode tf.PadMode, u, s int) int {
	for u < 0 || u >= s {
		switch mode {
		case tf.PadConstant:
			return -1
		case tf.PadEdge:
			u = min(max(u, 0), s-1)
		case tf.PadWrap:
			u = (u%s + s) % s
		case tf.PadReflect:
			if s == 1 {
				return 0
			}
			if u < 0 {
				u = -u
			} else {
				u = 2*(s-1) - u
			}
		case tf.PadSymmetric:
			if u < 0 {
				u = -u - 1
			} else {
				u = 2*s - 1 - u
			}
		}
	}
	return u
}

// pads checks Pad in every mode and Roll.
func (elemSuite[T]) pads(t *testing.T, e tf.Engine, r *rand.Rand, what string, a *tf.Tensor[T], kind int) {
	shape := a.Shape()
	value := elemOf[T](0.625)
	for _, mode := range []tf.PadMode{tf.PadConstant, tf.PadEdge, tf.PadReflect, tf.PadSymmetric, tf.PadWrap} {
		widths := make([][2]int, len(shape))
		out := slices.Clone(shape)
		for d, n := range shape {
			if n > 0 || mode == tf.PadConstant {
				widths[d] = [2]int{[]int{0, 1, 2, 7}[r.IntN(4)], []int{0, 1, 3}[r.IntN(3)]}
			}
			out[d] += widths[d][0] + widths[d][1]
		}
		want := func(idx []int) T {
			src := make([]int, len(shape))
			for d := range src {
				if src[d] = padSource(mode, idx[d]-widths[d][0], shape[d]); src[d] < 0 {
					return value
				}
			}
			return elemAt(a, src...)
		}
		w := name(what, "Pad ", mode, " ", widths)
		got, err := tf.Pad(e, a, widths, mode, value)
		result(t, w, got, err, out, want)
		into(t, w+" into", out, kind+3, func(d *tf.Tensor[T]) error { return tf.PadInto(e, d, a, widths, mode, value) }, want)
	}
	if len(shape) == 0 {
		return
	}
	axes := []int{r.IntN(len(shape)), r.IntN(len(shape)) - len(shape), 0}
	shifts := []int{r.IntN(21) - 10, r.IntN(9) - 4, 1}
	total := make([]int, len(shape))
	for i, ax := range axes {
		total[(ax+len(shape))%len(shape)] += shifts[i]
	}
	want := func(idx []int) T {
		src := make([]int, len(shape))
		for d, n := range shape {
			src[d] = ((idx[d]-total[d])%n + n) % n
		}
		return elemAt(a, src...)
	}
	w := name(what, "Roll ", shifts, " ", axes)
	got, err := tf.Roll(e, a, shifts, axes)
	result(t, w, got, err, shape, want)
	into(t, w+" into", shape, kind+1, func(d *tf.Tensor[T]) error { return tf.RollInto(e, d, a, shifts, axes) }, want)
}

// triangles checks Tril and Triu, also in place.
func (elemSuite[T]) triangles(t *testing.T, e tf.Engine, what string, a *tf.Tensor[T], kind int) {
	shape := a.Shape()
	if len(shape) < 2 {
		return
	}
	var zero T
	for _, upper := range []bool{false, true} {
		eager, intoF := tf.Tril[T], tf.TrilInto[T]
		if upper {
			eager, intoF = tf.Triu[T], tf.TriuInto[T]
		}
		for _, k := range []int{-4, -1, 0, 2, 9} {
			want := func(idx []int) T {
				if d := idx[1] - idx[0]; upper && d >= k || !upper && d <= k {
					return elemAt(a, idx...)
				}
				return zero
			}
			w := name(what, "Tri upper=", upper, " k=", k)
			got, err := eager(e, a, k)
			result(t, w, got, err, shape, want)
			into(t, w+" into", shape, kind+2, func(d *tf.Tensor[T]) error { return intoF(e, d, a, k) }, want)
			if kind != Broadcast {
				c, err := tf.Copy(e, a)
				mustNil(t, w, err)
				v, _ := LayoutView(c, Compact, 0)
				mustNil(t, w+" in place", intoF(e, v, v, k))
				expect(t, w+" in place", v, shape, want)
				mustNil(t, w, c.Release())
			}
		}
	}
}

// diags checks Diag of vectors and matrices for diagonals in and outside
// them.
func (elemSuite[T]) diags(t *testing.T, e tf.Engine, what string, a *tf.Tensor[T], kind int) {
	shape := a.Shape()
	var zero T
	for _, k := range []int{-5, -2, -1, 0, 1, 3, 6} {
		var out []int
		var want func(idx []int) T
		if len(shape) == 1 {
			n := shape[0] + max(k, -k)
			out = []int{n, n}
			want = func(idx []int) T {
				if idx[1]-idx[0] != k {
					return zero
				}
				return elemAt(a, min(idx[0], idx[1]))
			}
		} else {
			n := max(0, min(shape[0], shape[1]-k))
			if k < 0 {
				n = max(0, min(shape[0]+k, shape[1]))
			}
			out = []int{n}
			want = func(idx []int) T { return elemAt(a, idx[0]+max(-k, 0), idx[0]+max(k, 0)) }
		}
		w := name(what, " k=", k)
		got, err := tf.Diag(e, a, k)
		result(t, w, got, err, out, want)
		into(t, w+" into", out, kind+1, func(d *tf.Tensor[T]) error { return tf.DiagInto(e, d, a, k) }, want)
	}
}

// testStructuralAllocs checks that the Into forms of the structural
// operations allocate nothing on a warm engine.
func testStructuralAllocs(t *testing.T, e tf.Engine) {
	r := rng(12)
	a := Operand[float64](t, r, []int{6, 5}, Transposed)
	b := Operand[float64](t, r, []int{6, 3}, Stepped)
	m := Operand[float64](t, r, []int{5}, Reversed)
	z := func(shape ...int) *tf.Tensor[float64] {
		d, err := tf.Zeros[float64](shape...)
		mustNil(t, "Zeros", err)
		return d
	}
	cat, stk, til, rep, rep2 := z(6, 8), z(6, 2, 5), z(2, 12, 10), z(6, 15), z(6, 6)
	pad, roll, tri, diag, flat, resh := z(9, 7), z(6, 5), z(6, 5), z(6, 6), z(30), z(10, 3)
	// A stepped destination that is no view of a's shape and of which a
	// is no view: ReshapeCopyInto goes through a pooled buffer.
	wide, _ := z(20, 3).Slice(0, 0, 20, 2)
	cases := map[string]func() error{
		"ConcatenateInto":        func() error { return tf.ConcatenateInto(e, cat, 1, a, b) },
		"StackInto":              func() error { return tf.StackInto(e, stk, 1, a, a) },
		"TileInto":               func() error { return tf.TileInto(e, til, a, 2, 2, 2) },
		"RepeatInto":             func() error { return tf.RepeatInto(e, rep, a, 1, 3) },
		"RepeatInto per element": func() error { return tf.RepeatInto(e, rep2, a, 1, 0, 1, 2, 0, 3) },
		"PadInto":                func() error { return tf.PadInto(e, pad, a, [][2]int{{1, 2}, {1, 1}}, tf.PadReflect, 0) },
		"RollInto":               func() error { return tf.RollInto(e, roll, a, []int{2, -1}, []int{0, 1}) },
		"TrilInto":               func() error { return tf.TrilInto(e, tri, a, 1) },
		"DiagInto":               func() error { return tf.DiagInto(e, diag, m, -1) },
		"FlattenInto":            func() error { return tf.FlattenInto(e, flat, a) },
		"ReshapeCopyInto":        func() error { return tf.ReshapeCopyInto(e, resh, a) },
		"ReshapeCopyInto pooled": func() error { return tf.ReshapeCopyInto(e, wide, a) },
	}
	for name, run := range cases {
		mustNil(t, name, run())
		if raceEnabled {
			continue
		}
		if n := testing.AllocsPerRun(20, func() {
			if err := run(); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s allocates %v times per call on a warm engine", name, n)
		}
	}
}
