package tenferro_test

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// This file checks einsum evaluation against a reference written here from
// the rules of the grammar alone: it expands the subscripts itself (ellipsis
// right-aligned, size-1 broadcasting, implicit output) and sums directly over
// every label with complex128 accumulation. Each element is compared with a
// bound (n+2)·u·Σ|terms|, n the number of roundings on the longest path
// (operands plus summed terms), u the unit roundoff of T: the bound of a
// recursively or blocked summed product, whatever the contraction order.

// refResult is the reference evaluation of an expression.
type refResult struct {
	shape []int
	val   []complex128 // column-major
	abs   []float64    // Σ |term| per element
	depth int          // rounding depth: summed terms per element plus operands
}

// refAxes expands one operand of subscripts: named labels are code points,
// ellipsis axis j (counted from the right end of the ellipsis, j >= 1) is
// label -j.
func refAxes(term string, rank int) (labels []int, ellipsis int) {
	pre, post, has := strings.Cut(term, "...")
	named := []rune(pre + post)
	if has {
		ellipsis = rank - len(named)
	}
	for _, r := range pre {
		labels = append(labels, int(r))
	}
	for i := range ellipsis {
		labels = append(labels, -(ellipsis - i))
	}
	for _, r := range post {
		labels = append(labels, int(r))
	}
	return labels, ellipsis
}

// reference evaluates subscripts on column-major complex128 data.
func reference(sub string, shapes [][]int, data [][]complex128) refResult {
	sub = strings.ReplaceAll(sub, " ", "")
	lhs, rhs, explicit := strings.Cut(sub, "->")
	terms := strings.Split(lhs, ",")
	axes := make([][]int, len(terms))
	maxE := 0
	count := map[int]int{}
	ext := map[int]int{}
	for k, term := range terms {
		var e int
		axes[k], e = refAxes(term, len(shapes[k]))
		maxE = max(maxE, e)
		for a, l := range axes[k] {
			x := shapes[k][a]
			if cur, ok := ext[l]; !ok || cur == 1 {
				ext[l] = x
			} else if x != 1 && x != cur {
				panic(fmt.Sprintf("reference: label %d extents %d and %d", l, cur, x))
			}
			if l >= 0 {
				count[l]++
			}
		}
	}
	var out []int
	if explicit {
		out, _ = refAxes(rhs, len([]rune(strings.ReplaceAll(rhs, "...", "")))+maxE)
	} else {
		for i := range maxE {
			out = append(out, -(maxE - i))
		}
		var once []int
		for l, c := range count {
			if c == 1 {
				once = append(once, l)
			}
		}
		sort.Ints(once)
		out = append(out, once...)
	}
	var all []int
	for l := range ext {
		all = append(all, l)
	}
	sort.Ints(all)
	res := refResult{depth: len(terms) + 2}
	summed := 1
	for _, l := range all {
		if !slices.Contains(out, l) {
			summed *= ext[l]
		}
	}
	res.depth += summed
	n := 1
	for _, l := range out {
		res.shape = append(res.shape, ext[l])
		n *= ext[l]
	}
	res.val = make([]complex128, n)
	res.abs = make([]float64, n)
	dims := make([]int, len(all))
	total := 1
	for i, l := range all {
		dims[i] = ext[l]
		total *= ext[l]
	}
	// Per dense label position, the stride of each operand (0 along a
	// broadcast axis; repeated labels add up) and of the output.
	pos := map[int]int{}
	for i, l := range all {
		pos[l] = i
	}
	strides := make([][]int, len(terms)+1)
	for k := range terms {
		strides[k] = make([]int, len(all))
		st := 1
		for a, l := range axes[k] {
			if shapes[k][a] != 1 {
				strides[k][pos[l]] += st
			}
			st *= shapes[k][a]
		}
	}
	so := make([]int, len(all))
	st := 1
	for b, l := range out {
		so[pos[l]] += st
		st *= res.shape[b]
	}
	strides[len(terms)] = so
	cur := make([]int, len(all))
	offs := make([]int, len(terms)+1)
	for range total {
		p := complex(1, 0)
		for k := range terms {
			p *= data[k][offs[k]]
		}
		o := offs[len(terms)]
		res.val[o] += p
		res.abs[o] += cmplx.Abs(p)
		for i := range cur {
			cur[i]++
			for k := range offs {
				offs[k] += strides[k][i]
			}
			if cur[i] < dims[i] {
				break
			}
			for k := range offs {
				offs[k] -= strides[k][i] * cur[i]
			}
			cur[i] = 0
		}
	}
	return res
}

func toC128[T tf.Scalar](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	case complex128:
		return x
	}
	panic("unreachable")
}

func unitRoundoff[T tf.Scalar]() float64 {
	switch any(*new(T)).(type) {
	case float32, complex64:
		return 0x1p-24
	}
	return 0x1p-53
}

// each calls f with every column-major multi-index of shape.
func each(shape []int, f func(idx []int)) {
	n := 1
	for _, x := range shape {
		n *= x
	}
	idx := make([]int, len(shape))
	for range n {
		f(idx)
		for a := range idx {
			idx[a]++
			if idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
	}
}

// dense returns t's elements in column-major order as complex128.
func dense[T tf.Scalar](t *tf.Tensor[T]) []complex128 {
	out := make([]complex128, 0, t.Len())
	each(t.Shape(), func(idx []int) {
		v, err := t.At(idx...)
		if err != nil {
			panic(err)
		}
		out = append(out, toC128(v))
	})
	return out
}

// layouts of test operands.
const (
	compact = iota
	transposed
	reversed
	stepped
	nLayouts
)

// operand returns a tensor of shape holding random values, laid out as
// kind asks: compact, a transposed view of a tensor of the reversed shape,
// a view with every axis reversed (negative strides), or every second
// element along each axis of a larger tensor.
func operand[T tf.Scalar](t testing.TB, rng *rand.Rand, shape []int, kind int) *tf.Tensor[T] {
	t.Helper()
	base := layoutBase(shape, kind, 0)
	buf := make([]T, tf.Numel(base))
	tf.FillRand(rng, buf)
	x, err := tf.FromSlice(buf, base...)
	if err != nil {
		t.Fatal(err)
	}
	v, err := layoutView(x, kind, 0)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// layoutBase returns the shape of the tensor that holds a view of shape
// laid out as kind (see operand); pad extra elements per axis of a stepped
// layout leave room around the view.
func layoutBase(shape []int, kind, pad int) []int {
	base := slices.Clone(shape)
	switch kind {
	case transposed:
		slices.Reverse(base)
	case stepped:
		for d := range base {
			base[d] = 2*base[d] + pad
		}
	}
	return base
}

// layoutView returns the view of x (shaped by layoutBase) laid out as
// kind; a stepped view takes every second element from index start.
func layoutView[T tf.Scalar](x *tf.Tensor[T], kind, start int) (*tf.Tensor[T], error) {
	r := x.Rank()
	var err error
	switch kind {
	case transposed:
		perm := make([]int, r)
		for d := range perm {
			perm[d] = r - 1 - d
		}
		x, err = x.Permute(perm...)
	case reversed:
		for d := 0; d < r && err == nil; d++ {
			x, err = x.Reverse(d)
		}
	case stepped:
		for d := 0; d < r && err == nil; d++ {
			x, err = x.Slice(d, start, x.Dim(d), 2)
		}
	}
	return x, err
}

// check compares got with the reference element by element.
func check[T tf.Scalar](t testing.TB, what string, got *tf.Tensor[T], ref refResult) {
	t.Helper()
	if !slices.Equal(got.Shape(), ref.shape) {
		t.Fatalf("%s: shape %v, want %v", what, got.Shape(), ref.shape)
	}
	g := dense(got)
	u := unitRoundoff[T]()
	for i := range g {
		tol := 4 * float64(ref.depth) * u * ref.abs[i]
		if d := cmplx.Abs(g[i] - ref.val[i]); !(d <= tol) {
			t.Fatalf("%s: element %d = %v, want %v (|diff| %.3g > tol %.3g)", what, i, g[i], ref.val[i], d, tol)
		}
	}
}

// runCase evaluates subscripts on random operands of the given shapes and
// layouts with Einsum (and the given options) and checks the result.
func runCase[T tf.Scalar](t testing.TB, e *cpu.Engine, rng *rand.Rand, sub string, shapes [][]int, kinds []int, opts ...tf.EinsumOption) {
	t.Helper()
	ops := make([]*tf.Tensor[T], len(shapes))
	data := make([][]complex128, len(shapes))
	for k, s := range shapes {
		kind := compact
		if kinds != nil {
			kind = kinds[k]
		}
		ops[k] = operand[T](t, rng, s, kind)
		data[k] = dense(ops[k])
	}
	ref := reference(sub, shapes, data)
	got, err := tf.EinsumWith(e, sub, opts, ops...)
	what := fmt.Sprintf("%s %v %v %v", sub, shapes, kinds, tf.DTypeOf[T]())
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	check(t, what, got, ref)
	if err := got.Release(); err != nil {
		t.Fatal(err)
	}
	for k := range ops {
		if !slices.Equal(dense(ops[k]), data[k]) {
			t.Fatalf("%s: operand %d was modified", what, k)
		}
	}
}
