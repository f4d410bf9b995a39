package instances

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Permutation is one tensor-permutation workload: copy a source tensor into
// a destination whose axis j is source axis Perm[j] (NumPy's transpose
// convention), so the destination shape is Shape[Perm[0]], Shape[Perm[1]], ...
type Permutation struct {
	ID    string
	Label string // human-readable description
	DType string // "float32", "float64", "complex64" or "complex128"
	Shape []int  // source shape
	Perm  []int  // zero-based
	// SrcStrides are the source's element strides, or nil for a compact
	// column-major source. DstStrides likewise for the destination.
	SrcStrides []int
	DstStrides []int
	Notes      string
}

type rawLayout struct {
	Kind    string `json:"kind"`
	Strides []int  `json:"strides"`
}

type rawPattern struct {
	ID    string     `json:"id"`
	Label string     `json:"label"`
	DType string     `json:"dtype"`
	Shape []int      `json:"shape"`
	Perm  []int      `json:"perm"`
	Src   *rawLayout `json:"src_layout"`
	Dst   *rawLayout `json:"dst_layout"`
	Notes string     `json:"notes"`
}

type rawPatterns struct {
	IndexBase *int         `json:"index_base"`
	Patterns  []rawPattern `json:"patterns"`
}

// LoadPermutations reads a permutation pattern file (a JSON object with
// "index_base" and "patterns", each pattern with "id", "dtype", "shape",
// "perm" and optional "src_layout"/"dst_layout" of kind "col_major",
// "row_major" or "explicit_strides"). Perm is converted to zero-based, a
// row-major layout to explicit strides. Every pattern is validated.
func LoadPermutations(path string) ([]Permutation, error) {
	b, err := readBounded(path)
	if err != nil {
		return nil, err
	}
	var r rawPatterns
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("instances: %s: %w: %v", path, ErrInvalid, err)
	}
	if r.Patterns == nil {
		return nil, fmt.Errorf("instances: %s: %w: no \"patterns\" list", path, ErrInvalid)
	}
	base := 0
	if r.IndexBase != nil {
		base = *r.IndexBase
	}
	out := make([]Permutation, 0, len(r.Patterns))
	seen := map[string]bool{}
	for i, rp := range r.Patterns {
		p := Permutation{ID: rp.ID, Label: rp.Label, Shape: rp.Shape, Notes: rp.Notes}
		if p.ID == "" {
			return nil, fmt.Errorf("instances: %s: %w: pattern %d has no id", path, ErrInvalid, i)
		}
		if seen[p.ID] {
			return nil, fmt.Errorf("instances: %s: %w: duplicate pattern id %q", path, ErrInvalid, p.ID)
		}
		seen[p.ID] = true
		if p.DType, err = canonicalDType(rp.DType); err != nil {
			return nil, fmt.Errorf("instances: %s: pattern %q: %w", path, p.ID, err)
		}
		p.Perm = make([]int, len(rp.Perm))
		for k, v := range rp.Perm {
			p.Perm[k] = v - base
		}
		if p.SrcStrides, err = layoutStrides(rp.Src, p.Shape); err == nil {
			p.DstStrides, err = layoutStrides(rp.Dst, permuted(p.Shape, p.Perm))
		}
		if err == nil {
			err = p.Validate()
		}
		if err != nil {
			return nil, fmt.Errorf("instances: %s: pattern %q: %w", path, p.ID, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// permuted returns shape[perm[j]] for each j, or nil if perm is out of range.
func permuted(shape, perm []int) []int {
	out := make([]int, len(perm))
	for j, p := range perm {
		if p < 0 || p >= len(shape) {
			return nil
		}
		out[j] = shape[p]
	}
	return out
}

func layoutStrides(l *rawLayout, shape []int) ([]int, error) {
	if l == nil {
		return nil, nil
	}
	switch l.Kind {
	case "col_major", "":
		return nil, nil
	case "row_major":
		s := make([]int, len(shape))
		st := 1
		for k := len(shape) - 1; k >= 0; k-- {
			s[k] = st
			st *= shape[k]
		}
		return s, nil
	case "explicit_strides":
		if l.Strides == nil {
			return nil, invalidf("explicit_strides layout without strides")
		}
		return slices.Clone(l.Strides), nil
	}
	return nil, invalidf("layout kind %q, expected col_major, row_major or explicit_strides", l.Kind)
}

// Validate checks that Perm is a permutation of 0..rank-1, extents are
// non-negative, and explicit strides have one entry per axis.
func (p *Permutation) Validate() error {
	if len(p.Perm) != len(p.Shape) {
		return invalidf("perm %v has %d entries for shape %v", p.Perm, len(p.Perm), p.Shape)
	}
	seen := make([]bool, len(p.Perm))
	for _, v := range p.Perm {
		if v < 0 || v >= len(p.Perm) || seen[v] {
			return invalidf("perm %v is not a permutation of 0..%d", p.Perm, len(p.Perm)-1)
		}
		seen[v] = true
	}
	for _, d := range p.Shape {
		if d < 0 {
			return invalidf("shape %v has a negative extent", p.Shape)
		}
	}
	if p.SrcStrides != nil && len(p.SrcStrides) != len(p.Shape) {
		return invalidf("source strides %v for shape %v", p.SrcStrides, p.Shape)
	}
	if p.DstStrides != nil && len(p.DstStrides) != len(p.Shape) {
		return invalidf("destination strides %v for shape %v", p.DstStrides, p.Shape)
	}
	return nil
}

// BuiltinPermutations returns the project's own permutation workloads, all
// float64 with compact column-major source and destination: a copy
// baseline, a 2048x2048 transpose, the rotations and swaps of a 256^3
// cube, and higher-rank reversals and rotations of 2^22 to 3^13 elements.
func BuiltinPermutations() []Permutation {
	mk := func(id, label string, shape, perm []int) Permutation {
		return Permutation{ID: id, Label: label, DType: "float64", Shape: shape, Perm: perm}
	}
	rep := func(d, n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = d
		}
		return s
	}
	rev := func(n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = n - 1 - i
		}
		return s
	}
	cyc := func(n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = (i + 1) % n
		}
		return s
	}
	return []Permutation{
		mk("copy_3d_256", "3D 256^3 identity (copy baseline)", rep(256, 3), []int{0, 1, 2}),
		mk("transpose_2d_2048", "2D 2048^2 transpose [1,0]", []int{2048, 2048}, []int{1, 0}),
		mk("transpose_2d_4093x1021", "2D 4093x1021 transpose [1,0] (prime extents)", []int{4093, 1021}, []int{1, 0}),
		mk("rotate_3d_256_201", "3D 256^3 rotation [2,0,1]", rep(256, 3), []int{2, 0, 1}),
		mk("rotate_3d_256_120", "3D 256^3 rotation [1,2,0]", rep(256, 3), []int{1, 2, 0}),
		mk("swap_3d_256_102", "3D 256^3 swap of the leading axes [1,0,2]", rep(256, 3), []int{1, 0, 2}),
		mk("swap_3d_256_021", "3D 256^3 swap of the trailing axes [0,2,1]", rep(256, 3), []int{0, 2, 1}),
		mk("reverse_4d_64", "4D 64^4 reverse [3,2,1,0]", rep(64, 4), rev(4)),
		mk("rotate_6d_16x16x16x16x8x8", "6D 16^4x8x8 rotation [5,0,4,1,3,2]", []int{16, 16, 16, 16, 8, 8}, []int{5, 0, 4, 1, 3, 2}),
		mk("reverse_22d_2", "22D 2^22 reverse", rep(2, 22), rev(22)),
		mk("cyclic_13d_3", "13D 3^13 cyclic [1,2,...,0]", rep(3, 13), cyc(13)),
	}
}
