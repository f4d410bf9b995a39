package enginetest

import (
	"fmt"
	"math/cmplx"
	"slices"
	"sort"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
)

// Reference is the naive evaluation of an einsum expression: every label
// summed directly with complex128 accumulation.
type Reference struct {
	Shape []int
	Val   []complex128 // column-major
	Abs   []float64    // Σ |term| per element
	Depth int          // rounding depth: summed terms per element plus operands
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

// EinsumReference evaluates subscripts on column-major complex128 data,
// from the rules of the grammar alone: it expands the subscripts itself
// (ellipsis right-aligned, size-1 broadcasting, implicit output, repeated
// labels as diagonals and embeddings) and sums over every label.
func EinsumReference(sub string, shapes [][]int, data [][]complex128) Reference {
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
	res := Reference{Depth: len(terms) + 2}
	summed := 1
	for _, l := range all {
		if !slices.Contains(out, l) {
			summed *= ext[l]
		}
	}
	res.Depth += summed
	n := 1
	for _, l := range out {
		res.Shape = append(res.Shape, ext[l])
		n *= ext[l]
	}
	res.Val = make([]complex128, n)
	res.Abs = make([]float64, n)
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
		st *= res.Shape[b]
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
		res.Val[o] += p
		res.Abs[o] += cmplx.Abs(p)
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

// Check compares got with the reference element by element, within
// 4·depth·u·Σ|terms| (the bound of a recursively or blocked summed product,
// whatever the contraction order).
func Check[T tf.Scalar](t testing.TB, what string, got *tf.Tensor[T], ref Reference) {
	t.Helper()
	if !slices.Equal(got.Shape(), ref.Shape) {
		t.Fatalf("%s: shape %v, want %v", what, got.Shape(), ref.Shape)
	}
	g := Dense(got)
	u := UnitRoundoff[T]()
	for i := range g {
		tol := 4 * float64(ref.Depth) * u * ref.Abs[i]
		if d := cmplx.Abs(g[i] - ref.Val[i]); !(d <= tol) {
			t.Fatalf("%s: element %d = %v, want %v (|diff| %.3g > tol %.3g)", what, i, g[i], ref.Val[i], d, tol)
		}
	}
}
