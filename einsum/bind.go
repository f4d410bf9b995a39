package einsum

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Problem is an expression bound to operand shapes.
//
// Labels are renumbered densely: label ids 0..Ellipsis-1 are the ellipsis
// axes (synthetic labels, in axis order after right-aligned broadcasting),
// and ids Ellipsis..NumLabels-1 are the named labels in increasing label
// value. Every slice indexed by "label id" below has NumLabels entries.
//
// A Problem is immutable after Bind returns; its slices must not be
// modified, and it is safe for concurrent use.
type Problem struct {
	// Expr is the expression that was bound.
	Expr *Expr
	// Shapes holds a copy of the operand shapes, in axis order.
	Shapes [][]int
	// NumLabels is the number of distinct labels, ellipsis axes included.
	NumLabels int
	// Ellipsis is the number of ellipsis axes (label ids 0..Ellipsis-1).
	Ellipsis int
	// Extents holds the extent of each label id after broadcasting: the
	// common extent of its non-1 occurrences, or 1 if every occurrence is 1
	// (so 1 against 0 gives 0).
	Extents []int
	// Values holds each label id's value in Expr (code point or caller's
	// int), or Ellipsis for ellipsis axes.
	Values []int
	// Names holds a printable name for each label id; ellipsis axes get
	// letters unused by the expression.
	Names []string
	// Inputs holds, per operand, the label id of each axis, with repeats.
	Inputs [][]int
	// Broadcast marks, per operand and axis, an axis of extent 1 that is
	// stretched to its label's extent (which is not 1). Such an axis is not
	// in Unique: an executor skips it when it forms the operand's view.
	// (The label's repeats in one operand have one extent, so a label is
	// broadcast on all of its operand's axes or on none.)
	Broadcast [][]bool
	// Unique holds, per operand, its distinct label ids in order of first
	// occurrence, without its broadcast labels: the axes left after taking
	// the diagonal of repeated labels and dropping the stretched axes of
	// extent 1 (the operand is constant along them, so a plan neither
	// carries nor counts them: an operand of shape (1,1,1,1) costs one
	// element whatever the extents it meets).
	Unique [][]int
	// Output holds the output label ids, possibly repeated (a repeat embeds
	// a diagonal).
	Output []int
	// OutputUnique holds the distinct output label ids in order of first
	// occurrence.
	OutputUnique []int

	// layout holds, for the problem of one slice of a sliced contraction,
	// the unsliced operand shapes: a slice is a view of each whole operand,
	// so its strides come from these (nil: from Shapes).
	layout [][]int
}

// Bind checks shapes against the expression and resolves every label's
// extent.
//
// Rules: one shape per operand; an operand without "..." has exactly one
// axis per label, one with "..." at least as many; the ellipsis covers the
// remaining axes, and ellipses of different operands are right-aligned and
// broadcast against each other (the output "..." has the largest ellipsis
// rank). Axes of one operand with the same label must have equal extents.
// Across operands a label's extents must agree, except that an extent of 1
// broadcasts (1 against n gives n, 1 against 0 gives 0). Zero extents are
// allowed. Ellipsis axes missing from an explicit output are summed.
func (e *Expr) Bind(shapes [][]int) (*Problem, error) {
	if len(shapes) != len(e.Inputs) {
		return nil, &Error{Op: "bind", Kind: ErrRank, Operand: -1, Pos: -1, Extents: []int{len(e.Inputs), len(shapes)},
			Msg: "subscripts name " + strconv.Itoa(len(e.Inputs)) + " operands but " + strconv.Itoa(len(shapes)) + " shapes were given"}
	}
	p := &Problem{Expr: e, Shapes: make([][]int, len(shapes))}
	ellDims := make([]int, len(shapes))
	for k, in := range e.Inputs {
		shape := shapes[k]
		p.Shapes[k] = append([]int{}, shape...)
		for a, d := range shape {
			if d < 0 {
				err := newErr("bind", ErrShape, k, "", "operand %d has negative extent %d on axis %d", k, d, a)
				err.Extents = []int{d}
				return nil, err
			}
		}
		named := 0
		hasEll := false
		for _, v := range in {
			if v == Ellipsis {
				hasEll = true
			} else {
				named++
			}
		}
		sub := e.termString(in)
		switch {
		case !hasEll && len(shape) != named:
			err := newErr("bind", ErrRank, k, "", "operand %d has %d axes but its subscripts '%s' name %d", k, len(shape), sub, named)
			err.Extents = []int{len(shape), named}
			return nil, err
		case hasEll && len(shape) < named:
			err := newErr("bind", ErrRank, k, "", "operand %d has %d axes but its subscripts '%s' name at least %d", k, len(shape), sub, named)
			err.Extents = []int{len(shape), named}
			return nil, err
		}
		if hasEll {
			ellDims[k] = len(shape) - named
			p.Ellipsis = max(p.Ellipsis, ellDims[k])
		}
	}
	E := p.Ellipsis

	// Dense ids: ellipsis axes first, then named labels by value.
	var vals []int
	seen := map[int]bool{}
	for _, in := range e.Inputs {
		for _, v := range in {
			if v != Ellipsis && !seen[v] {
				seen[v] = true
				vals = append(vals, v)
			}
		}
	}
	slices.Sort(vals)
	id := make(map[int]int, len(vals))
	for i, v := range vals {
		id[v] = E + i
	}
	p.NumLabels = E + len(vals)
	p.Values = make([]int, p.NumLabels)
	for i := range E {
		p.Values[i] = Ellipsis
	}
	copy(p.Values[E:], vals)
	p.Names = makeNames(p.Values, E, e.Runes)

	p.Inputs = make([][]int, len(shapes))
	for k, in := range e.Inputs {
		ids := make([]int, 0, len(shapes[k]))
		for _, v := range in {
			if v == Ellipsis {
				for j := E - ellDims[k]; j < E; j++ {
					ids = append(ids, j)
				}
			} else {
				ids = append(ids, id[v])
			}
		}
		p.Inputs[k] = ids
	}

	// Extents with broadcasting.
	p.Extents = make([]int, p.NumLabels)
	from := make([]int, p.NumLabels) // operand that fixed a non-1 extent, or -1
	for i := range p.Extents {
		p.Extents[i] = -1
		from[i] = -1
	}
	for k, ids := range p.Inputs {
		for a, l := range ids {
			d := p.Shapes[k][a]
			if a0 := slices.Index(ids, l); a0 < a && p.Shapes[k][a0] != d {
				err := newErr("bind", ErrShape, k, p.Names[l],
					"operand %d repeats label '%s' on axes of different extents (%d on axis %d, %d on axis %d)",
					k, p.Names[l], p.Shapes[k][a0], a0, d, a)
				err.Extents = []int{p.Shapes[k][a0], d}
				return nil, err
			}
			cur := p.Extents[l]
			switch {
			case cur == -1 || (cur == 1 && d != 1):
				p.Extents[l] = d
				if d != 1 {
					from[l] = k
				}
			case d == 1 || d == cur:
			default:
				what := "label '" + p.Names[l] + "'"
				if l < E {
					what = "ellipsis axis " + strconv.Itoa(l) + " (label '" + p.Names[l] + "')"
				}
				err := newErr("bind", ErrShape, k, p.Names[l],
					"size of %s for operand %d (%d) does not match operand %d (%d)", what, k, d, from[l], cur)
				err.Extents = []int{d, cur}
				return nil, err
			}
		}
	}
	for l, x := range p.Extents {
		if x == -1 { // ellipsis axis that no operand reaches cannot happen; be safe
			p.Extents[l] = 1
		}
	}
	p.Broadcast = make([][]bool, len(shapes))
	p.Unique = make([][]int, len(shapes))
	for k, ids := range p.Inputs {
		bc := make([]bool, len(ids))
		u := make([]int, 0, len(ids))
		for a, l := range ids {
			bc[a] = p.Shapes[k][a] == 1 && p.Extents[l] != 1
			if !bc[a] && !slices.Contains(u, l) {
				u = append(u, l)
			}
		}
		p.Broadcast[k] = bc
		p.Unique[k] = u
	}
	p.Output = []int{}
	for _, v := range e.Output {
		if v == Ellipsis {
			for j := range E {
				p.Output = append(p.Output, j)
			}
		} else {
			p.Output = append(p.Output, id[v])
		}
	}
	p.OutputUnique = []int{}
	for _, l := range p.Output {
		if !slices.Contains(p.OutputUnique, l) {
			p.OutputUnique = append(p.OutputUnique, l)
		}
	}
	return p, nil
}

func (e *Expr) termString(in []int) string {
	var b strings.Builder
	for _, v := range in {
		b.WriteString(labelName(v, e.Runes))
	}
	return b.String()
}

// makeNames gives every label id a printable name; ellipsis axes take the
// first letters not used by the expression.
func makeNames(values []int, E int, runes bool) []string {
	names := make([]string, len(values))
	used := map[string]bool{}
	for i := E; i < len(values); i++ {
		names[i] = labelName(values[i], runes)
		used[names[i]] = true
	}
	cands := func(yield func(string) bool) {
		for i := range len(numpySymbols) {
			if !yield(numpySymbols[i : i+1]) {
				return
			}
		}
		for r := rune(0xC0); r < unicode.MaxRune; r++ {
			if unicode.IsLetter(r) && !yield(string(r)) {
				return
			}
		}
	}
	next := 0
	for c := range cands {
		if next == E {
			break
		}
		if !used[c] {
			names[next] = c
			next++
		}
	}
	return names
}

// OutputSize is the number of elements of the output, the product of
// the extents of Output (a repeated label counts once per axis).
func (p *Problem) OutputSize() float64 {
	n := 1.0
	for _, l := range p.Output {
		n *= float64(p.Extents[l])
	}
	return n
}

// OutputAxes is the number of output axes that carry label l (0 for a
// summed label, more than 1 for a label repeated in the output).
func (p *Problem) OutputAxes(l int) int {
	n := 0
	for _, o := range p.Output {
		if o == l {
			n++
		}
	}
	return n
}

// Term renders a list of label ids with the problem's names.
func (p *Problem) Term(labels []int) string {
	var b strings.Builder
	for _, l := range labels {
		b.WriteString(p.Names[l])
	}
	return b.String()
}

// Subscripts renders the bound expression with ellipses expanded, e.g.
// "ij,jk->ik".
func (p *Problem) Subscripts() string {
	var b strings.Builder
	for k, in := range p.Inputs {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(p.Term(in))
	}
	b.WriteString("->")
	b.WriteString(p.Term(p.Output))
	return b.String()
}

// String renders the subscripts and the shapes, e.g.
// "ij,jk->ik [3 4] [4 5]".
func (p *Problem) String() string {
	var b strings.Builder
	b.WriteString(p.Subscripts())
	for _, s := range p.Shapes {
		b.WriteByte(' ')
		b.WriteString(shapeString(s))
	}
	return b.String()
}

// Key returns a string that identifies the problem up to label renaming
// of the original expression: two problems with equal keys have identical
// label ids, extents, operands and output, hence identical plans.
func (p *Problem) Key() string {
	var b strings.Builder
	for k, in := range p.Inputs {
		if k > 0 {
			b.WriteByte(',')
		}
		for a, l := range in {
			if a > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(l))
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(p.Shapes[k][a]))
		}
	}
	b.WriteString("->")
	for a, l := range p.Output {
		if a > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(l))
	}
	return b.String()
}

func shapeString(s []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(d))
	}
	b.WriteByte(']')
	return b.String()
}
