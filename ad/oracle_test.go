package ad_test

import (
	"errors"
	"fmt"
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
// root); the test skips when it is absent. The cases and the comparison
// are in oracle_data_test.go; the op table (which PyTorch op maps to which
// trace operations) is built with oracle_builder_test.go, its entries in
// oracle_ops_test.go (elementwise), oracle_reduce_test.go (reductions,
// norms, structural operations) and oracle_linalg_test.go (linear
// algebra).
//
// Counts are of cases: a case passes when every check of every probe
// passes, fails when one check fails, and is skipped when the op is not in
// the library or the case uses semantics the mapping does not share. An
// error case passes when the library refuses it; one of reason
// gauge_ill_defined, when the gradient of its phase-dependent loss fails
// with tenferro.ErrGauge.

// oracleDir returns the folder of the oracle database.
func oracleDir() string {
	if d := os.Getenv("TENFERRO_AD_ORACLES"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "ad-oracles")
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
	if m.reason != "" {
		return false, m.reason
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
	if c.ExpectedBehavior == "error" && c.Comparison.ReasonCode == oracleGaugeIllDefined {
		// The gradient of a loss that reads the phases of the vectors must
		// fail with ErrGauge.
		if err == nil {
			err = oracleRunGrad(x.g, x.vals)
		}
		if !errors.Is(err, tf.ErrGauge) {
			fail("expected tenferro.ErrGauge (%s), got %v", c.Comparison.ReasonCode, err)
		}
		return ok, ""
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
	var ys []trace.Var
	switch {
	case c.ExpectedBehavior == "error" && c.Comparison.ReasonCode == oracleGaugeIllDefined:
		if m.gauge == nil {
			return nil, "no phase-dependent loss mapped for " + oracleGaugeIllDefined, nil
		}
		ys = []trace.Var{m.gauge(b)}
	case m.outs != nil:
		ys = m.outs(b)
	default:
		ys = []trace.Var{m.build(b)}
	}
	var sk oracleSkip
	if errors.As(b.err, &sk) {
		return nil, string(sk), nil
	}
	if b.err != nil {
		return x, "", b.err
	}
	x.g, err = tr.Finish(ys...)
	return x, "", err
}

// oracleGaugeIllDefined is the reason code of the error cases whose loss
// depends on the phases of singular or eigen vectors.
const oracleGaugeIllDefined = "gauge_ill_defined"

// oracleRunGrad runs the gradient of g's output, a real scalar loss, at
// the inputs, returning the first error.
func oracleRunGrad(g *trace.Graph, vals []tf.Value) error {
	wrt := make([]int, len(vals))
	for i := range wrt {
		wrt[i] = i
	}
	gg, err := ad.Grad(g, wrt...)
	if err != nil {
		return err
	}
	pp, err := oraclePrepare(gg)
	if err != nil {
		return err
	}
	_, err = pp.Run(vals...)
	return err
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
// graph with respect to the primal inputs, the cotangents held fixed.
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
//
// The graph's outputs are the case's outputs in the order of their names.
// With n outputs and k inputs, the JVP program returns y, then J·v per
// output; the VJP program takes x, ȳ and returns y, then x̄ per input; the
// HVP program takes x, ȳ, v and returns y, x̄, then the tangents of y and
// of x̄.
func (x *oracleRecorded) checkProbe(fail func(string, ...any), p *oracleProbe) bool {
	at := func(what string) string { return p.ProbeID + " " + what }
	first, second := *x.c.Comparison.FirstOrder, x.c.Comparison.SecondOrder
	outs := x.g.Outputs()
	onames := make([]string, 0, len(p.Cotangent))
	for k := range p.Cotangent {
		onames = append(onames, k)
	}
	sort.Strings(onames)
	if len(onames) != len(outs) {
		fail("%s: outputs %v; the mapping has %d", p.ProbeID, onames, len(outs))
		return false
	}
	cts := make([]tf.Value, len(outs))
	for i, k := range onames {
		ct := p.Cotangent[k]
		out := x.g.Node(outs[i])
		if odt, _ := oracleDType(ct.DType); odt != out.DType || !slices.Equal(ct.Shape, out.Shape) {
			fail("the mapping gives %v %v for output %s, the case's is %s %v", out.DType, out.Shape, k, ct.DType, ct.Shape)
			return false
		}
		var err error
		if cts[i], err = ct.value(); err != nil {
			fail("%s: %v", at("cotangent "+k), err)
			return false
		}
	}
	dirs := make([]tf.Value, len(x.names))
	for i, k := range x.names {
		d, found := p.Direction[k]
		if !found {
			fail("%s: no direction for input %s", p.ProbeID, k)
			return false
		}
		var err error
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
	nOut, nIn := len(outs), len(x.names)

	// J·v against PyTorch's forward mode and finite differences.
	if jout, err := x.jp.Run(append(slices.Clone(x.vals), dirs...)...); err != nil {
		fail("%s: %v", at("JVP"), err)
	} else {
		for i, k := range onames {
			want, found := p.PyTorchRef.JVP[k]
			if !found {
				fail("%s: no jvp reference for %s", p.ProbeID, k)
			} else {
				compare("jvp "+k+" vs pytorch", jout[nOut+i], want, first)
			}
			if want, found := p.FDRef.JVP[k]; found {
				compare("jvp "+k+" vs fd", jout[nOut+i], want, first)
			}
		}
	}

	// J*·ȳ against PyTorch's reverse mode.
	if vout, err := x.vp.Run(append(slices.Clone(x.vals), cts...)...); err != nil {
		fail("%s: %v", at("VJP"), err)
	} else {
		for i, k := range x.names {
			if want, found := p.PyTorchRef.VJP[k]; found {
				compare("vjp "+k+" vs pytorch", vout[nOut+i], want, first)
			} else {
				fail("%s: no vjp reference for %s", p.ProbeID, k)
			}
		}
	}

	// The Hessian-vector product: the derivative of the VJP along the
	// direction, the cotangents fixed.
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
	hout, err := hp.Run(append(append(slices.Clone(x.vals), cts...), dirs...)...)
	if err != nil {
		fail("%s: %v", at("HVP"), err)
		return true
	}
	for i, k := range x.names {
		hv := hout[nOut+nIn+nOut+i] // after y, x̄ and the tangents of y
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
