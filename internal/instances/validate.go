package instances

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// term is one parsed operand (or the output) of a subscript string.
type term struct {
	labels   []rune
	ellipsis bool
}

// parsed is a parsed subscript string.
type parsed struct {
	inputs    []term
	output    term
	hasOutput bool
}

// parseSubscripts splits subscripts into terms. White space is ignored; a
// label is any other rune except ',', '-', '>' and '.'; "..." may appear
// once per term.
func parseSubscripts(s string) (parsed, error) {
	var p parsed
	in, out, hasArrow := strings.Cut(s, "->")
	if strings.Contains(out, "->") {
		return p, invalidf("subscripts %q: more than one \"->\"", s)
	}
	for i, t := range strings.Split(in, ",") {
		tm, err := parseTerm(t)
		if err != nil {
			return p, invalidf("subscripts %q: operand %d: %v", s, i, err)
		}
		p.inputs = append(p.inputs, tm)
	}
	if hasArrow {
		if strings.Contains(out, ",") {
			return p, invalidf("subscripts %q: ',' in the output", s)
		}
		tm, err := parseTerm(out)
		if err != nil {
			return p, invalidf("subscripts %q: output: %v", s, err)
		}
		p.output, p.hasOutput = tm, true
	}
	return p, nil
}

func parseTerm(t string) (term, error) {
	var tm term
	rs := []rune(t)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
		case r == '.':
			if i+2 >= len(rs) || rs[i+1] != '.' || rs[i+2] != '.' {
				return tm, fmt.Errorf("'.' outside an ellipsis")
			}
			if tm.ellipsis {
				return tm, fmt.Errorf("more than one ellipsis")
			}
			tm.ellipsis = true
			i += 2
		case r == '-' || r == '>':
			return tm, fmt.Errorf("stray %q", r)
		default:
			tm.labels = append(tm.labels, r)
		}
	}
	return tm, nil
}

// Validate checks that the instance is well formed: a name, a supported
// dtype, one shape per operand with non-negative extents, operand ranks
// matching their labels, each label's extent consistent across operands
// (an extent of 1 broadcasts, as in einsum), output labels drawn from the
// inputs, the row-major form equal to the column-major one with every
// operand reversed, and every path a valid linear pairwise path.
func (in *Instance) Validate() error {
	if in.Name == "" {
		return invalidf("instance without a name")
	}
	fail := func(format string, args ...any) error {
		return invalidf("instance %q: %s", in.Name, fmt.Sprintf(format, args...))
	}
	if dt, err := canonicalDType(in.DType); err != nil || dt != in.DType {
		return fail("dtype %q, expected float32, float64, complex64 or complex128", in.DType)
	}
	p, err := parseSubscripts(in.Subscripts)
	if err != nil {
		return fail("%v", err)
	}
	if len(p.inputs) != len(in.Shapes) {
		return fail("subscripts name %d operands, %d shapes given", len(p.inputs), len(in.Shapes))
	}
	extent := map[rune]int{}
	for i, t := range p.inputs {
		shape := in.Shapes[i]
		if len(t.labels) != len(shape) && !(t.ellipsis && len(t.labels) <= len(shape)) {
			return fail("operand %d has labels %q but rank %d", i, string(t.labels), len(shape))
		}
		for _, d := range shape {
			if d < 0 {
				return fail("operand %d has negative extent in shape %v", i, shape)
			}
		}
		if t.ellipsis {
			continue // where the ellipsis sits decides which axes labels bind to; not checked here
		}
		for k, l := range t.labels {
			d := shape[k]
			old, seen := extent[l]
			switch {
			case !seen || old == 1:
				extent[l] = d
			case d != old && d != 1:
				return fail("label %q has extent %d in operand %d but %d elsewhere", l, d, i, old)
			}
		}
	}
	if p.hasOutput {
		for _, l := range p.output.labels {
			found := false
			for _, t := range p.inputs {
				if slices.Contains(t.labels, l) {
					found = true
					break
				}
			}
			if !found {
				return fail("output label %q appears in no operand", l)
			}
		}
	}
	if in.RowMajorSubscripts != "" {
		if got, want := stripSpace(in.RowMajorSubscripts), stripSpace(reverseOperands(in.Subscripts)); got != want {
			return fail("row-major subscripts %q are not the column-major ones %q reversed per operand", in.RowMajorSubscripts, in.Subscripts)
		}
		if !slices.EqualFunc(in.RowMajorShapes, reverseShapes(in.Shapes), slices.Equal) {
			return fail("row-major shapes are not the column-major ones reversed per operand")
		}
	}
	for name, path := range in.Paths {
		if err := checkPath(path, len(in.Shapes)); err != nil {
			return fail("path %q: %v", name, err)
		}
	}
	return nil
}

// checkPath checks a linear pairwise path over n operands: each step names
// two distinct positions of the current list, which then shrinks by one.
func checkPath(path [][2]int, n int) error {
	if len(path) > max(n-1, 0) {
		return fmt.Errorf("%d steps for %d operands", len(path), n)
	}
	count := n
	for i, s := range path {
		if s[0] == s[1] || s[0] < 0 || s[1] < 0 || s[0] >= count || s[1] >= count {
			return fmt.Errorf("step %d = %v, expected two distinct positions below %d", i, s, count)
		}
		count--
	}
	return nil
}

func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// reverseOperands reverses the labels of every term of subscripts (inputs
// and output), turning column-major subscripts into row-major ones and
// back. An ellipsis stays an ellipsis.
func reverseOperands(s string) string {
	in, out, hasArrow := strings.Cut(s, "->")
	terms := strings.Split(in, ",")
	for i, t := range terms {
		terms[i] = reverseRunes(t)
	}
	r := strings.Join(terms, ",")
	if hasArrow {
		r += "->" + reverseRunes(out)
	}
	return r
}

func reverseRunes(s string) string {
	rs := []rune(s)
	slices.Reverse(rs)
	return string(rs)
}

func reverseShapes(shapes [][]int) [][]int {
	if shapes == nil {
		return nil
	}
	out := make([][]int, len(shapes))
	for i, s := range shapes {
		out[i] = slices.Clone(s)
		slices.Reverse(out[i])
	}
	return out
}
