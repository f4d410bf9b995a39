package tenferro

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// PrintThreshold and PrintEdgeItems control summarization: a tensor of
// more than PrintThreshold elements prints only the first and last
// PrintEdgeItems indices of every axis longer than 2·PrintEdgeItems, with
// "..." in place of the rest (NumPy's defaults). The '#' flag (%#v, %#.3f)
// prints every element.
const (
	PrintThreshold = 1000
	PrintEdgeItems = 3
)

// String returns the tensor as %v formats it. A tensor prints in logical
// order, as NumPy prints an array, whatever its storage: a header with the
// dtype and the shape as a NumPy tuple ((), (3,), (2, 3)), a newline, then
// nested brackets with the last axis innermost, so that a (2, 3) tensor
// with element (i, j) = a_ij prints
//
//	Tensor[f64] (2, 3)
//	[[a00 a01 a02]
//	 [a10 a11 a12]]
//
// Blocks of a rank-3 tensor are separated by a blank line, those of rank 4
// by two, and so on; rows are never wrapped. A 0-d tensor prints its value
// and an empty one "[]". Elements are read through the view (shape,
// strides, offset), so a transposed, sliced, reversed or broadcast view
// prints exactly as its compact Clone does. See [Tensor.Format] for the
// element format and [PrintThreshold] for summarization.
//
// String never fails: a nil tensor prints as "Tensor[f64] <nil>", the zero
// Tensor as "Tensor[f64] <zero Tensor>" and a released one as its header
// followed by " <released>".
func (t *Tensor[T]) String() string {
	return string(t.appendText(nil, printOpts{spec: "%v"}))
}

// Format implements [fmt.Formatter]. Every verb prints the header and then
// applies itself, with its flags, width and precision, to every element:
// %.3f, %e, %8.2f, %d (int64), %t (bool). %v and %s format elements as
// Go's %v does: the shortest form that reads back exactly (1, 0.1, 1e+06,
// NaN, +Inf), complex numbers as (1+2i), int64 as integers and bool as
// true and false. Elements are right-aligned in columns to the widest one
// printed, as NumPy aligns them ('-' aligns them left). Two flags belong to
// the tensor rather than its elements: '#' prints every element, without
// summarization, and '+' with %v adds the strides and the storage offset
// to the header, as in "Tensor[f64] (2, 3) strides (1, 2) offset 0". A verb
// that does not suit the element type prints fmt's %!verb marker for every
// element.
func (t *Tensor[T]) Format(f fmt.State, verb rune) {
	o := printOpts{full: f.Flag('#'), layout: verb == 'v' && f.Flag('+'), left: f.Flag('-')}
	spec := []byte{'%'}
	for _, c := range "-+ 0" {
		if f.Flag(int(c)) && (c != '+' || verb != 'v') {
			spec = utf8.AppendRune(spec, c)
		}
	}
	if w, ok := f.Width(); ok {
		spec = strconv.AppendInt(spec, int64(w), 10)
	}
	if p, ok := f.Precision(); ok {
		spec = append(spec, '.')
		spec = strconv.AppendInt(spec, int64(p), 10)
	}
	if verb == 's' {
		verb = 'v'
	}
	o.spec = string(utf8.AppendRune(spec, verb))
	f.Write(t.appendText(nil, o))
}

// Format implements [fmt.Formatter] for the wrapped tensor (see
// [Tensor.Format]); the zero Value prints "Value(empty)".
func (v Value) Format(f fmt.State, verb rune) {
	if v.t == nil {
		f.Write([]byte("Value(empty)"))
		return
	}
	v.t.(fmt.Formatter).Format(f, verb)
}

// printOpts is what a verb asks of a printout.
type printOpts struct {
	spec   string // the format of one element, for fmt.Appendf
	left   bool   // pad elements on the right
	full   bool   // print every element
	layout bool   // add strides and offset to the header
}

// appendText appends the printout of t to b.
func (t *Tensor[T]) appendText(b []byte, o printOpts) []byte {
	b = append(b, "Tensor["...)
	b = append(b, t.DType().String()...)
	b = append(b, ']')
	switch {
	case t == nil:
		return append(b, " <nil>"...)
	case t.st == nil:
		return append(b, " <zero Tensor>"...)
	}
	b = append(b, ' ')
	b = appendTuple(b, t.v.Shape)
	if o.layout {
		b = append(b, " strides "...)
		b = appendTuple(b, t.v.Strides)
		b = append(b, " offset "...)
		b = strconv.AppendInt(b, int64(t.v.Off), 10)
	}
	if !t.Valid() {
		return append(b, " <released>"...)
	}
	b = append(b, '\n')
	if t.Len() == 0 {
		return append(b, "[]"...)
	}
	p := printer[T]{v: t.st.Buf(), shape: t.v.Shape, strides: t.v.Strides, o: &o,
		summary: !o.full && t.Len() > PrintThreshold}
	p.walk(nil, 0, t.v.Off, true)
	return p.walk(b, 0, t.v.Off, false)
}

// appendTuple appends s as a Python tuple: (), (3,), (2, 3).
func appendTuple(b []byte, s []int) []byte {
	b = append(b, '(')
	for i, n := range s {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	if len(s) == 1 {
		b = append(b, ',')
	}
	return append(b, ')')
}

// printer walks a non-empty view in logical (row-major) order.
type printer[T Elem] struct {
	v              []T
	shape, strides []int
	o              *printOpts
	summary        bool   // skip the middle of long axes
	width          int    // of the widest printed element, in runes
	scratch        []byte // one formatted element
}

// walk prints the sub-array at axis d whose element 0 is v[off], appending
// to b; with measure set it appends nothing and records the widest element
// instead, so that the second walk can align the columns.
func (p *printer[T]) walk(b []byte, d, off int, measure bool) []byte {
	r := len(p.shape)
	if d == r {
		p.scratch = fmt.Appendf(p.scratch[:0], p.o.spec, p.v[off])
		w := utf8.RuneCount(p.scratch)
		if measure {
			p.width = max(p.width, w)
			return b
		}
		if !p.o.left {
			b = appendSpaces(b, p.width-w)
		}
		b = append(b, p.scratch...)
		if p.o.left {
			b = appendSpaces(b, p.width-w)
		}
		return b
	}
	if !measure {
		b = append(b, '[')
	}
	n, s := p.shape[d], p.strides[d]
	for i := 0; i < n; i++ {
		if i > 0 && !measure {
			b = appendSep(b, d, r)
		}
		if p.summary && n > 2*PrintEdgeItems && i == PrintEdgeItems {
			if !measure {
				b = append(b, "..."...)
				b = appendSep(b, d, r)
			}
			i = n - PrintEdgeItems
		}
		b = p.walk(b, d+1, off+i*s, measure)
	}
	if !measure {
		b = append(b, ']')
	}
	return b
}

// appendSep appends what separates two entries of axis d of a rank-r
// array: a space on the last axis, otherwise r-1-d newlines and the
// indentation of the next opening bracket.
func appendSep(b []byte, d, r int) []byte {
	if d == r-1 {
		return append(b, ' ')
	}
	for range r - 1 - d {
		b = append(b, '\n')
	}
	return appendSpaces(b, d+1)
}

func appendSpaces(b []byte, n int) []byte {
	for range n {
		b = append(b, ' ')
	}
	return b
}
