package slicing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/op"
)

// ErrLimitTooSmall is wrapped by the error of New for a limit below the
// smallest peak one slice reaches (it is einsum.ErrLimitTooSmall).
var ErrLimitTooSmall = einsum.ErrLimitTooSmall

// MaxPlanBytes bounds the JSON Read accepts (a plan of a million operands
// fits).
const MaxPlanBytes = 64 << 20

// Plan is a serializable sliced contraction plan. Its fields determine
// each other: Read and every function taking a Plan check that they agree
// (the path is replanned and its peak recomputed). Plans made by New and
// Read carry their compiled form; a Plan built or changed by hand is
// checked and compiled again on every use. A Plan is safe for concurrent
// use as long as nobody modifies it.
type Plan struct {
	// Subscripts is the expression in explicit form with ellipses
	// expanded (einsum.Problem.Subscripts), so that every sliced label is
	// written in it.
	Subscripts string `json:"subscripts"`
	// Shapes holds the extents of the full (unsliced) operands.
	Shapes [][]int `json:"shapes"`
	// DType is the element type: "f32", "f64", "c64" or "c128".
	DType string `json:"dtype"`
	// Path is the linear path (NumPy format) of one slice.
	Path [][2]int `json:"path"`
	// SlicedLabels are the sliced labels as written in Subscripts, in
	// increasing label order (code point), SlicedExtents their extents
	// (each > 1) and SlicedWidths the values of each one slice takes
	// (below the extent; absent: 1 for every label; at most one may not
	// divide its extent, leaving a shorter last chunk). Slice s takes
	// chunk i_j of SlicedLabels[j], the values w_j·i_j, ..., min(w_j·(i_j+1),
	// e_j) - 1, where i_j is digit j of s in the mixed radix of the
	// numbers of chunks ⌈e_j / w_j⌉, the first digit fastest.
	SlicedLabels  []string `json:"sliced_labels"`
	SlicedExtents []int    `json:"sliced_extents"`
	SlicedWidths  []int    `json:"sliced_widths,omitempty"`
	// Slices is the product of the numbers of chunks (1: unsliced).
	Slices int `json:"slices"`
	// FlopOverhead is the total FLOPs of all slices over the FLOPs of the
	// unsliced contraction (>= 1; see einsum.SlicedPlan).
	FlopOverhead float64 `json:"flop_overhead"`
	// SlicePeakBytes is the planned peak of one slice: its intermediates,
	// as einsum.Plan.Peak counts them, in bytes of DType.
	SlicePeakBytes int64 `json:"slice_peak_bytes"`
	// OutputShape is the shape of the result (and of every partial sum).
	OutputShape []int `json:"output_shape"`

	c *compiled // set by New and Read
}

// compiled is a checked plan: a snapshot of its fields and what executes
// it.
type compiled struct {
	snap Plan
	dt   tf.DType
	sp   *einsum.SlicedPlan
	ep   *tf.EinsumPlan
}

// New plans subscripts on shapes for dtype dt so that one slice's peak
// (intermediates, as einsum.Plan.Peak counts them, in bytes of dt) fits
// limitBytes; limitBytes <= 0 means no limit (Slices == 1). A limit below
// the smallest possible slice peak is an error wrapping ErrLimitTooSmall
// that names the minimum in bytes. New slices summed labels only; see
// NewWith. See einsum.NewSlicedPlan for the search.
func New(dt tf.DType, subscripts string, shapes [][]int, limitBytes int64) (*Plan, error) {
	return newPlan("slicing.New", dt, subscripts, shapes, limitBytes, einsum.Options{})
}

// NewWith is New with the search's options (opts.Strategy, Seed,
// Restarts, Workers and SliceOutput; its MemoryLimit and Path are
// ignored). With opts.SliceOutput the plan may slice output labels: each
// slice then computes its own part of the output, and the partial result
// of a range of slices is zero outside the parts its slices write, so the
// reducer's sum is still the contraction.
func NewWith(dt tf.DType, subscripts string, shapes [][]int, limitBytes int64, opts einsum.Options) (*Plan, error) {
	return newPlan("slicing.NewWith", dt, subscripts, shapes, limitBytes, opts)
}

func newPlan(name string, dt tf.DType, subscripts string, shapes [][]int, limitBytes int64, opts einsum.Options) (*Plan, error) {
	if !dt.IsNumber() {
		return nil, tf.Errorf(tf.ErrDType, name, "dt", "f32, f64, c64 or c128", "%v", dt)
	}
	prob, _, err := bind(name, subscripts, shapes)
	if err != nil {
		return nil, err
	}
	// Plan on the expanded form, the one the plan records, so that Read
	// rebuilds exactly these steps.
	if prob, _, err = bind(name, prob.Subscripts(), shapes); err != nil {
		return nil, err
	}
	size := float64(dt.Size())
	limit := 0.0
	if limitBytes > 0 {
		limit = float64(limitBytes) / size
	}
	if opts.Strategy == einsum.Given {
		opts.Strategy = einsum.Auto
	}
	opts.MemoryLimit, opts.Path = limit, nil
	sp, err := einsum.NewSlicedPlan(prob, opts)
	if err != nil {
		var ee *einsum.Error
		if errors.Is(err, ErrLimitTooSmall) && errors.As(err, &ee) && len(ee.Extents) == 2 {
			return nil, &tf.Error{Op: name, Arg: "limitBytes", Kind: tf.ErrMemory, Err: err,
				Expected: "at least " + strconv.FormatFloat(float64(ee.Extents[1])*size, 'f', -1, 64) + " bytes (the smallest peak one slice reaches in " + dt.String() + ")",
				Actual:   strconv.FormatInt(limitBytes, 10)}
		}
		return nil, tf.WrapError(name, "limitBytes", opError(name, err))
	}
	p := &Plan{
		Subscripts:     prob.Subscripts(),
		Shapes:         clone2(prob.Shapes),
		DType:          dt.String(),
		Path:           slices.Clone(sp.Plan.Path),
		SlicedLabels:   sp.LabelNames(),
		SlicedExtents:  slices.Clone(sp.Extents),
		SlicedWidths:   slices.Clone(sp.Widths),
		Slices:         sp.Slices,
		FlopOverhead:   sp.FlopOverhead,
		SlicePeakBytes: peakBytes(sp, dt),
	}
	if p.Path == nil {
		p.Path = [][2]int{}
	}
	out := make([]int, len(prob.Output))
	for i, l := range prob.Output {
		out[i] = prob.Extents[l]
	}
	p.OutputShape = out
	c, err := compile(name, p)
	if err != nil {
		return nil, err
	}
	p.c = c
	return p, nil
}

// Read decodes a plan written by Write (one JSON object; unknown fields
// are ignored) and checks it (see Plan).
func Read(r io.Reader) (*Plan, error) {
	const name = "slicing.Read"
	data, err := io.ReadAll(io.LimitReader(r, MaxPlanBytes+1))
	if err != nil {
		return nil, tf.WrapError(name, "r", err)
	}
	if len(data) > MaxPlanBytes {
		return nil, tf.Errorf(tf.ErrArgument, name, "r", "a plan of at most "+strconv.Itoa(MaxPlanBytes)+" bytes", "more")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var p Plan
	if err := dec.Decode(&p); err != nil {
		return nil, tf.Errorf(tf.ErrArgument, name, "r", "a JSON plan object", "%v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, tf.Errorf(tf.ErrArgument, name, "r", "one JSON plan object", "more data after it")
	}
	c, err := compile(name, &p)
	if err != nil {
		return nil, err
	}
	p.c = c
	return &p, nil
}

// Write encodes the plan as indented JSON (subscripts keep their "->").
func (p *Plan) Write(w io.Writer) error {
	const name = "slicing.Write"
	if p == nil {
		return tf.Errorf(tf.ErrArgument, name, "p", "a plan", "nil")
	}
	if !(p.FlopOverhead >= 0) || math.IsInf(p.FlopOverhead, 0) {
		return tf.Errorf(tf.ErrArgument, name, "p.FlopOverhead", "a finite number", "%v", p.FlopOverhead)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(p); err != nil {
		return tf.WrapError(name, "w", err)
	}
	return nil
}

// Check reports whether operands fit the plan: as many as it has
// operands, live, of its dtype and of its (unsliced) shapes. It does no
// other work.
func (p *Plan) Check(operands []tf.Value) error {
	c, err := p.use("slicing.Check")
	if err != nil {
		return err
	}
	return c.check("slicing.Check", operands)
}

func (c *compiled) check(name string, operands []tf.Value) error {
	shapes := c.snap.Shapes
	if len(operands) != len(shapes) {
		return tf.Errorf(tf.ErrShape, name, "operands", strconv.Itoa(len(shapes))+" operands", "%d", len(operands))
	}
	for k, v := range operands {
		arg := op.OperandName(k)
		switch {
		case !v.Valid():
			return tf.Errorf(tf.ErrArgument, name, arg, "a live tensor", "an empty or released value")
		case v.DType() != c.dt:
			return tf.Errorf(tf.ErrDType, name, arg, c.dt.String()+" (the plan's dtype)", "%v", v.DType())
		case !slices.Equal(v.Shape(), shapes[k]):
			return tf.Errorf(tf.ErrShape, name, arg, fmt.Sprintf("shape %v", shapes[k]), "%v", v.Shape())
		}
	}
	return nil
}

// use returns p's compiled form: the one New or Read made while p still
// holds the fields it was made from, else a fresh one.
func (p *Plan) use(name string) (*compiled, error) {
	if p == nil {
		return nil, tf.Errorf(tf.ErrArgument, name, "p", "a plan", "nil")
	}
	if p.c != nil && p.c.snap.same(p) {
		return p.c, nil
	}
	return compile(name, p)
}

// same reports whether the exported fields of p and q are equal.
func (q *Plan) same(p *Plan) bool {
	return q.Subscripts == p.Subscripts && q.DType == p.DType && q.Slices == p.Slices &&
		q.FlopOverhead == p.FlopOverhead && q.SlicePeakBytes == p.SlicePeakBytes &&
		slices.EqualFunc(q.Shapes, p.Shapes, slices.Equal) && slices.Equal(q.Path, p.Path) &&
		slices.Equal(q.SlicedLabels, p.SlicedLabels) && slices.Equal(q.SlicedExtents, p.SlicedExtents) &&
		slices.Equal(q.SlicedWidths, p.SlicedWidths) &&
		slices.Equal(q.OutputShape, p.OutputShape)
}

// isOut reports whether label l is an output label.
func isOut(p *einsum.Problem, l int) bool { return p.OutputAxes(l) > 0 }

// compile checks that p's fields agree and prepares its execution.
func compile(name string, p *Plan) (*compiled, error) {
	bad := func(arg, expected, format string, args ...any) error {
		return tf.Errorf(tf.ErrArgument, name, arg, expected, format, args...)
	}
	dt, err := tf.ParseDType(p.DType)
	if err != nil || !dt.IsNumber() {
		return nil, bad("p.DType", `"f32", "f64", "c64" or "c128"`, "%q", p.DType)
	}
	prob, out, err := bind(name, p.Subscripts, p.Shapes)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(out, p.OutputShape) {
		return nil, bad("p.OutputShape", fmt.Sprintf("%v (the output of the subscripts on the shapes)", out), "%v", p.OutputShape)
	}
	if len(p.SlicedLabels) != len(p.SlicedExtents) {
		return nil, bad("p.SlicedExtents", strconv.Itoa(len(p.SlicedLabels))+" extents (one per sliced label)", "%d", len(p.SlicedExtents))
	}
	if p.SlicedWidths != nil && len(p.SlicedWidths) != len(p.SlicedLabels) {
		return nil, bad("p.SlicedWidths", strconv.Itoa(len(p.SlicedLabels))+" widths (one per sliced label) or none", "%d", len(p.SlicedWidths))
	}
	ids := make([]int, len(p.SlicedLabels))
	widths := make([]int, len(p.SlicedLabels))
	n := 1
	for j, s := range p.SlicedLabels {
		l := slices.Index(prob.Names, s)
		arg := "p.SlicedLabels[" + strconv.Itoa(j) + "]"
		switch {
		case l < prob.Ellipsis:
			return nil, bad(arg, "a label of the subscripts", "%q", s)
		case prob.OutputAxes(l) > 1:
			return nil, bad(arg, "a label that is not repeated in the output", "%q, repeated in the output", s)
		case j > 0 && (l <= ids[j-1] && isOut(prob, l) == isOut(prob, ids[j-1]) || !isOut(prob, l) && isOut(prob, ids[j-1])):
			return nil, bad(arg, "the summed labels in increasing order, then the output labels in increasing order, each once", "%q after %q", s, p.SlicedLabels[j-1])
		case p.SlicedExtents[j] != prob.Extents[l] || prob.Extents[l] < 2:
			return nil, bad("p.SlicedExtents["+strconv.Itoa(j)+"]", "the extent of label "+strconv.Quote(s)+", "+strconv.Itoa(prob.Extents[l])+", which must be > 1", "%d", p.SlicedExtents[j])
		}
		ids[j], widths[j] = l, 1
		if p.SlicedWidths != nil {
			widths[j] = p.SlicedWidths[j]
		}
		if w := widths[j]; w < 1 || w >= prob.Extents[l] {
			return nil, bad("p.SlicedWidths["+strconv.Itoa(j)+"]", "a width from 1 to "+strconv.Itoa(prob.Extents[l]-1)+" (below the extent of label "+strconv.Quote(s)+")", "%d", w)
		}
		chunks := (prob.Extents[l] + widths[j] - 1) / widths[j]
		if n > einsum.MaxSlices/chunks {
			return nil, bad("p.SlicedExtents", "at most einsum.MaxSlices slices", "more")
		}
		n *= chunks
	}
	if p.Slices != n {
		return nil, bad("p.Slices", strconv.Itoa(n)+" (the product of the sliced labels' numbers of chunks)", "%d", p.Slices)
	}
	if !(p.FlopOverhead >= 1) || math.IsInf(p.FlopOverhead, 0) {
		return nil, bad("p.FlopOverhead", "a finite number >= 1", "%v", p.FlopOverhead)
	}
	sp, err := einsum.SliceWithWidths(prob, ids, widths, einsum.Options{Strategy: einsum.Given, Path: p.Path})
	if err != nil {
		return nil, tf.WrapError(name, "p.Path", opError(name, err))
	}
	if sp.PeakPerSlice > op.MaxElements {
		return nil, tf.Errorf(tf.ErrMemory, name, "p", "a slice peak of at most 2^46 elements", "%g elements", sp.PeakPerSlice)
	}
	if pb := peakBytes(sp, dt); pb != p.SlicePeakBytes {
		return nil, bad("p.SlicePeakBytes", strconv.FormatInt(pb, 10)+" (the peak of the path's slice)", "%d", p.SlicePeakBytes)
	}
	ep, err := tf.PrepareSlicedEinsum(dt, sp)
	if err != nil {
		return nil, tf.WrapError(name, "p", err)
	}
	c := &compiled{snap: *p, dt: dt, sp: sp, ep: ep}
	c.snap.c = nil
	c.snap.Shapes = clone2(p.Shapes)
	c.snap.Path = slices.Clone(p.Path)
	c.snap.SlicedLabels = slices.Clone(p.SlicedLabels)
	c.snap.SlicedExtents = slices.Clone(p.SlicedExtents)
	c.snap.SlicedWidths = slices.Clone(p.SlicedWidths)
	c.snap.OutputShape = slices.Clone(p.OutputShape)
	return c, nil
}

// bind parses subscripts with the einsum grammar and binds them to shapes
// (extents checked as the library's Einsum checks them).
func bind(name, subscripts string, shapes [][]int) (*einsum.Problem, []int, error) {
	prob, out, f := op.EinsumShape(subscripts, shapes)
	if f != nil {
		return nil, nil, &tf.Error{Op: name, Arg: f.Arg, Expected: f.Expected, Actual: f.Actual, Kind: f.Kind, Err: f.Err}
	}
	return prob, out, nil
}

// opError turns a planning error into the library's error of name.
func opError(name string, err error) error {
	f := op.EinsumFault(err)
	return &tf.Error{Op: name, Arg: f.Arg, Expected: f.Expected, Actual: f.Actual, Kind: f.Kind, Err: f.Err}
}

// peakBytes is a slice's planned peak in bytes of dt.
func peakBytes(sp *einsum.SlicedPlan, dt tf.DType) int64 {
	return int64(math.Round(sp.PeakPerSlice)) * int64(dt.Size())
}

func clone2(s [][]int) [][]int {
	out := make([][]int, len(s))
	for i, x := range s {
		out[i] = slices.Clone(x)
	}
	return out
}
