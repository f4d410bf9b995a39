package einsum

import (
	"strconv"
	"strings"
)

// Subscripts renders integer labels as subscripts that Parse, and so
// tenferro.Einsum, EinsumInto, PrepareEinsum and trace's Einsum, accept:
// networks built in code number their bonds and need no letters.
//
// inputs[k] lists the labels of operand k's axes in axis order and output
// the result's (explicit: a label summed away is simply absent); labels
// are non-negative ints and Ellipsis stands for "...", as for FromLabels,
// whose checks apply. Label v is written as Symbol(v), so the rendering
// depends only on the label values, and equal networks give equal
// subscripts (and share cached plans):
//
//	Subscripts([][]int{{0, 1}, {1, 2}}, []int{0, 2}) = "ab,bc->ac"
//
// Labels beyond MaxLabel are an ErrSyntax error.
func Subscripts(inputs [][]int, output []int) (string, error) {
	e, err := FromLabels(inputs, output, false)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	write := func(list []int) error {
		for _, v := range list {
			if v == Ellipsis {
				b.WriteString("...")
				continue
			}
			r, ok := Symbol(v)
			if !ok {
				s := strconv.Itoa(v)
				return newErr("labels", ErrSyntax, -1, s, "label %s is above the largest label %d", s, MaxLabel)
			}
			b.WriteRune(r)
		}
		return nil
	}
	for k, in := range e.Inputs {
		if k > 0 {
			b.WriteByte(',')
		}
		if err := write(in); err != nil {
			return "", err
		}
	}
	b.WriteString("->")
	if err := write(e.Output); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Symbol returns the letter that stands for integer label v in subscripts:
// a-z for 0-25 and A-Z for 26-51, as NumPy's sublist form of einsum has
// it, then the CJK unified ideographs from U+4E00 on (Unicode letters, one
// contiguous block). ok is false for v < 0 or v > MaxLabel.
func Symbol(v int) (r rune, ok bool) {
	switch {
	case v < 0 || v > MaxLabel:
		return 0, false
	case v < len(numpySymbols):
		return rune(numpySymbols[v]), true
	}
	return firstIdeograph + rune(v-len(numpySymbols)), true
}

// The letters Symbol uses beyond the 52 ASCII ones.
const (
	firstIdeograph = 0x4E00
	lastIdeograph  = 0x9FFF
)

// MaxLabel is the largest integer label Symbol renders.
const MaxLabel = len(numpySymbols) + lastIdeograph - firstIdeograph
