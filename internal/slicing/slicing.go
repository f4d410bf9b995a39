// Package slicing is a minimal stand-in with the API of the sliced
// contraction planner github.com/tenferro-go/tenferro/slicing, so that the
// distributed runner builds and is tested before that package is in the
// tree. It is replaced by the planner, and removed, when the planner lands.
//
// The stand-in slices the contracted labels with the largest extents until
// the operands of one slice fit the limit (a crude estimate, not the
// planner's peak; expressions with "..." are not sliced), and evaluates a slice by einsum over views of the
// operands.
package slicing

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
)

// ErrLimitTooSmall marks a limit below the smallest possible slice.
var ErrLimitTooSmall = errors.New("memory limit below the smallest slice")

// Plan is a serializable sliced contraction plan.
type Plan struct {
	Subscripts     string   `json:"subscripts"`
	Shapes         [][]int  `json:"shapes"`
	DType          string   `json:"dtype"`
	Path           [][2]int `json:"path"`
	SlicedLabels   []string `json:"sliced_labels"`
	SlicedExtents  []int    `json:"sliced_extents"`
	Slices         int      `json:"slices"`
	FlopOverhead   float64  `json:"flop_overhead"`
	SlicePeakBytes int64    `json:"slice_peak_bytes"`
	OutputShape    []int    `json:"output_shape"`
}

// New plans subscripts on shapes for dtype dt with one slice's operands
// within limitBytes (<= 0: no limit).
func New(dt tf.DType, subscripts string, shapes [][]int, limitBytes int64) (*Plan, error) {
	ep, err := tf.PrepareEinsum(dt, subscripts, shapes)
	if err != nil {
		return nil, err
	}
	pb := ep.Plan().Problem
	p := &Plan{Subscripts: subscripts, Shapes: shapes, DType: dt.String(), Path: ep.Plan().Path,
		Slices: 1, FlopOverhead: 1, OutputShape: slices.Clone(ep.OutputShape())}
	if p.Path == nil {
		p.Path = [][2]int{}
	}
	var cand []int
	for id := 0; id < pb.NumLabels && pb.Ellipsis == 0; id++ {
		if !slices.Contains(pb.Output, id) && sliceable(pb, id) {
			cand = append(cand, id)
		}
	}
	slices.SortStableFunc(cand, func(a, b int) int { return pb.Extents[b] - pb.Extents[a] })
	sliced := map[int]bool{}
	size := func() int64 {
		var n int64
		for k, in := range pb.Inputs {
			m := int64(1)
			for ax, id := range in {
				if !sliced[id] {
					m *= int64(pb.Shapes[k][ax])
				}
			}
			n += m * int64(dt.Size())
		}
		return n
	}
	for _, id := range cand {
		if limitBytes <= 0 || size() <= limitBytes {
			break
		}
		sliced[id] = true
		p.SlicedLabels = append(p.SlicedLabels, pb.Names[id])
		p.SlicedExtents = append(p.SlicedExtents, pb.Extents[id])
		p.Slices *= pb.Extents[id]
	}
	if limitBytes > 0 && size() > limitBytes {
		return nil, fmt.Errorf("slicing.New: limit %d bytes: %w (minimum %d)", limitBytes, ErrLimitTooSmall, size())
	}
	p.SlicePeakBytes = size()
	return p, nil
}

// sliceable reports whether every occurrence of label id has its full
// extent (none is broadcast).
func sliceable(pb *einsum.Problem, id int) bool {
	if pb.Extents[id] < 1 {
		return false
	}
	for k, in := range pb.Inputs {
		for ax, l := range in {
			if l == id && pb.Shapes[k][ax] != pb.Extents[id] {
				return false
			}
		}
	}
	return true
}

// Read decodes a plan written by Write.
func Read(r io.Reader) (*Plan, error) {
	var p Plan
	if err := json.NewDecoder(r).Decode(&p); err != nil {
		return nil, fmt.Errorf("slicing.Read: %v", err)
	}
	if p.Slices < 1 || len(p.SlicedLabels) != len(p.SlicedExtents) {
		return nil, fmt.Errorf("slicing.Read: invalid plan (%d slices)", p.Slices)
	}
	if _, err := tf.ParseDType(p.DType); err != nil {
		return nil, fmt.Errorf("slicing.Read: %v", err)
	}
	return &p, nil
}

// Write encodes p as JSON.
func (p *Plan) Write(w io.Writer) error { return json.NewEncoder(w).Encode(p) }

// Check reports whether operands match p's shapes and dtype.
func (p *Plan) Check(operands []tf.Value) error {
	if len(operands) != len(p.Shapes) {
		return fmt.Errorf("slicing.Check: operands: expected %d, got %d", len(p.Shapes), len(operands))
	}
	for k, v := range operands {
		if v.DType().String() != p.DType || !slices.Equal(v.Shape(), p.Shapes[k]) {
			return fmt.Errorf("slicing.Check: operand %d: expected %s%v, got %v%v", k, p.DType, p.Shapes[k], v.DType(), v.Shape())
		}
	}
	return nil
}

// ContractRange sets dst to the sum of slices lo..hi-1.
func ContractRange(e tf.Engine, p *Plan, lo, hi int, operands []tf.Value, dst tf.Value) error {
	if lo < 0 || lo >= hi || hi > p.Slices {
		return fmt.Errorf("slicing.ContractRange: range [%d, %d) outside [0, %d)", lo, hi, p.Slices)
	}
	if err := p.Check(operands); err != nil {
		return err
	}
	switch dst.DType() {
	case tf.Float32:
		return contractRange[float32](e, p, lo, hi, operands, dst)
	case tf.Float64:
		return contractRange[float64](e, p, lo, hi, operands, dst)
	case tf.Complex64:
		return contractRange[complex64](e, p, lo, hi, operands, dst)
	case tf.Complex128:
		return contractRange[complex128](e, p, lo, hi, operands, dst)
	}
	return fmt.Errorf("slicing.ContractRange: dst dtype %v", dst.DType())
}

func contractRange[T tf.Scalar](e tf.Engine, p *Plan, lo, hi int, operands []tf.Value, dst tf.Value) error {
	d, err := tf.As[T](dst)
	if err != nil {
		return err
	}
	ex, err := einsum.Parse(p.Subscripts)
	if err != nil {
		return err
	}
	ops := make([]*tf.Tensor[T], len(operands))
	for s := lo; s < hi; s++ {
		idx := map[int]int{}
		r := s
		for i, l := range p.SlicedLabels {
			idx[int([]rune(l)[0])] = r % p.SlicedExtents[i]
			r /= p.SlicedExtents[i]
		}
		for k, v := range operands {
			t, err := tf.As[T](v)
			if err != nil {
				return err
			}
			for a, l := range ex.Inputs[k] { // no ellipsis when sliced
				if i, ok := idx[l]; ok {
					if t, err = t.Slice(a, i, i+1, 1); err != nil {
						return err
					}
				}
			}
			ops[k] = t
		}
		r2, err := tf.EinsumWith(e, p.Subscripts, ops, tf.WithPath(p.Path))
		if err != nil {
			return err
		}
		if s == lo {
			err = tf.CopyInto(e, d, r2)
		} else {
			err = tf.AddInto(e, d, d, r2)
		}
		r2.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// Reducer sums partial results of slice ranges, idempotent by range.
type Reducer struct {
	p      *Plan
	e      *cpu.Engine
	ranges map[[2]int]bool
	done   int
	acc    tf.Value
}

// NewReducer returns a reducer for p's slices.
func NewReducer(p *Plan) (*Reducer, error) {
	dt, err := tf.ParseDType(p.DType)
	if err != nil {
		return nil, err
	}
	acc, err := tf.NewValue(dt, p.OutputShape...)
	if err != nil {
		return nil, err
	}
	return &Reducer{p: p, e: cpu.Serial(), ranges: map[[2]int]bool{}, acc: acc}, nil
}

// Add adds the partial sum of slices lo..hi-1; false for a range added
// before.
func (r *Reducer) Add(lo, hi int, partial tf.Value) (bool, error) {
	if lo < 0 || lo >= hi || hi > r.p.Slices {
		return false, fmt.Errorf("slicing.Reducer.Add: range [%d, %d) outside [0, %d)", lo, hi, r.p.Slices)
	}
	if r.ranges[[2]int{lo, hi}] {
		return false, nil
	}
	for q := range r.ranges {
		if lo < q[1] && q[0] < hi {
			return false, fmt.Errorf("slicing.Reducer.Add: range [%d, %d) overlaps [%d, %d)", lo, hi, q[0], q[1])
		}
	}
	if partial.DType() != r.acc.DType() || !slices.Equal(partial.Shape(), r.acc.Shape()) {
		return false, fmt.Errorf("slicing.Reducer.Add: partial: expected %v%v, got %v%v", r.acc.DType(), r.acc.Shape(), partial.DType(), partial.Shape())
	}
	var err error
	switch r.acc.DType() {
	case tf.Float32:
		err = addInto[float32](r.e, r.acc, partial)
	case tf.Float64:
		err = addInto[float64](r.e, r.acc, partial)
	case tf.Complex64:
		err = addInto[complex64](r.e, r.acc, partial)
	case tf.Complex128:
		err = addInto[complex128](r.e, r.acc, partial)
	}
	if err != nil {
		return false, err
	}
	r.ranges[[2]int{lo, hi}] = true
	r.done += hi - lo
	return true, nil
}

func addInto[T tf.Scalar](e tf.Engine, acc, partial tf.Value) error {
	a, _ := tf.As[T](acc)
	b, err := tf.As[T](partial)
	if err != nil {
		return err
	}
	return tf.AddInto(e, a, a, b)
}

// Progress returns the slices summed and p.Slices.
func (r *Reducer) Progress() (done, total int) { return r.done, r.p.Slices }

// Done reports whether every slice is summed.
func (r *Reducer) Done() bool { return r.done == r.p.Slices }

// Result returns the sum of all slices once Done.
func (r *Reducer) Result() (tf.Value, error) {
	if !r.Done() {
		return tf.Value{}, fmt.Errorf("slicing.Reducer.Result: %d of %d slices summed", r.done, r.p.Slices)
	}
	return r.acc, nil
}
