package tenferro_test

import (
	"encoding/json"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/internal/op"
)

// npReduceCase is one reduction NumPy evaluates: operand data in
// row-major order (NumPy's), the axes, the attribute and keepdims.
type npReduceCase struct {
	Op    string    `json:"op"`
	Shape []int     `json:"shape"`
	Re    []float64 `json:"re"`
	Im    []float64 `json:"im"`
	Axes  []int     `json:"axes"` // nil: every axis
	P     float64   `json:"-"`
	PNum  float64   `json:"p"`    // P, or 0 when P is +Inf
	PInf  bool      `json:"pinf"` // P is +Inf
	PNeg  bool      `json:"pneg"` // P is -Inf
	Keep  bool      `json:"keep"`
}

// npReduceResult is NumPy's result; values travel as Python's repr
// strings (JSON has no NaN or Inf).
type npReduceResult struct {
	Shape []int    `json:"shape"`
	Re    []string `json:"re"`
	Im    []string `json:"im"`
	Err   string   `json:"err"`
}

const npReduceScript = `
import json, sys
import numpy as np
cases = json.load(sys.stdin)
out = []
for c in cases:
    x = np.array(c["re"], dtype=np.float64)
    if c["im"] is not None:
        x = x + 1j * np.array(c["im"], dtype=np.float64)
    x = x.reshape(c["shape"])
    ax = None if c["axes"] is None else tuple(c["axes"])
    k, op, p = c["keep"], c["op"], (float("inf") if c["pinf"] else -float("inf") if c["pneg"] else c["p"])
    try:
        with np.errstate(all="ignore"):
            if op == "Sum": r = np.sum(x, axis=ax, keepdims=k)
            elif op == "Prod": r = np.prod(x, axis=ax, keepdims=k)
            elif op == "Mean": r = np.mean(x, axis=ax, keepdims=k)
            elif op == "Var": r = np.var(x, axis=ax, ddof=int(p), keepdims=k)
            elif op == "Std": r = np.std(x, axis=ax, ddof=int(p), keepdims=k)
            elif op == "Max": r = np.max(x, axis=ax, keepdims=k)
            elif op == "Min": r = np.min(x, axis=ax, keepdims=k)
            elif op == "ArgMax": r = np.argmax(x, axis=ax[0], keepdims=k)
            elif op == "ArgMin": r = np.argmin(x, axis=ax[0], keepdims=k)
            elif op == "Norm":
                a = np.abs(x)
                if p == float("inf"): r = np.max(a, axis=ax, keepdims=k, initial=0.0)
                elif p == -float("inf"): r = np.min(a, axis=ax, keepdims=k)
                elif p == 0: r = np.sum(a != 0, axis=ax, keepdims=k).astype(np.float64)
                else: r = np.sum(a ** p, axis=ax, keepdims=k) ** (1.0 / p)
            elif op == "LogSumExp":
                m = np.max(x, axis=ax, keepdims=True, initial=-np.inf)
                r = np.log(np.sum(np.exp(x - m), axis=ax, keepdims=True)) + m
                if not k: r = np.squeeze(r, axis=ax) if ax is not None else r.reshape(())
            elif op == "CumSum": r = np.cumsum(x, axis=ax[0])
            elif op == "CumProd": r = np.cumprod(x, axis=ax[0])
        r = np.asarray(r)
        out.append({"shape": list(r.shape), "re": [repr(float(v)) for v in np.real(r).ravel()],
                    "im": [repr(float(v)) for v in np.imag(r).ravel()] if np.iscomplexobj(r) else None, "err": ""})
    except Exception as e:
        out.append({"shape": [], "re": [], "im": None, "err": str(e)})
json.dump(out, sys.stdout)
`

// TestReductionsNumPy checks every reduction and scan against NumPy on
// float64 and complex128 operands: negative and unordered axes, keepdims
// (through the Into forms' destination shape), empty and 0-d operands,
// ddof and norm orders, and strided views as inputs.
func TestReductionsNumPy(t *testing.T) {
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		t.Skipf("python3 with numpy not available: %v", err)
	}
	e := cpu.Serial()
	defer e.Close()
	r := rand.New(rand.NewPCG(5, 9))
	type call struct {
		c       npReduceCase
		complex bool
	}
	var calls []call
	shapes := [][]int{{3, 4, 5}, {7}, {}, {0, 3}, {2, 1, 6}}
	for _, shape := range shapes {
		n := 1
		for _, s := range shape {
			n *= s
		}
		for _, cplx := range []bool{false, true} {
			re, im := make([]float64, n), make([]float64, n)
			for i := range re {
				re[i], im[i] = r.NormFloat64(), r.NormFloat64()
			}
			if !cplx {
				im = nil
			}
			rank := len(shape)
			var axesSets [][]int
			axesSets = append(axesSets, nil)
			if rank > 0 {
				axesSets = append(axesSets, []int{-1}, []int{0})
			}
			if rank > 2 {
				axesSets = append(axesSets, []int{2, 0}, []int{-1, -3, 1})
			}
			for _, opName := range []string{"Sum", "Prod", "Mean", "Var", "Std", "Max", "Min", "Norm", "LogSumExp", "ArgMax", "ArgMin", "CumSum", "CumProd"} {
				real := opName == "Max" || opName == "Min" || opName == "LogSumExp" || opName == "ArgMax" || opName == "ArgMin"
				if cplx && real {
					continue
				}
				one := strings.HasPrefix(opName, "Arg") || strings.HasPrefix(opName, "Cum")
				ps := []float64{0}
				switch opName {
				case "Var", "Std":
					ps = []float64{0, 1}
				case "Norm":
					ps = []float64{1, 2, 3, 0.5, math.Inf(1), 0, -1, -2.5, math.Inf(-1)}
				}
				for _, axes := range axesSets {
					if one && len(axes) != 1 {
						continue
					}
					for _, p := range ps {
						for _, keep := range []bool{false, true} {
							if keep && strings.HasPrefix(opName, "Cum") {
								continue
							}
							calls = append(calls, call{npReduceCase{Op: opName, Shape: shape, Re: re, Im: im, Axes: axes, P: p, Keep: keep}, cplx})
						}
					}
				}
			}
		}
	}
	cases := make([]npReduceCase, len(calls))
	for i, c := range calls {
		cases[i] = c.c
		switch {
		case math.IsInf(c.c.P, 1):
			cases[i].PInf = true
		case math.IsInf(c.c.P, -1):
			cases[i].PNeg = true
		default:
			cases[i].PNum = c.c.P
		}
	}
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-c", npReduceScript)
	cmd.Stdin = strings.NewReader(string(in))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("numpy: %v\n%s", err, stderr.String())
	}
	var res []npReduceResult
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(cases) {
		t.Fatalf("numpy output: %v (%d results for %d cases)", err, len(res), len(cases))
	}
	for i, c := range calls {
		var got []complex128
		var shape []int
		var gerr error
		if c.complex {
			got, shape, gerr = runReduction[complex128](e, c.c, 1)
		} else {
			got, shape, gerr = runReduction[float64](e, c.c, 1)
		}
		want := res[i]
		what := c.c.Op + " " + tf.Complex128.String()
		if !c.complex {
			what = c.c.Op + " f64"
		}
		what += " shape " + op.FmtInts(c.c.Shape) + " axes " + op.FmtInts(c.c.Axes)
		if want.Err != "" {
			if gerr == nil {
				t.Errorf("%s (p %v keep %v): NumPy fails (%s), we give %v", what, c.c.P, c.c.Keep, want.Err, got)
			}
			continue
		}
		if gerr != nil {
			t.Errorf("%s (p %v keep %v): %v", what, c.c.P, c.c.Keep, gerr)
			continue
		}
		if !slices.Equal(shape, want.Shape) {
			t.Errorf("%s (p %v keep %v): shape %v, NumPy %v", what, c.c.P, c.c.Keep, shape, want.Shape)
			continue
		}
		for j, g := range got {
			w := complex(parseFloat(want.Re[j]), 0)
			if want.Im != nil {
				w = complex(parseFloat(want.Re[j]), parseFloat(want.Im[j]))
			}
			if !closeTo(g, w, 1e-12) {
				t.Errorf("%s (p %v keep %v): element %d = %v, NumPy %v", what, c.c.P, c.c.Keep, j, g, w)
				break
			}
		}
	}
}

func parseFloat(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(err)
	}
	return f
}

// closeTo compares with NaN equal to NaN and a relative tolerance.
func closeTo(g, w complex128, tol float64) bool {
	if cmplx.IsNaN(w) || cmplx.IsNaN(g) {
		return cmplx.IsNaN(w) && cmplx.IsNaN(g)
	}
	if g == w {
		return true
	}
	return cmplx.Abs(g-w) <= tol*math.Max(1, cmplx.Abs(w))
}

// runReduction evaluates case c with the library on a strided view
// (every other element of a larger tensor) and returns the result in
// row-major order with its shape.
func runReduction[T tf.Scalar](e tf.Engine, c npReduceCase, _ int) ([]complex128, []int, error) {
	n := 1
	for _, s := range c.Shape {
		n *= s
	}
	data := make([]T, n)
	for i := range data {
		var v any = complex(c.Re[i], 0)
		if c.Im != nil {
			v = complex(c.Re[i], c.Im[i])
		}
		switch p := any(&data[i]).(type) {
		case *float64:
			*p = real(v.(complex128))
		case *complex128:
			*p = v.(complex128)
		}
	}
	x, err := tf.FromRowMajor(data, c.Shape...)
	if err != nil {
		return nil, nil, err
	}
	x = stepped(x)
	axes := c.Axes
	if c.Keep {
		return keepRun(e, c, x)
	}
	var v tf.Value
	switch c.Op {
	case "Sum":
		v, err = valueOf(tf.Sum(e, x, axes...))
	case "Prod":
		v, err = valueOf(tf.Prod(e, x, axes...))
	case "Mean":
		v, err = valueOf(tf.Mean(e, x, axes...))
	case "Var":
		v, err = valueOf(tf.Var[float64](e, x, int(c.P), axes...))
	case "Std":
		v, err = valueOf(tf.Std[float64](e, x, int(c.P), axes...))
	case "Norm":
		v, err = valueOf(tf.Norm[float64](e, x, c.P, axes...))
	case "CumSum":
		v, err = valueOf(tf.CumSum(e, x, axes[0]))
	case "CumProd":
		v, err = valueOf(tf.CumProd(e, x, axes[0]))
	default:
		xr, _ := any(x).(*tf.Tensor[float64])
		switch c.Op {
		case "Max":
			v, err = valueOf(tf.Max(e, xr, axes...))
		case "Min":
			v, err = valueOf(tf.Min(e, xr, axes...))
		case "LogSumExp":
			v, err = valueOf(tf.LogSumExp(e, xr, axes...))
		case "ArgMax":
			v, err = valueOf(tf.ArgMax(e, xr, axes[0]))
		case "ArgMin":
			v, err = valueOf(tf.ArgMin(e, xr, axes[0]))
		}
	}
	if err != nil {
		return nil, nil, err
	}
	return rowMajorValues(v), v.Shape(), nil
}

// keepRun evaluates c with keepdims: the Into form into a destination of
// x's rank with extent 1 on the reduced axes.
func keepRun[T tf.Scalar](e tf.Engine, c npReduceCase, x *tf.Tensor[T]) ([]complex128, []int, error) {
	shape := slices.Clone(c.Shape)
	for d := range shape {
		reduced := c.Axes == nil
		for _, a := range c.Axes {
			reduced = reduced || (a+len(shape))%max(len(shape), 1) == d
		}
		if reduced {
			shape[d] = 1
		}
	}
	dt := x.DType()
	switch c.Op {
	case "Var", "Std", "Norm":
		dt = dt.Real()
	case "ArgMax", "ArgMin":
		dt = tf.Int64
	}
	dst, err := tf.NewValue(dt, shape...)
	if err != nil {
		return nil, nil, err
	}
	axes := c.Axes
	switch c.Op {
	case "Sum":
		err = tf.SumInto(e, must(tf.As[T](dst)), x, axes...)
	case "Prod":
		err = tf.ProdInto(e, must(tf.As[T](dst)), x, axes...)
	case "Mean":
		err = tf.MeanInto(e, must(tf.As[T](dst)), x, axes...)
	case "Var":
		err = tf.VarInto(e, must(tf.As[float64](dst)), x, int(c.P), axes...)
	case "Std":
		err = tf.StdInto(e, must(tf.As[float64](dst)), x, int(c.P), axes...)
	case "Norm":
		err = tf.NormInto(e, must(tf.As[float64](dst)), x, c.P, axes...)
	default:
		xr, _ := any(x).(*tf.Tensor[float64])
		switch c.Op {
		case "Max":
			err = tf.MaxInto(e, must(tf.As[float64](dst)), xr, axes...)
		case "Min":
			err = tf.MinInto(e, must(tf.As[float64](dst)), xr, axes...)
		case "LogSumExp":
			err = tf.LogSumExpInto(e, must(tf.As[float64](dst)), xr, axes...)
		case "ArgMax":
			err = tf.ArgMaxInto(e, must(tf.As[int64](dst)), xr, axes[0])
		case "ArgMin":
			err = tf.ArgMinInto(e, must(tf.As[int64](dst)), xr, axes[0])
		}
	}
	if err != nil {
		return nil, nil, err
	}
	return rowMajorValues(dst), dst.Shape(), nil
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func valueOf[T tf.Elem](t *tf.Tensor[T], err error) (tf.Value, error) {
	if err != nil {
		return tf.Value{}, err
	}
	return tf.ValueOf(t), nil
}

// stepped returns x as a view of every other element of a larger tensor
// along its first axis (x itself for rank 0).
func stepped[T tf.Scalar](x *tf.Tensor[T]) *tf.Tensor[T] {
	shape := x.Shape()
	if len(shape) == 0 {
		return x
	}
	big := slices.Clone(shape)
	big[0] = 2*shape[0] + 1
	b, _ := tf.Zeros[T](big...)
	v, err := b.Slice(0, 1, 2*shape[0]+1, 2)
	if err != nil {
		panic(err)
	}
	eachRowMajor(shape, func(idx []int) {
		x0, _ := x.At(idx...)
		v.Set(x0, idx...)
	})
	return v
}

// rowMajorValues reads v in row-major order as complex128.
func rowMajorValues(v tf.Value) []complex128 {
	c, err := tf.Convert(v, tf.Complex128)
	if err != nil {
		panic(err)
	}
	t := c.Tensor().(*tf.Tensor[complex128])
	var out []complex128
	eachRowMajor(t.Shape(), func(idx []int) {
		x, _ := t.At(idx...)
		out = append(out, x)
	})
	return out
}

// eachRowMajor calls f with every index of shape, last axis fastest.
func eachRowMajor(shape []int, f func(idx []int)) {
	n := 1
	for _, s := range shape {
		n *= s
	}
	idx := make([]int, len(shape))
	for k := range n {
		q := k
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d] = q % shape[d]
			q /= shape[d]
		}
		f(idx)
	}
}
