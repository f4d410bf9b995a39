package tenferro_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/optest"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// TestElementwiseNumPy compares every generated elementwise operation in
// every dtype with NumPy (the table elementwiseOps): special values (signed
// zeros, infinities, NaN, subnormals, the largest finite values, values
// next to ±1, halves; for complex dtypes their combinations, and for binary
// operations every pair of them) and random values from ranges chosen per
// operation; 0-d, empty, vector and matrix shapes, and NumPy's broadcasting
// for binary operations. Each case runs eagerly on compact and strided
// inputs (transposed, reversed, stepped), through its Into form into
// compact and strided destinations, and for vectors and 0-d cases through
// a compiled program. Strided and Into results must equal the compact
// result bit for bit, and every result must match NumPy's (npCheck.match):
// NaN for NaN, infinities exactly, the sign of real zeros, and finite
// values within a few epsilons of the result dtype relative to |NumPy's
// value|, widened per operation where Go's math and NumPy's libm
// legitimately differ (npOp.slack). Mismatches are reported once per
// operation and dtype, with the first few inputs.
//
// One python3 process evaluates all cases; operands and results travel in
// one .npy file per dtype. The test is skipped when python3 with NumPy is
// not installed.
func TestElementwiseNumPy(t *testing.T) {
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		t.Skipf("python3 with numpy not available: %v", err)
	}
	s := &npSuite{dir: t.TempDir(), e: cpu.Serial(), n: 300, fails: map[string]*npFail{},
		unmapped: map[op.Kind]bool{}, inputs: map[tf.DType][]complex128{}}
	defer s.e.Close()
	if testing.Short() {
		s.n = 60
	}
	addElementwise[float32](t, s, 1)
	addElementwise[float64](t, s, 2)
	addElementwise[complex64](t, s, 3)
	addElementwise[complex128](t, s, 4)
	npWrite[float32](t, s)
	npWrite[float64](t, s)
	npWrite[complex64](t, s)
	npWrite[complex128](t, s)
	js, err := json.Marshal(s.cases)
	if err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(s.dir, "cases.json")
	if err := os.WriteFile(manifest, js, 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd := exec.Command(python, "-c", elementwiseScript, manifest, s.dir)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("numpy script: %v\n%s", err, stderr.String())
	}
	if err := json.Unmarshal(out, &s.status); err != nil || len(s.status) != len(s.cases) {
		t.Fatalf("numpy script answered %d statuses for %d cases (%v)", len(s.status), len(s.cases), err)
	}
	npRead[float32](t, s)
	npRead[float64](t, s)
	npRead[complex64](t, s)
	npRead[complex128](t, s)
	for _, c := range s.checks {
		s.run(t, c)
	}
	for _, key := range s.order {
		switch f := s.fails[key]; {
		case f.total == 0:
			t.Errorf("%s: no result compared with NumPy", key)
		case f.n > 0:
			t.Errorf("%s: %d of %d results differ from NumPy:\n\t%s", key, f.n, f.total, strings.Join(f.examples, "\n\t"))
		}
	}
}

// npSuite collects the cases, runs their checks after the NumPy script
// and gathers the mismatches per operation and dtype.
type npSuite struct {
	dir      string
	e        *cpu.Engine
	n        int // random values in a vector case
	cases    []npCase
	checks   []npPending
	inputs   map[tf.DType][]complex128 // the operands of all cases, by dtype
	status   []json.RawMessage         // NumPy's result shape or why there is none, by case
	results  [][]complex128            // NumPy's results, by case
	fails    map[string]*npFail
	order    []string
	unmapped map[op.Kind]bool
}

// npPending is the check of one case, to run after the NumPy script.
type npPending struct {
	key   string // operation and dtype
	shape []int  // of the result
	check func(t *testing.T)
}

// run runs c's check; a panic is recorded as a mismatch of c's operation.
func (s *npSuite) run(t *testing.T, c npPending) {
	defer func() {
		if r := recover(); r != nil {
			s.record(c.key, 1, []string{fmt.Sprintf("%v: panic: %v", c.shape, r)})
		}
	}()
	c.check(t)
}

type npFail struct {
	n, total int
	examples []string
}

// record adds total compared results and the mismatches bad under key.
func (s *npSuite) record(key string, total int, bad []string) {
	f := s.fails[key]
	if f == nil {
		f = &npFail{}
		s.fails[key] = f
		s.order = append(s.order, key)
	}
	f.total += total
	f.n += len(bad)
	for _, b := range bad {
		if b != "" && len(f.examples) < 8 {
			f.examples = append(f.examples, b)
		}
	}
}

// spec returns the NumPy entry of k and its attribute sets; ok is false
// (and the test fails, once per operation) when k has no entry or the
// entry's attributes disagree with the catalog's.
func (s *npSuite) spec(t *testing.T, k op.Kind) (spec npOp, attrs [][2]float64, ok bool) {
	spec, ok = elementwiseOps[k.String()]
	fail := func(format string, args ...any) {
		if !s.unmapped[k] {
			t.Errorf("%v: "+format, append([]any{k}, args...)...)
			s.unmapped[k] = true
		}
		ok = false
	}
	switch a := k.Info().Attr; {
	case !ok:
		fail("no NumPy expression in elementwiseOps")
	case a == op.NoAttr && len(spec.attrs) > 0:
		fail("takes no attributes; elementwiseOps gives %v", spec.attrs)
	case a == op.NoAttr:
		attrs = [][2]float64{{}}
	case a != op.AlphaAttr && a != op.BoundsAttr:
		fail("attribute kind %d not handled here", a)
	case len(spec.attrs) == 0:
		fail("takes attributes; elementwiseOps gives none")
	default:
		attrs = spec.attrs
	}
	return spec, attrs, ok
}

// attrValues returns the attributes at of operation k as T: Scale's alpha
// = at[0] + i·at[1] (the real part for real T), Clip's lo and hi.
func attrValues[T tf.Scalar](k op.Kind, at [2]float64) (alpha, beta T) {
	if k.Info().Attr == op.AlphaAttr {
		return npCast[T](complex(at[0], at[1])), 0
	}
	return npCast[T](complex(at[0], 0)), npCast[T](complex(at[1], 0))
}

// binaryShapes are the operand shapes of binary operations besides the
// vector of special and random pairs: NumPy's broadcasting, 0-d and empty
// operands.
var binaryShapes = [][2][]int{
	{{2, 3}, {3}}, {{3}, {2, 3}}, {{4, 1, 3}, {2, 1}}, {{}, {2, 2}}, {{2, 2}, {}}, {{5, 1}, {1, 4}}, {{}, {}},
	{{0}, {0}}, {{2, 0}, {1}}, {{0}, {}},
}

// addElementwise adds the cases of every generated elementwise operation
// of T.
func addElementwise[T tf.Scalar](t *testing.T, s *npSuite, seed uint64) {
	p := precOf[T]()
	r := rand.New(rand.NewPCG(seed, 0x6e70))
	for _, u := range optest.UnaryOps[T]() {
		spec, attrs, _ := s.spec(t, u.Kind)
		for _, at := range attrs {
			vals := append(unarySpecials[T](p, spec), randVals[T](r, p, spec, spec.dom, s.n)...)
			addUnary(t, s, u, spec, at, vals, true, len(vals))
			addUnary(t, s, u, spec, at, randVals[T](r, p, spec, spec.dom, 35), false, 7, 5)
			addUnary(t, s, u, spec, at, randVals[T](r, p, spec, spec.dom, 1), true)
			addUnary(t, s, u, spec, at, nil, false, 0)
			addUnary(t, s, u, spec, at, nil, false, 3, 0)
		}
	}
	for _, b := range optest.BinaryOps[T]() {
		spec, _, ok := s.spec(t, b.Kind)
		if !ok {
			continue
		}
		domB := spec.domB
		if domB == nil {
			domB = spec.dom
		}
		// The special pairs and random pairs are separate cases, so
		// that a panic on a special pair leaves the random ones checked.
		xa, xb := pairSpecials[T](p, spec)
		addBinary(t, s, b, spec, xa, xb, []int{len(xa)}, []int{len(xb)}, true)
		xa, xb = randVals[T](r, p, spec, spec.dom, s.n), randVals[T](r, p, spec, domB, s.n)
		addBinary(t, s, b, spec, xa, xb, []int{s.n}, []int{s.n}, false)
		for i, sh := range binaryShapes {
			xa := randVals[T](r, p, spec, spec.dom, tf.Numel(sh[0]))
			xb := randVals[T](r, p, spec, domB, tf.Numel(sh[1]))
			addBinary(t, s, b, spec, xa, xb, sh[0], sh[1], i == 0 || i == 6)
		}
	}
}

// addUnary adds the case of unary operation u at the attributes at on
// data shaped as shape; traced adds a run through a compiled program.
func addUnary[T tf.Scalar](t *testing.T, s *npSuite, u optest.UnaryOp[T], spec npOp, at [2]float64, data []T, traced bool, shape ...int) {
	x := npTensor(t, data, shape)
	id := npAdd(t, s, u.Kind, spec, at, false, x, nil)
	alpha, beta := attrValues[T](u.Kind, at)
	s.checks = append(s.checks, npPending{npKey[T](u.Kind), shape, func(t *testing.T) {
		c := newNpCheck[T](t, s, id, u.Kind, spec, shape, [][]complex128{enginetest.Dense(x)})
		if c == nil {
			return
		}
		c.eager("compact")(u.Eager(s.e, alpha, beta, x))
		for kind := enginetest.Transposed; kind < enginetest.NumLayouts; kind++ {
			c.eager(enginetest.LayoutName(kind) + " input")(u.Eager(s.e, alpha, beta, layoutCopy(t, x, kind)))
		}
		for kind := range enginetest.NumLayouts {
			dst, _ := enginetest.Destination(t, shape, kind, npCast[T](complex(-7.25, 1.5)))
			src, in := x, ""
			if kind != enginetest.Compact {
				src, in = layoutCopy(t, x, enginetest.NumLayouts-kind), ", "+enginetest.LayoutName(enginetest.NumLayouts-kind)+" input"
			}
			c.check("Into "+enginetest.LayoutName(kind)+" destination"+in, dst, u.Into(s.e, dst, alpha, beta, src))
		}
		if traced {
			rec := func(tr *trace.Trace, v []trace.Var) (trace.Var, error) {
				return u.Traced(tr, npTo(alpha), npTo(beta), v[0])
			}
			c.eager("program")(runTraced(s, rec, x))
			c.eager("program, stepped input")(runTraced(s, rec, layoutCopy(t, x, enginetest.Stepped)))
		}
	}})
}

// addBinary adds the case of binary operation b on operands xa shaped as
// sa and xb shaped as sb.
func addBinary[T tf.Scalar](t *testing.T, s *npSuite, b optest.BinaryOp[T], spec npOp, xa, xb []T, sa, sb []int, traced bool) {
	x, y := npTensor(t, xa, sa), npTensor(t, xb, sb)
	shape, err := tf.BroadcastShapes(sa, sb)
	if err != nil {
		t.Fatal(err)
	}
	id := npAdd(t, s, b.Kind, spec, [2]float64{}, true, x, y)
	s.checks = append(s.checks, npPending{npKey[T](b.Kind), shape, func(t *testing.T) {
		var ins [2][]complex128
		each(shape, func(idx []int) {
			for k, v := range [2]*tf.Tensor[T]{x, y} {
				e, err := v.At(aligned(idx, v.Shape())...)
				if err != nil {
					t.Fatal(err)
				}
				ins[k] = append(ins[k], npTo(e))
			}
		})
		c := newNpCheck[T](t, s, id, b.Kind, spec, shape, ins[:])
		if c == nil {
			return
		}
		c.eager("compact")(b.Eager(s.e, x, y))
		for kind := enginetest.Transposed; kind < enginetest.NumLayouts; kind++ {
			kb := kind%3 + 1
			c.eager(enginetest.LayoutName(kind) + " and " + enginetest.LayoutName(kb) + " inputs")(b.Eager(s.e, layoutCopy(t, x, kind), layoutCopy(t, y, kb)))
		}
		for kind := range enginetest.NumLayouts {
			dst, _ := enginetest.Destination(t, shape, kind, npCast[T](complex(-7.25, 1.5)))
			c.check("Into "+enginetest.LayoutName(kind)+" destination", dst, b.Into(s.e, dst, layoutCopy(t, x, kind), y))
		}
		if traced {
			rec := func(tr *trace.Trace, v []trace.Var) (trace.Var, error) { return b.Traced(tr, v[0], v[1]) }
			c.eager("program")(runTraced(s, rec, x, y))
			c.eager("program, reversed inputs")(runTraced(s, rec, layoutCopy(t, x, enginetest.Reversed), layoutCopy(t, y, enginetest.Reversed)))
		}
	}})
}

// npAdd writes the operands of a new case of operation k (b only when
// binary) and returns its id.
func npAdd[T tf.Scalar](t *testing.T, s *npSuite, k op.Kind, spec npOp, at [2]float64, binary bool, a, b *tf.Tensor[T]) int {
	s.record(npKey[T](k), 0, nil) // every operation and dtype must compare some results
	id, dt := len(s.cases), tf.DTypeOf[T]()
	c := npCase{DType: dt.String(), Expr: spec.expr, Binary: binary, Attr: at, SA: append([]int{}, a.Shape()...)}
	// complex64 results are NumPy's complex128 ones rounded once (see
	// npOp.wide).
	c.Wide = spec.wide || dt == tf.Complex64
	c.A = len(s.inputs[dt])
	s.inputs[dt] = append(s.inputs[dt], enginetest.Dense(a)...)
	if binary {
		c.B, c.SB = len(s.inputs[dt]), append([]int{}, b.Shape()...)
		s.inputs[dt] = append(s.inputs[dt], enginetest.Dense(b)...)
	}
	s.cases = append(s.cases, c)
	return id
}

// npKey names operation k in dtype T.
func npKey[T tf.Scalar](k op.Kind) string { return k.String() + " " + tf.DTypeOf[T]().String() }

// npTensor returns a compact tensor of shape holding data.
func npTensor[T tf.Scalar](t *testing.T, data []T, shape []int) *tf.Tensor[T] {
	x, err := tf.FromSlice(append([]T{}, data...), shape...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// layoutCopy returns a view laid out as kind (see enginetest.LayoutView)
// holding x's elements, inside a tensor that holds another value
// elsewhere.
func layoutCopy[T tf.Scalar](t *testing.T, x *tf.Tensor[T], kind int) *tf.Tensor[T] {
	base, err := tf.Full(npCast[T](complex(-7.25, 1.5)), enginetest.LayoutBase(x.Shape(), kind, 1)...)
	if err != nil {
		t.Fatal(err)
	}
	v, err := enginetest.LayoutView(base, kind, 1)
	if err != nil {
		t.Fatal(err)
	}
	vals, k := enginetest.Dense(x), 0
	each(x.Shape(), func(idx []int) {
		if err := v.Set(npCast[T](vals[k]), idx...); err != nil {
			t.Fatal(err)
		}
		k++
	})
	return v
}

// runTraced records rec on inputs shaped as in, compiles and prepares the
// graph on s's engine and runs it on in.
func runTraced[T tf.Scalar](s *npSuite, rec func(*trace.Trace, []trace.Var) (trace.Var, error), in ...*tf.Tensor[T]) (*tf.Tensor[T], error) {
	tr := trace.New()
	vars := make([]trace.Var, len(in))
	vals := make([]tf.Value, len(in))
	for i, x := range in {
		v, err := tr.Input(tf.DTypeOf[T](), x.Shape()...)
		if err != nil {
			return nil, err
		}
		vars[i], vals[i] = v, tf.ValueOf(x)
	}
	y, err := rec(tr, vars)
	if err != nil {
		return nil, err
	}
	g, err := tr.Finish(y)
	if err != nil {
		return nil, err
	}
	p, err := program.Compile(g)
	if err != nil {
		return nil, err
	}
	pp, err := program.Prepare(p, s.e)
	if err != nil {
		return nil, err
	}
	out, err := pp.Run(vals...)
	if err != nil {
		return nil, err
	}
	return tf.As[T](out[0])
}

// npCheck compares the results of one case with NumPy's.
type npCheck[T tf.Scalar] struct {
	s     *npSuite
	key   string
	spec  npOp
	p     prec
	isC   bool
	shape []int          // the result's
	ins   [][]complex128 // the operands at each result element
	want  []complex128   // NumPy's result
	ref   []complex128   // the first (compact, eager) result
	seen  map[string]bool
}

// newNpCheck reads NumPy's result of case id; nil (and an error) when
// NumPy failed or gave another shape.
func newNpCheck[T tf.Scalar](t *testing.T, s *npSuite, id int, k op.Kind, spec npOp, shape []int, ins [][]complex128) *npCheck[T] {
	key := npKey[T](k)
	var shapeNp []int
	if err := json.Unmarshal(s.status[id], &shapeNp); err != nil {
		t.Errorf("%s %v: %s", key, shape, s.status[id])
		return nil
	}
	if !slices.Equal(shapeNp, shape) {
		t.Errorf("%s: result shape %v, NumPy's %v", key, shape, shapeNp)
		return nil
	}
	return &npCheck[T]{s: s, key: key, spec: spec, p: precOf[T](), isC: tf.DTypeOf[T]().IsComplex(),
		shape: shape, ins: ins, want: s.results[id], seen: map[string]bool{}}
}

// eager returns the check of a new result on the path named by path,
// which releases the result.
func (c *npCheck[T]) eager(path string) func(got *tf.Tensor[T], err error) {
	return func(got *tf.Tensor[T], err error) {
		c.check(path, got, err)
		if err == nil {
			got.Release()
		}
	}
}

// check compares got (on the path named by path) with NumPy and with the
// first result, and records the mismatches.
func (c *npCheck[T]) check(path string, got *tf.Tensor[T], err error) {
	if err == nil && !slices.Equal(got.Shape(), c.shape) {
		err = fmt.Errorf("shape %v", got.Shape())
	}
	if err != nil {
		c.s.record(c.key, 1, []string{fmt.Sprintf("%s %v: %v", path, c.shape, err)})
		return
	}
	g := enginetest.Dense(got)
	var bad []string
	for i := range g {
		var msg string
		switch {
		case !c.match(c.operands(i), g[i], c.want[i]):
			msg = fmt.Sprintf("%s → %s, NumPy %s", c.inputs(i), c.fmt(g[i]), c.fmt(c.want[i]))
		case c.ref != nil && !sameBits(g[i], c.ref[i]):
			msg = fmt.Sprintf("%s → %s, compact %s", c.inputs(i), c.fmt(g[i]), c.fmt(c.ref[i]))
		default:
			continue
		}
		// One example per input and outcome, at its first path.
		if !c.seen[msg] {
			c.seen[msg] = true
			bad = append(bad, path+" "+fmt.Sprint(c.shape)+": "+msg)
		} else {
			bad = append(bad, "")
		}
	}
	if c.ref == nil {
		c.ref = g
	}
	c.s.record(c.key, len(g), bad)
}

// match reports whether g, the result at operands in, agrees with NumPy's
// w part by part: NaN with NaN, infinities exactly, finite parts within
// eps·(npTol·max(|w|, tiny) + slack), |w| over w's finite parts (the
// smallest normal as the floor lets subnormal results be a few subnormal
// steps off), and real zeros with their sign (unless spec.anyZero).
//
// Complex values follow C99's Annex G, which NumPy follows: a value with
// an infinite part is an infinity whatever its other part, one with a NaN
// part and no infinite part is a NaN, and many signs of infinite parts
// are unspecified (the parts of a product that overflows depend on the
// order of evaluation). So a complex NaN matches any NaN; an infinity
// matches an infinity whose parts are finite where w's are (and close),
// non-finite where w's are infinite, and anything where w's are NaN (no
// direction). The signs of complex zero parts depend on the formula and
// are not checked.
func (c *npCheck[T]) match(in []complex128, g, w complex128) bool {
	scale := 0.0
	for _, x := range [2]float64{real(w), imag(w)} {
		if finite(x) {
			scale = math.Hypot(scale, x)
		}
	}
	var tols [2]float64
	for k := range tols {
		tols[k] = npTol * max(scale, c.p.tiny)
	}
	if c.spec.slack != nil {
		re, im := c.spec.slack(in, w)
		tols[0] += re
		tols[1] += im
	}
	if c.isC {
		switch {
		case cmplx.IsInf(g) != cmplx.IsInf(w) || cmplx.IsNaN(g) != cmplx.IsNaN(w):
			return false
		case cmplx.IsNaN(w):
			return true
		}
	}
	for k, pr := range [2][2]float64{{real(g), real(w)}, {imag(g), imag(w)}} {
		gp, wp := pr[0], pr[1]
		switch {
		case c.isC && cmplx.IsInf(w) && (math.IsNaN(wp) || math.IsInf(wp, 0) && !finite(gp)):
		case !finite(wp):
			if gp != wp && !(math.IsNaN(gp) && math.IsNaN(wp)) {
				return false
			}
		case !finite(gp) || math.Abs(gp-wp) > tols[k]*c.p.eps:
			return false
		case !c.isC && gp == 0 && wp == 0 && !c.spec.anyZero && math.Signbit(gp) != math.Signbit(wp):
			return false
		}
	}
	return true
}

func finite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }

// sameBits reports whether x and y are equal part by part, NaN equal to
// NaN and the sign of zero significant.
func sameBits(x, y complex128) bool {
	for _, pr := range [2][2]float64{{real(x), real(y)}, {imag(x), imag(y)}} {
		a, b := pr[0], pr[1]
		if !(math.IsNaN(a) && math.IsNaN(b)) && (a != b || math.Signbit(a) != math.Signbit(b)) {
			return false
		}
	}
	return true
}

// operands returns the operands of result element i.
func (c *npCheck[T]) operands(i int) []complex128 {
	in := make([]complex128, len(c.ins))
	for k := range in {
		in[k] = c.ins[k][i]
	}
	return in
}

// inputs formats the operands of result element i.
func (c *npCheck[T]) inputs(i int) string {
	var parts []string
	for _, in := range c.ins {
		parts = append(parts, c.fmt(in[i]))
	}
	return strings.Join(parts, ", ")
}

// fmt formats v exactly (the shortest decimal of its dtype).
func (c *npCheck[T]) fmt(v complex128) string {
	bits := 64
	if c.p.single {
		bits = 32
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, bits) }
	if !c.isC {
		return f(real(v))
	}
	return "(" + f(real(v)) + ", " + f(imag(v)) + ")"
}
