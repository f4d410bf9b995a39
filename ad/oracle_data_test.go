package ad_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/cmplx"
	"os"
	"path/filepath"
	"slices"
	"sort"

	tf "github.com/tenferro-go/tenferro"
)

// The oracle database: the cases as they are stored, their tensors in
// the library's layout, and the allclose comparison.

// oracleCase is one line of cases/OP/FAMILY.jsonl (see case.schema.json).
type oracleCase struct {
	CaseID           string                     `json:"case_id"`
	Op               string                     `json:"op"`
	DType            string                     `json:"dtype"`
	Family           string                     `json:"family"`
	ExpectedBehavior string                     `json:"expected_behavior"`
	Inputs           map[string]oracleTensor    `json:"inputs"`
	OpArgs           []json.RawMessage          `json:"op_args"`
	OpKwargs         map[string]json.RawMessage `json:"op_kwargs"`
	Observable       struct {
		Kind string `json:"kind"`
	} `json:"observable"`
	Probes     []oracleProbe `json:"probes"`
	Comparison struct {
		FirstOrder  *oracleTol `json:"first_order"`
		SecondOrder *oracleTol `json:"second_order"`
		ReasonCode  string     `json:"reason_code"`
	} `json:"comparison"`
}

type oracleTol struct {
	RTol float64 `json:"rtol"`
	ATol float64 `json:"atol"`
}

type oracleProbe struct {
	ProbeID    string                  `json:"probe_id"`
	Direction  map[string]oracleTensor `json:"direction"`
	Cotangent  map[string]oracleTensor `json:"cotangent"`
	PyTorchRef oracleRef               `json:"pytorch_ref"`
	FDRef      oracleRef               `json:"fd_ref"`
}

type oracleRef struct {
	JVP map[string]oracleTensor `json:"jvp"`
	VJP map[string]oracleTensor `json:"vjp"`
	HVP map[string]oracleTensor `json:"hvp"`
}

// oracleTensor is a dense tensor in row-major order; complex data are
// [re, im] pairs.
type oracleTensor struct {
	DType string          `json:"dtype"`
	Shape []int           `json:"shape"`
	Order string          `json:"order"`
	Data  json.RawMessage `json:"data"`
}

// oracleNum is a JSON number, or one of the strings NaN, Infinity and
// -Infinity that oracleJSON turns Python's bare tokens into.
type oracleNum float64

func (n *oracleNum) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		switch s {
		case "NaN":
			*n = oracleNum(math.NaN())
		case "Infinity":
			*n = oracleNum(math.Inf(1))
		case "-Infinity":
			*n = oracleNum(math.Inf(-1))
		default:
			return fmt.Errorf("not a number: %q", s)
		}
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = oracleNum(f)
	return nil
}

// oracleJSON quotes the bare NaN, Infinity and -Infinity tokens Python's
// json module writes (outside strings), so that encoding/json reads them.
func oracleJSON(line []byte) []byte {
	var out bytes.Buffer
	in := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if in {
			out.WriteByte(c)
			switch c {
			case '\\':
				if i+1 < len(line) {
					i++
					out.WriteByte(line[i])
				}
			case '"':
				in = false
			}
			continue
		}
		switch {
		case c == '"':
			in = true
			out.WriteByte(c)
		case bytes.HasPrefix(line[i:], []byte("NaN")):
			out.WriteString(`"NaN"`)
			i += len("NaN") - 1
		case bytes.HasPrefix(line[i:], []byte("-Infinity")):
			out.WriteString(`"-Infinity"`)
			i += len("-Infinity") - 1
		case bytes.HasPrefix(line[i:], []byte("Infinity")):
			out.WriteString(`"Infinity"`)
			i += len("Infinity") - 1
		default:
			out.WriteByte(c)
		}
	}
	return out.Bytes()
}

func oracleDType(s string) (tf.DType, error) {
	switch s {
	case "float32":
		return tf.Float32, nil
	case "float64":
		return tf.Float64, nil
	case "complex64":
		return tf.Complex64, nil
	case "complex128":
		return tf.Complex128, nil
	}
	return tf.Invalid, fmt.Errorf("dtype %q", s)
}

// elems returns o's elements in row-major order.
func (o oracleTensor) elems() ([]complex128, error) {
	dt, err := oracleDType(o.DType)
	if err != nil {
		return nil, err
	}
	if o.Order != "row_major" {
		return nil, fmt.Errorf("order %q", o.Order)
	}
	var out []complex128
	if dt.IsComplex() {
		var pairs [][2]oracleNum
		if err := json.Unmarshal(o.Data, &pairs); err != nil {
			return nil, err
		}
		for _, p := range pairs {
			out = append(out, complex(float64(p[0]), float64(p[1])))
		}
	} else {
		var xs []oracleNum
		if err := json.Unmarshal(o.Data, &xs); err != nil {
			return nil, err
		}
		for _, x := range xs {
			out = append(out, complex(float64(x), 0))
		}
	}
	if len(out) != oracleNumel(o.Shape) {
		return nil, fmt.Errorf("%d elements for shape %v", len(out), o.Shape)
	}
	return out, nil
}

func oracleNumel(shape []int) int {
	n := 1
	for _, e := range shape {
		n *= e
	}
	return n
}

// oracleColumnMajor permutes row-major elements of shape into the
// library's column-major order: element (i, j, ...) moves to
// i + shape[0]·(j + ...).
func oracleColumnMajor(shape []int, rowMajor []complex128) []complex128 {
	col := make([]complex128, len(rowMajor))
	idx := make([]int, len(shape))
	for _, x := range rowMajor {
		off, stride := 0, 1
		for d, e := range shape {
			off += idx[d] * stride
			stride *= e
		}
		col[off] = x
		for d := len(shape) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return col
}

// oracleValueOf is the tensor of dtype dt and the given shape holding the
// row-major elements.
func oracleValueOf(dt tf.DType, shape []int, rowMajor []complex128) (tf.Value, error) {
	col := oracleColumnMajor(shape, rowMajor)
	switch dt {
	case tf.Float32:
		xs := make([]float32, len(col))
		for i, z := range col {
			xs[i] = float32(real(z))
		}
		x, err := tf.FromSlice(xs, shape...)
		return tf.ValueOf(x), err
	case tf.Float64:
		xs := make([]float64, len(col))
		for i, z := range col {
			xs[i] = real(z)
		}
		x, err := tf.FromSlice(xs, shape...)
		return tf.ValueOf(x), err
	case tf.Complex64:
		xs := make([]complex64, len(col))
		for i, z := range col {
			xs[i] = complex64(z)
		}
		x, err := tf.FromSlice(xs, shape...)
		return tf.ValueOf(x), err
	case tf.Complex128:
		x, err := tf.FromSlice(col, shape...)
		return tf.ValueOf(x), err
	}
	return tf.Value{}, fmt.Errorf("dtype %v", dt)
}

func (o oracleTensor) value() (tf.Value, error) {
	dt, err := oracleDType(o.DType)
	if err != nil {
		return tf.Value{}, err
	}
	xs, err := o.elems()
	if err != nil {
		return tf.Value{}, err
	}
	return oracleValueOf(dt, o.Shape, xs)
}

// oracleRowMajor returns v's elements in row-major order as complex128.
func oracleRowMajor(v tf.Value) ([]complex128, error) {
	c, err := tf.Convert(v, tf.Complex128)
	if err != nil {
		return nil, err
	}
	t, err := tf.As[complex128](c)
	if err != nil {
		return nil, err
	}
	shape := t.Shape()
	n := oracleNumel(shape)
	out := make([]complex128, 0, n)
	idx := make([]int, len(shape))
	for range n {
		x, err := t.At(idx...)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
		for d := len(shape) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return out, nil
}

// oracleLoad reads the cases of one op folder, in file and line order.
func oracleLoad(dir string) ([]oracleCase, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var cases []oracleCase
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<30)
		for n := 1; sc.Scan(); n++ {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			var c oracleCase
			if err := json.Unmarshal(oracleJSON(line), &c); err != nil {
				fh.Close()
				return nil, fmt.Errorf("%s:%d: %w", f, n, err)
			}
			cases = append(cases, c)
		}
		err = sc.Err()
		fh.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
	}
	return cases, nil
}

// oracleCompare checks got against want with allclose: |got - want| <=
// atol + rtol·|want| elementwise (complex modulus; NaN matches NaN and an
// infinity itself), after checking dtype and shape.
func oracleCompare(got tf.Value, want oracleTensor, tol oracleTol) error {
	wdt, err := oracleDType(want.DType)
	if err != nil {
		return err
	}
	if got.DType() != wdt || !slices.Equal(got.Shape(), want.Shape) {
		return fmt.Errorf("got %v %v, want %v %v", got.DType(), got.Shape(), wdt, want.Shape)
	}
	g, err := oracleRowMajor(got)
	if err != nil {
		return err
	}
	w, err := want.elems()
	if err != nil {
		return err
	}
	bad, worst, excess := 0, -1, 0.0
	for i := range w {
		if g[i] == w[i] || (cmplx.IsNaN(g[i]) && cmplx.IsNaN(w[i])) {
			continue
		}
		d, bound := cmplx.Abs(g[i]-w[i]), tol.ATol+tol.RTol*cmplx.Abs(w[i])
		if d <= bound {
			continue
		}
		bad++
		if e := d - bound; worst < 0 || e > excess || math.IsNaN(e) {
			worst, excess = i, e
		}
	}
	if bad == 0 {
		return nil
	}
	i := worst
	d, bound := cmplx.Abs(g[i]-w[i]), tol.ATol+tol.RTol*cmplx.Abs(w[i])
	return fmt.Errorf("%d of %d elements differ; worst at %v: got %v, want %v (|diff| %.3g > %.3g = atol %g + rtol %g·|want|)",
		bad, len(w), oracleIndex(want.Shape, i), g[i], w[i], d, bound, tol.ATol, tol.RTol)
}

// oracleIndex is the multi-index of row-major offset off in shape.
func oracleIndex(shape []int, off int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] > 0 {
			idx[d] = off % shape[d]
			off /= shape[d]
		}
	}
	return idx
}
