package einsum

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ellipsis is the sentinel that stands for "..." in label lists: in
// Expr.Inputs and Expr.Output, and in the lists passed to FromLabels.
const Ellipsis = -1

// Expr is a parsed einsum expression, not yet bound to shapes.
//
// Labels are non-negative ints: Unicode code points for expressions built by
// Parse, caller-chosen values for FromLabels. Ellipsis marks "...". An Expr
// is immutable after construction; its slices must not be modified, and it
// is safe for concurrent use.
type Expr struct {
	// Inputs holds, per operand, the labels of its axes in axis order,
	// with repeats (a repeated label selects a diagonal) and at most one
	// Ellipsis.
	Inputs [][]int
	// Output holds the output labels (repeats embed a diagonal) with at
	// most one Ellipsis. When Implicit is true it was derived: Ellipsis
	// first (if any operand has one), then every label occurring exactly
	// once over all operands, in increasing label value.
	Output []int
	// Implicit reports that the subscripts had no "->".
	Implicit bool
	// Runes reports that labels are Unicode code points (built by Parse).
	Runes bool
}

// numpySymbols maps integer labels 0..51 to letters, as NumPy's sublist
// form of einsum does.
const numpySymbols = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// labelName renders label v as written in subscripts.
func labelName(v int, runes bool) string {
	switch {
	case v == Ellipsis:
		return "..."
	case runes:
		return string(rune(v))
	case v >= 0 && v < len(numpySymbols):
		return numpySymbols[v : v+1]
	default:
		return "(" + strconv.Itoa(v) + ")"
	}
}

// Parse reads einsum subscripts such as "ij,jk->ik".
//
// Grammar: operands are separated by ','; an optional "->" introduces the
// output. A label is any Unicode letter (unicode.IsLetter); "..." may
// appear at most once per operand and once in the output; white space is
// ignored anywhere except inside "..." and "->". A label repeated inside an
// operand takes a diagonal ("ii->i"); a label repeated in the output embeds
// a diagonal ("i->ii"). An empty operand is a scalar (",i->i", "->").
// Without "->" the output is implicit: the ellipsis axes first, then the
// labels that occur exactly once over all operands, sorted by code point
// (so 'A'-'Z' come before 'a'-'z'). Every output label must occur in some
// operand.
func Parse(subscripts string) (*Expr, error) { return parse(subscripts, false) }

// ParseSymbols is Parse with a wider label alphabet: any rune other than
// white space, control characters and the reserved ',', '-', '>' and '.'
// is a label, as opt_einsum accepts. Public einsum workloads use digits,
// '×', '÷' and even unassigned code points as labels. The implicit output
// still sorts labels by code point.
func ParseSymbols(subscripts string) (*Expr, error) { return parse(subscripts, true) }

func isLabel(r rune, loose bool) bool {
	if loose {
		return !unicode.IsSpace(r) && !unicode.IsControl(r) && r != ',' && r != '-' && r != '>' && r != '.'
	}
	return unicode.IsLetter(r)
}

func parse(subscripts string, loose bool) (*Expr, error) {
	e := &Expr{Runes: true}
	var cur []int
	curHasEll := false
	arrow := false
	n := len(subscripts)
	synErr := func(pos int, operand int, label string, format string, args ...any) error {
		err := newErr("parse", ErrSyntax, operand, label, format, args...)
		err.Pos = pos
		err.Msg = fmt.Sprintf("%s at position %d in %q", err.Msg, pos, subscripts)
		return err
	}
	for i := 0; i < n; {
		r, w := utf8.DecodeRuneInString(subscripts[i:])
		operand := len(e.Inputs)
		if arrow {
			operand = -1
		}
		switch {
		case r == utf8.RuneError && w <= 1:
			return nil, synErr(i, operand, "", "invalid UTF-8")
		case unicode.IsSpace(r):
		case isLabel(r, loose):
			cur = append(cur, int(r))
		case r == '.':
			if i+3 > n || subscripts[i:i+3] != "..." {
				return nil, synErr(i, operand, ".", "'.' must be part of an ellipsis \"...\"")
			}
			if curHasEll {
				if arrow {
					return nil, synErr(i, -1, "...", "output has more than one ellipsis")
				}
				return nil, synErr(i, operand, "...", "operand %d has more than one ellipsis", operand)
			}
			curHasEll = true
			cur = append(cur, Ellipsis)
			w = 3
		case r == ',':
			if arrow {
				return nil, synErr(i, -1, ",", "output subscripts cannot contain ','")
			}
			e.Inputs = append(e.Inputs, nonNil(cur))
			cur, curHasEll = nil, false
		case r == '-':
			if i+1 >= n || subscripts[i+1] != '>' {
				return nil, synErr(i, operand, "-", "'-' must be followed by '>'")
			}
			if arrow {
				return nil, synErr(i, -1, "->", "more than one \"->\"")
			}
			arrow = true
			e.Inputs = append(e.Inputs, nonNil(cur))
			cur, curHasEll = nil, false
			w = 2
		case r == '>':
			return nil, synErr(i, operand, ">", "'>' without '-'")
		default:
			return nil, synErr(i, operand, string(r), "invalid character %q (labels must be letters)", r)
		}
		i += w
	}
	if arrow {
		e.Output = nonNil(cur)
	} else {
		e.Inputs = append(e.Inputs, nonNil(cur))
	}
	if err := e.finish(!arrow, "parse"); err != nil {
		return nil, err
	}
	return e, nil
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// FromLabels builds an expression from integer labels, like NumPy's
// sublist form einsum(a, [0, 1], b, [1, 2], [0, 2]). Labels must be
// non-negative; Ellipsis stands for "...". When implicit is true, output
// is ignored and derived as Parse does for subscripts without "->" (labels
// sorted by value). The slices are copied.
func FromLabels(inputs [][]int, output []int, implicit bool) (*Expr, error) {
	e := &Expr{Inputs: make([][]int, len(inputs))}
	if len(inputs) == 0 {
		return nil, newErr("labels", ErrRank, -1, "", "at least one operand is required")
	}
	check := func(list []int, operand int) error {
		ell := 0
		for _, v := range list {
			if v == Ellipsis {
				ell++
				if ell > 1 {
					if operand < 0 {
						return newErr("labels", ErrSyntax, -1, "...", "output has more than one ellipsis")
					}
					return newErr("labels", ErrSyntax, operand, "...", "operand %d has more than one ellipsis", operand)
				}
				continue
			}
			if v < 0 {
				if operand < 0 {
					return newErr("labels", ErrSyntax, -1, strconv.Itoa(v), "output label %d is negative", v)
				}
				return newErr("labels", ErrSyntax, operand, strconv.Itoa(v), "label %d of operand %d is negative", v, operand)
			}
		}
		return nil
	}
	for k, in := range inputs {
		if err := check(in, k); err != nil {
			return nil, err
		}
		e.Inputs[k] = append([]int{}, in...)
	}
	if !implicit {
		if err := check(output, -1); err != nil {
			return nil, err
		}
		e.Output = append([]int{}, output...)
	}
	if err := e.finish(implicit, "labels"); err != nil {
		return nil, err
	}
	return e, nil
}

// finish derives the implicit output or validates the explicit one.
func (e *Expr) finish(implicit bool, op string) error {
	e.Implicit = implicit
	count := map[int]int{}
	anyEll := false
	for _, in := range e.Inputs {
		for _, v := range in {
			if v == Ellipsis {
				anyEll = true
			} else {
				count[v]++
			}
		}
	}
	if implicit {
		out := []int{}
		if anyEll {
			out = append(out, Ellipsis)
		}
		var once []int
		for v, c := range count {
			if c == 1 {
				once = append(once, v)
			}
		}
		slices.Sort(once)
		e.Output = append(out, once...)
		return nil
	}
	for _, v := range e.Output {
		if v != Ellipsis && count[v] == 0 {
			name := labelName(v, e.Runes)
			return newErr(op, ErrSyntax, -1, name, "output label '%s' does not occur in any operand", name)
		}
	}
	return nil
}

// String renders the expression in explicit form, "ij,jk->ik". For
// expressions built by Parse, Parse(e.String()) yields the same inputs and
// output.
func (e *Expr) String() string {
	var b strings.Builder
	for k, in := range e.Inputs {
		if k > 0 {
			b.WriteByte(',')
		}
		for _, v := range in {
			b.WriteString(labelName(v, e.Runes))
		}
	}
	b.WriteString("->")
	for _, v := range e.Output {
		b.WriteString(labelName(v, e.Runes))
	}
	return b.String()
}
