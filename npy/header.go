package npy

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The header of a .npy file is the text of a Python dict literal such as
//
//	{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
//
// This file holds a small parser for the subset of Python literals that can
// appear there (dicts, tuples, lists, strings, integers, True, False, None)
// and the interpretation of the three required keys.

// header is the decoded content of a .npy header.
type header struct {
	dtype   DType
	fortran bool
	shape   []int
}

// Python literal values produced by the parser.
type (
	pyDict struct {
		keys []string
		vals []any
	}
	pyTuple []any
	pyList  []any
	pyInt   int64
	pyBool  bool
	pyNone  struct{}
)

// maxDepth bounds the nesting of literals, so a hostile header cannot make
// the recursive parser use unbounded stack.
const maxDepth = 16

type litParser struct {
	s     string
	pos   int
	depth int
}

func (p *litParser) errf(format string, args ...any) error {
	return readErr(ErrFormat, fmt.Sprintf("header at byte %d: ", p.pos)+fmt.Sprintf(format, args...))
}

func (p *litParser) skipSpace() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			p.pos++
		default:
			return
		}
	}
}

// value parses one literal starting at p.pos (after optional space).
func (p *litParser) value() (any, error) {
	p.skipSpace()
	if p.pos >= len(p.s) {
		return nil, p.errf("unexpected end of header, expected a value")
	}
	c := p.s[p.pos]
	switch {
	case c == '{':
		return p.container('{', '}')
	case c == '(':
		return p.container('(', ')')
	case c == '[':
		return p.container('[', ']')
	case c == '\'' || c == '"':
		return p.str()
	case c == '-' || c == '+' || (c >= '0' && c <= '9'):
		return p.integer()
	case c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z'):
		start := p.pos
		for p.pos < len(p.s) && (p.s[p.pos] == '_' || (p.s[p.pos]|0x20 >= 'a' && p.s[p.pos]|0x20 <= 'z') || (p.s[p.pos] >= '0' && p.s[p.pos] <= '9')) {
			p.pos++
		}
		switch name := p.s[start:p.pos]; name {
		case "True":
			return pyBool(true), nil
		case "False":
			return pyBool(false), nil
		case "None":
			return pyNone{}, nil
		default:
			p.pos = start
			return nil, p.errf("unexpected name %q, expected a literal", name)
		}
	}
	return nil, p.errf("unexpected character %q, expected a value", c)
}

// container parses a dict, tuple or list; p.pos is at the opening bracket.
// Trailing commas are allowed; a tuple of one element needs its comma, as
// in Python, and "(x)" is just x.
func (p *litParser) container(open, close byte) (any, error) {
	p.depth++
	if p.depth > maxDepth {
		return nil, p.errf("literals nested deeper than %d", maxDepth)
	}
	defer func() { p.depth-- }()
	p.pos++ // open
	var (
		items    []any
		dict     pyDict
		sawComma bool
	)
	for {
		p.skipSpace()
		if p.pos >= len(p.s) {
			return nil, p.errf("unterminated %q", open)
		}
		if p.s[p.pos] == close {
			p.pos++
			break
		}
		if n := len(items) + len(dict.keys); n > 0 && !sawComma {
			return nil, p.errf("expected ',' or %q", close)
		}
		sawComma = false
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		if open == '{' {
			k, ok := v.(string)
			if !ok {
				return nil, p.errf("dict key must be a string, got %s", pyTypeName(v))
			}
			p.skipSpace()
			if p.pos >= len(p.s) || p.s[p.pos] != ':' {
				return nil, p.errf("expected ':' after dict key %q", k)
			}
			p.pos++
			v, err = p.value()
			if err != nil {
				return nil, err
			}
			for _, old := range dict.keys {
				if old == k {
					return nil, p.errf("duplicate dict key %q", k)
				}
			}
			dict.keys = append(dict.keys, k)
			dict.vals = append(dict.vals, v)
		} else {
			items = append(items, v)
		}
		p.skipSpace()
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
			sawComma = true
		}
	}
	switch open {
	case '{':
		return dict, nil
	case '[':
		return pyList(items), nil
	}
	if len(items) == 1 && !sawComma {
		return items[0], nil // parenthesized expression
	}
	return pyTuple(items), nil
}

// str parses a quoted string with Python's common backslash escapes.
func (p *litParser) str() (any, error) {
	q := p.s[p.pos]
	p.pos++
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		p.pos++
		switch {
		case c == q:
			return b.String(), nil
		case c == '\n':
			return nil, p.errf("newline inside string literal")
		case c == '\\':
			if p.pos >= len(p.s) {
				return nil, p.errf("unterminated string literal")
			}
			e := p.s[p.pos]
			p.pos++
			switch e {
			case '\\', '\'', '"':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return nil, p.errf("unterminated string literal")
}

// integer parses a decimal integer with optional sign, single underscores
// between digits and a Python 2 'L' suffix.
func (p *litParser) integer() (any, error) {
	neg := false
	if c := p.s[p.pos]; c == '-' || c == '+' {
		neg = c == '-'
		p.pos++
		p.skipSpace()
	}
	start := p.pos
	var digits strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c >= '0' && c <= '9' {
			digits.WriteByte(c)
			p.pos++
			continue
		}
		if c == '_' && p.pos > start && p.pos+1 < len(p.s) && p.s[p.pos+1] >= '0' && p.s[p.pos+1] <= '9' {
			p.pos++
			continue
		}
		break
	}
	d := digits.String()
	if d == "" {
		return nil, p.errf("expected digits")
	}
	if len(d) > 1 && d[0] == '0' && strings.Trim(d, "0") != "" {
		return nil, p.errf("integer %q has a leading zero", d)
	}
	if p.pos < len(p.s) && (p.s[p.pos] == 'L' || p.s[p.pos] == 'l') {
		p.pos++
	}
	if p.pos < len(p.s) {
		if c := p.s[p.pos]; c == '.' || c == 'e' || c == 'E' || c == 'x' || c == 'j' || c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') {
			return nil, p.errf("expected an integer, found %q", p.s[start:p.pos+1])
		}
	}
	u, err := strconv.ParseUint(d, 10, 64)
	if err != nil || u > math.MaxInt64 {
		sign := ""
		if neg {
			sign = "-"
		}
		return nil, readErr(ErrTooLarge, fmt.Sprintf("header integer %s%s overflows int64", sign, d))
	}
	v := int64(u)
	if neg {
		v = -v
	}
	return pyInt(v), nil
}

func pyTypeName(v any) string {
	switch v.(type) {
	case pyDict:
		return "dict"
	case pyTuple:
		return "tuple"
	case pyList:
		return "list"
	case string:
		return "str"
	case pyInt:
		return "int"
	case pyBool:
		return "bool"
	case pyNone:
		return "None"
	}
	return fmt.Sprintf("%T", v)
}

// parseHeader parses and validates the header dict text. It requires
// exactly the keys 'descr', 'fortran_order' and 'shape', in any order.
// It does not compute the element count: see elementCount.
func parseHeader(text string) (header, error) {
	p := &litParser{s: text}
	p.skipSpace()
	if p.pos >= len(p.s) || p.s[p.pos] != '{' {
		return header{}, p.errf("header must be a dict literal starting with '{'")
	}
	v, err := p.value()
	if err != nil {
		return header{}, err
	}
	p.skipSpace()
	if p.pos != len(p.s) {
		return header{}, p.errf("unexpected text %q after the header dict", clip(p.s[p.pos:], 20))
	}
	d := v.(pyDict)
	var (
		h                         header
		haveDescr, haveF, haveShp bool
	)
	for i, k := range d.keys {
		val := d.vals[i]
		switch k {
		case "descr":
			haveDescr = true
			s, ok := val.(string)
			if !ok {
				if _, isList := val.(pyList); isList {
					return header{}, readErr(ErrUnsupported, "structured dtype (header 'descr' is a list); "+supported)
				}
				return header{}, readErr(ErrFormat, fmt.Sprintf("header 'descr' must be a str, got %s", pyTypeName(val)))
			}
			if h.dtype, err = parseDescr(s); err != nil {
				return header{}, err
			}
		case "fortran_order":
			haveF = true
			b, ok := val.(pyBool)
			if !ok {
				return header{}, readErr(ErrFormat, fmt.Sprintf("header 'fortran_order' must be True or False, got %s", pyTypeName(val)))
			}
			h.fortran = bool(b)
		case "shape":
			haveShp = true
			t, ok := val.(pyTuple)
			if !ok {
				return header{}, readErr(ErrFormat, fmt.Sprintf("header 'shape' must be a tuple, got %s", pyTypeName(val)))
			}
			h.shape = make([]int, len(t))
			for j, e := range t {
				n, ok := e.(pyInt)
				if !ok {
					return header{}, readErr(ErrFormat, fmt.Sprintf("header 'shape'[%d] must be an int, got %s", j, pyTypeName(e)))
				}
				if n < 0 {
					return header{}, readErr(ErrFormat, fmt.Sprintf("header 'shape'[%d] = %d, expected a non-negative extent", j, n))
				}
				if int64(int(n)) != int64(n) {
					return header{}, readErr(ErrTooLarge, fmt.Sprintf("header 'shape'[%d] = %d overflows int", j, n))
				}
				h.shape[j] = int(n)
			}
		default:
			return header{}, readErr(ErrFormat, fmt.Sprintf("header has unexpected key %q; expected exactly 'descr', 'fortran_order', 'shape'", k))
		}
	}
	for _, m := range []struct {
		have bool
		name string
	}{{haveDescr, "descr"}, {haveF, "fortran_order"}, {haveShp, "shape"}} {
		if !m.have {
			return header{}, readErr(ErrFormat, fmt.Sprintf("header lacks key '%s'", m.name))
		}
	}
	return h, nil
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// elementCount returns the product of shape, or ok=false when it overflows
// int. Any zero extent gives 0 regardless of the others.
func elementCount(shape []int) (n int, ok bool) {
	for _, d := range shape {
		if d == 0 {
			return 0, true
		}
	}
	n = 1
	for _, d := range shape {
		if d < 0 || (d > 0 && n > math.MaxInt/d) {
			return 0, false
		}
		n *= d
	}
	return n, true
}

// formatHeader returns the header dict text NumPy itself would write, with
// no padding, such as "{'descr': '<f8', 'fortran_order': True, 'shape': (3,), }".
func formatHeader(dt DType, fortran bool, shape []int) string {
	var b strings.Builder
	b.WriteString("{'descr': '")
	b.WriteString(dt.Descr())
	b.WriteString("', 'fortran_order': ")
	if fortran {
		b.WriteString("True")
	} else {
		b.WriteString("False")
	}
	b.WriteString(", 'shape': (")
	for i, d := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	if len(shape) == 1 {
		b.WriteByte(',')
	}
	b.WriteString("), }")
	return b.String()
}
