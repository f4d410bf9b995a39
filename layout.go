package tenferro

import (
	"github.com/tenferro-go/tenferro/internal/op"
)

// overlaps reports whether a and b share storage and their index ranges
// intersect. It is conservative: interleaved views with disjoint elements
// still count as overlapping.
func overlaps[T Elem](a, b *Tensor[T]) bool {
	if a.st != b.st {
		return false
	}
	alo, ahi, aok := op.Span(a.v.Shape, a.v.Strides, a.v.Off)
	blo, bhi, bok := op.Span(b.v.Shape, b.v.Strides, b.v.Off)
	return aok && bok && alo <= bhi && blo <= ahi
}

// sameView reports whether a and b are the identical view of one storage.
func sameView[T Elem](a, b *Tensor[T]) bool {
	return a.st == b.st && a.v.Off == b.v.Off && equalInts(a.v.Shape, b.v.Shape) && equalInts(a.v.Strides, b.v.Strides)
}

// checkDst applies the library's destination rule (package documentation,
// "Destinations") for operation name: dst is live, has exactly the result
// shape and distinct elements, and overlaps no input, except that the
// destination of an elementwise operation may be the very same view as an
// input (an in-place update). names are the inputs' argument names (nil:
// operands[k]).
func checkDst[T Elem](name string, elementwise bool, dst *Tensor[T], shape []int, names []string, ins ...*Tensor[T]) error {
	if err := dst.check(name, "dst"); err != nil {
		return err
	}
	if !equalInts(dst.v.Shape, shape) {
		return shapeError(name, "dst", shape, dst.v.Shape)
	}
	if !op.Distinct(dst.v.Shape, dst.v.Strides) {
		return newError(name, "dst", "a view whose elements are distinct (no zero or overlapping strides)", "strides "+op.FmtInts(dst.v.Strides)+" for shape "+op.FmtInts(dst.v.Shape), ErrAlias)
	}
	for k, in := range ins {
		if in.st != dst.st || !overlaps(dst, in) || elementwise && sameView(dst, in) {
			continue
		}
		arg := op.OperandName(k)
		if k < len(names) {
			arg = names[k]
		}
		if elementwise {
			return newError(name, "dst", "storage disjoint from "+arg+", or the very same view (in place)", "a view partly overlapping "+arg, ErrAlias)
		}
		return newError(name, "dst", "storage disjoint from "+arg, "a view overlapping "+arg, ErrAlias)
	}
	return nil
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func shapeError(name, arg string, want, got []int) error {
	return newError(name, arg, "shape "+op.FmtInts(want), "shape "+op.FmtInts(got), ErrShape)
}

// eachRun visits the elements of the view (shape, strides, off) in
// column-major order as runs: f(i, p, n, s) says that elements i, i+1,
// ..., i+n-1 of that order live at storage indices p, p+s, ...,
// p+(n-1)*s. Axes of extent 1 are skipped and an axis whose stride
// continues the run of the axes before it joins the run, so a compact
// view is one run. An empty view makes no call; a 0-d one makes one call
// with n = 1. The shape must be valid (rank at most MaxRank).
func eachRun(shape, strides []int, off int, f func(i, p, n, s int)) {
	var ext, str, idx [MaxRank]int
	r := 0
	for d, n := range shape {
		switch {
		case n == 0:
			return
		case n == 1:
		case r > 0 && strides[d] == str[r-1]*ext[r-1]:
			ext[r-1] *= n
		default:
			ext[r], str[r] = n, strides[d]
			r++
		}
	}
	if r == 0 {
		f(0, off, 1, 1)
		return
	}
	n, s, p := ext[0], str[0], off
	for i := 0; ; i += n {
		f(i, p, n, s)
		d := 1
		for ; d < r; d++ {
			idx[d]++
			p += str[d]
			if idx[d] < ext[d] {
				break
			}
			p -= str[d] * ext[d]
			idx[d] = 0
		}
		if d == r {
			return
		}
	}
}
