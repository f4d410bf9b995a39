package ad_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/ad"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// The oracle runner: derivative cases generated from PyTorch (each op
// applied to sample inputs, with the directional derivative J·v, the
// adjoint J*·ȳ and, for second-order families, the Hessian-vector product
// computed by PyTorch and by central finite differences) are replayed
// through the library's traces and transforms and compared with allclose,
// |got - want| <= atol + rtol·|want| elementwise, at the case's tolerances.
//
// The database is read from the folder TENFERRO_AD_ORACLES names, by
// default ../../shared/ad-oracles (the shared folder beside the repository
// root); the test skips when it is absent. The op table (which PyTorch op
// maps to which trace operations) is in oracle_ops_test.go.
//
// Counts are of cases: a case passes when every check of every probe
// passes, fails when one check fails, and is skipped when the op is not in
// the library or the case uses semantics the mapping does not share.

// oracleDir returns the folder of the oracle database.
func oracleDir() string {
	if d := os.Getenv("TENFERRO_AD_ORACLES"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "ad-oracles")
}

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

// oraclePrepare compiles g and prepares it on the test engine.
func oraclePrepare(g *trace.Graph) (*program.Prepared, error) {
	p, err := program.Compile(g)
	if err != nil {
		return nil, fmt.Errorf("Compile: %w", err)
	}
	pp, err := program.Prepare(p, engine)
	if err != nil {
		return nil, fmt.Errorf("Prepare: %w", err)
	}
	return pp, nil
}

// oracleSkip is the error of a mapping that does not apply to a case: the
// reason the case is skipped.
type oracleSkip string

func (s oracleSkip) Error() string { return string(s) }

// oracleNotInLibrary is the skip reason of every unmapped op.
const oracleNotInLibrary = "not in the library"

// oracleCounts counts cases.
type oracleCounts struct{ passed, failed, skipped int }

func (c *oracleCounts) add(d oracleCounts) {
	c.passed += d.passed
	c.failed += d.failed
	c.skipped += d.skipped
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

// oracleReport is what TestOracles found: the totals, the ops with
// failures and the skip reasons, for the summary.
type oracleReport struct {
	total   oracleCounts
	failing []string            // "op (k of n cases)"
	missing []string            // ops not in the library: "op (n)"
	skips   map[string][]string // reason: "op (k of n cases)"
}

// oracleLast is the report of the latest TestOracles run, which
// TestOraclesSummary prints.
var oracleLast *oracleReport

func TestOracles(t *testing.T) {
	oracleLast = nil
	dir := oracleDir()
	opDirs, _ := filepath.Glob(filepath.Join(dir, "cases", "*"))
	if len(opDirs) == 0 {
		t.Skipf("no oracle database at %s (set TENFERRO_AD_ORACLES)", dir)
	}
	sort.Strings(opDirs)
	rep := &oracleReport{skips: map[string][]string{}}
	for _, d := range opDirs {
		name := filepath.Base(d)
		t.Run(name, func(t *testing.T) {
			cases, err := oracleLoad(d)
			if err != nil {
				t.Fatal(err)
			}
			var cnt oracleCounts
			reasons := map[string]int{}
			for i := range cases {
				c := &cases[i]
				if c.Op != name {
					t.Errorf("%s: op %q in the folder of %q", c.CaseID, c.Op, name)
				}
				switch ok, skip := oracleCheckCase(t, c); {
				case skip != "":
					cnt.skipped++
					reasons[skip]++
				case ok:
					cnt.passed++
				default:
					cnt.failed++
				}
			}
			t.Logf("%-40s %4d passed %4d failed %4d skipped", name, cnt.passed, cnt.failed, cnt.skipped)
			rep.total.add(cnt)
			if cnt.failed > 0 {
				rep.failing = append(rep.failing, fmt.Sprintf("%s (%d of %d cases)", name, cnt.failed, len(cases)))
			}
			for r, k := range reasons {
				if r == oracleNotInLibrary && k == len(cases) {
					rep.missing = append(rep.missing, fmt.Sprintf("%s (%d)", name, k))
					continue
				}
				rep.skips[r] = append(rep.skips[r], fmt.Sprintf("%s (%d of %d cases)", name, k, len(cases)))
			}
		})
	}
	oracleLast = rep
	rep.log(t)
}

// TestOraclesSummary repeats the summary of TestOracles, which runs just
// before it (go test -run TestOracles selects both), so that it ends the
// output of go test -v after the list of subtests.
func TestOraclesSummary(t *testing.T) {
	if oracleLast == nil {
		t.Skip("TestOracles did not run")
	}
	oracleLast.log(t)
}

// log prints the ops with failures, the skipped ops with the reasons, and
// last the totals.
func (r *oracleReport) log(t *testing.T) {
	if len(r.failing) > 0 {
		t.Logf("failing: %s", strings.Join(r.failing, ", "))
	}
	if len(r.missing) > 0 {
		t.Logf("skipped, %s: %s", oracleNotInLibrary, strings.Join(r.missing, ", "))
	}
	reasons := make([]string, 0, len(r.skips))
	for k := range r.skips {
		reasons = append(reasons, k)
	}
	sort.Strings(reasons)
	for _, k := range reasons {
		t.Logf("skipped, %s: %s", k, strings.Join(r.skips[k], ", "))
	}
	// Counted in cases.
	t.Logf("%d passed, %d failed, %d skipped", r.total.passed, r.total.failed, r.total.skipped)
}

// oracleCheckCase evaluates every probe of c and reports whether all
// checks passed, or the reason c is skipped. Failures are reported on t.
func oracleCheckCase(t *testing.T, c *oracleCase) (ok bool, skip string) {
	m, found := oracleOps[c.Op]
	if !found {
		return false, oracleNotInLibrary
	}
	if c.Observable.Kind != "identity" {
		return false, "observable " + c.Observable.Kind + " is not mapped"
	}
	ok = true
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s: "+format, append([]any{c.CaseID}, args...)...)
		ok = false
	}
	x, skip, err := oracleRecord(c, m)
	if skip != "" {
		return false, skip
	}
	if c.ExpectedBehavior == "error" {
		// The library must refuse the case: when recording, transforming,
		// compiling or running.
		if err == nil {
			err = oracleRunAll(x.g, x.vals)
		}
		if err == nil {
			fail("expected an error (%s), got none", c.Comparison.ReasonCode)
		}
		return ok, ""
	}
	if err != nil {
		fail("recording the op: %v", err)
		return ok, ""
	}
	if c.Comparison.FirstOrder == nil {
		fail("no first-order tolerances")
		return ok, ""
	}
	if err := x.derive(); err != nil {
		fail("%v", err)
		return ok, ""
	}
	for i := range c.Probes {
		if !x.checkProbe(fail, &c.Probes[i]) {
			break
		}
	}
	return ok, ""
}

// oracleRecorded is a case recorded on a trace, with its derivative
// programs.
type oracleRecorded struct {
	c      *oracleCase
	names  []string   // the inputs' names, sorted: the graph's input order
	vals   []tf.Value // the inputs
	g      *trace.Graph
	wrt    []int // every input
	vg     *trace.Graph
	jp, vp *program.Prepared // the JVP and VJP programs
	hp     *program.Prepared // the HVP program, built on first use
}

// oracleRecord records c's op on a trace with m.
func oracleRecord(c *oracleCase, m oracleOp) (x *oracleRecorded, skip string, err error) {
	x = &oracleRecorded{c: c}
	for k := range c.Inputs {
		x.names = append(x.names, k)
	}
	sort.Strings(x.names)
	tr := trace.New()
	b := &oracleBuilder{tr: tr, c: c}
	for i, k := range x.names {
		v, err := c.Inputs[k].value()
		if err != nil {
			return nil, "", fmt.Errorf("input %s: %w", k, err)
		}
		in, err := tr.Input(v.DType(), v.Shape()...)
		if err != nil {
			return nil, "", fmt.Errorf("input %s: %w", k, err)
		}
		x.vals = append(x.vals, v)
		b.x = append(b.x, in)
		x.wrt = append(x.wrt, i)
	}
	if reason := b.unmapped(m); reason != "" {
		return nil, reason, nil
	}
	y := m.build(b)
	var sk oracleSkip
	if errors.As(b.err, &sk) {
		return nil, string(sk), nil
	}
	if b.err != nil {
		return x, "", b.err
	}
	x.g, err = tr.Finish(y)
	return x, "", err
}

// derive builds and prepares the JVP and VJP programs.
func (x *oracleRecorded) derive() error {
	jg, err := ad.JVP(x.g, x.wrt...)
	if err != nil {
		return fmt.Errorf("JVP: %w", err)
	}
	if x.vg, err = ad.VJP(x.g, x.wrt...); err != nil {
		return fmt.Errorf("VJP: %w", err)
	}
	if x.jp, err = oraclePrepare(jg); err != nil {
		return fmt.Errorf("JVP graph: %w", err)
	}
	if x.vp, err = oraclePrepare(x.vg); err != nil {
		return fmt.Errorf("VJP graph: %w", err)
	}
	return nil
}

// hvp returns the Hessian-vector product program: the JVP of the VJP
// graph with respect to the primal inputs, the cotangents held fixed. It
// takes x, ȳ, v and returns y, x̄, then the tangents of y and of x̄.
func (x *oracleRecorded) hvp() (*program.Prepared, error) {
	if x.hp == nil {
		hg, err := ad.JVP(x.vg, x.wrt...)
		if err != nil {
			return nil, fmt.Errorf("JVP of the VJP: %w", err)
		}
		if x.hp, err = oraclePrepare(hg); err != nil {
			return nil, fmt.Errorf("HVP graph: %w", err)
		}
	}
	return x.hp, nil
}

// checkProbe compares the library's J·v, J*·ȳ and H·v at probe p with the
// references, reporting mismatches with fail. It returns false when the
// remaining probes cannot be checked either.
func (x *oracleRecorded) checkProbe(fail func(string, ...any), p *oracleProbe) bool {
	at := func(what string) string { return p.ProbeID + " " + what }
	first, second := *x.c.Comparison.FirstOrder, x.c.Comparison.SecondOrder
	if len(p.Cotangent) != 1 {
		fail("%s: %d outputs; the mapping has one", p.ProbeID, len(p.Cotangent))
		return false
	}
	var oname string
	for k := range p.Cotangent {
		oname = k
	}
	ct := p.Cotangent[oname]
	out := x.g.Node(x.g.Outputs()[0])
	if odt, _ := oracleDType(ct.DType); odt != out.DType || !slices.Equal(ct.Shape, out.Shape) {
		fail("the mapping gives %v %v, the case's output is %s %v", out.DType, out.Shape, ct.DType, ct.Shape)
		return false
	}
	ctv, err := ct.value()
	if err != nil {
		fail("%s: %v", at("cotangent"), err)
		return false
	}
	dirs := make([]tf.Value, len(x.names))
	for i, k := range x.names {
		d, found := p.Direction[k]
		if !found {
			fail("%s: no direction for input %s", p.ProbeID, k)
			return false
		}
		if dirs[i], err = d.value(); err != nil {
			fail("%s: %v", at("direction "+k), err)
			return false
		}
	}
	compare := func(name string, got tf.Value, want oracleTensor, tol oracleTol) {
		if err := oracleCompare(got, want, tol); err != nil {
			fail("%s: %v", at(name), err)
		}
	}

	// J·v against PyTorch's forward mode and finite differences.
	if jout, err := x.jp.Run(append(slices.Clone(x.vals), dirs...)...); err != nil {
		fail("%s: %v", at("JVP"), err)
	} else {
		want, found := p.PyTorchRef.JVP[oname]
		if !found {
			fail("%s: no jvp reference", p.ProbeID)
		} else {
			compare("jvp vs pytorch", jout[1], want, first)
		}
		if want, found := p.FDRef.JVP[oname]; found {
			compare("jvp vs fd", jout[1], want, first)
		}
	}

	// J*·ȳ against PyTorch's reverse mode.
	if vout, err := x.vp.Run(append(slices.Clone(x.vals), ctv)...); err != nil {
		fail("%s: %v", at("VJP"), err)
	} else {
		for i, k := range x.names {
			if want, found := p.PyTorchRef.VJP[k]; found {
				compare("vjp "+k+" vs pytorch", vout[1+i], want, first)
			} else {
				fail("%s: no vjp reference for %s", p.ProbeID, k)
			}
		}
	}

	// The Hessian-vector product: the derivative of the VJP along the
	// direction, the cotangent fixed.
	if len(p.PyTorchRef.HVP) == 0 {
		return true
	}
	if second == nil {
		fail("%s: an hvp reference without second-order tolerances", p.ProbeID)
		return true
	}
	hp, err := x.hvp()
	if err != nil {
		fail("%v", err)
		return false
	}
	hout, err := hp.Run(append(append(slices.Clone(x.vals), ctv), dirs...)...)
	if err != nil {
		fail("%s: %v", at("HVP"), err)
		return true
	}
	n := len(x.names)
	for i, k := range x.names {
		hv := hout[1+n+1+i] // after y, x̄ and the tangent of y
		if want, found := p.PyTorchRef.HVP[k]; found {
			compare("hvp "+k+" vs pytorch", hv, want, *second)
		} else {
			fail("%s: no hvp reference for %s", p.ProbeID, k)
		}
		if want, found := p.FDRef.HVP[k]; found {
			compare("hvp "+k+" vs fd", hv, want, *second)
		}
	}
	return true
}

// oracleRunAll transforms g and runs it and its derivatives at the
// inputs (with zero tangents and cotangents), returning the first error.
func oracleRunAll(g *trace.Graph, vals []tf.Value) error {
	wrt := make([]int, len(vals))
	for i := range wrt {
		wrt[i] = i
	}
	pp, err := oraclePrepare(g)
	if err != nil {
		return err
	}
	if _, err := pp.Run(vals...); err != nil {
		return err
	}
	zeros := func(ids []int) ([]tf.Value, error) {
		var zs []tf.Value
		for _, id := range ids {
			nd := g.Node(id)
			z, err := tf.NewValue(nd.DType, nd.Shape...)
			if err != nil {
				return nil, err
			}
			zs = append(zs, z)
		}
		return zs, nil
	}
	for _, mode := range []struct {
		f   func(*trace.Graph, ...int) (*trace.Graph, error)
		ids []int // the nodes whose shapes the extra inputs take
	}{{ad.JVP, g.Inputs()}, {ad.VJP, g.Outputs()}} {
		dg, err := mode.f(g, wrt...)
		if err != nil {
			return err
		}
		extra, err := zeros(mode.ids)
		if err != nil {
			return err
		}
		dp, err := oraclePrepare(dg)
		if err != nil {
			return err
		}
		if _, err := dp.Run(append(slices.Clone(vals), extra...)...); err != nil {
			return err
		}
	}
	return nil
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
