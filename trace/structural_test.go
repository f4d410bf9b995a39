package trace_test

import (
	"errors"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/trace"
)

// TestIndexingDTypes checks the dtype rules that Go's types enforce for
// the eager forms: int64 indices, bool masks, ScatterAdd of numbers.
func TestIndexingDTypes(t *testing.T) {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	fi, _ := tr.Input(tf.Float64, 3)
	bi, _ := tr.Input(tf.Bool, 3)
	ii, _ := tr.Input(tf.Int64, 3)
	f32, _ := tr.Input(tf.Float32, 3)
	for _, c := range []struct {
		name string
		run  func() (trace.Var, error)
		arg  string
	}{
		{"Take by a float64 index", func() (trace.Var, error) { return tr.Take(x, 0, fi) }, "index"},
		{"Gather by a bool index", func() (trace.Var, error) { return tr.Gather(x, 0, bi) }, "index"},
		{"MaskedSelect by an int64 mask", func() (trace.Var, error) { return tr.MaskedSelect(x, ii, 3) }, "mask"},
		{"ScatterAdd of bool", func() (trace.Var, error) { return tr.ScatterAdd(bi, 0, ii, bi) }, "a"},
		{"ScatterAdd of mixed values", func() (trace.Var, error) { return tr.ScatterAdd(x, 0, ii, f32) }, "src"},
		{"Pad by an imaginary value", func() (trace.Var, error) { return tr.Pad(x, [][2]int{{1, 1}}, tf.PadConstant, 1i) }, "value"},
		{"Concatenate of mixed dtypes", func() (trace.Var, error) { return tr.Concatenate(0, x, f32) }, "operands[1]"},
	} {
		_, err := c.run()
		var te *tf.Error
		if !errors.Is(err, tf.ErrDType) || !errors.As(err, &te) || te.Arg != c.arg {
			t.Errorf("%s: %v, want ErrDType naming %q", c.name, err, c.arg)
		}
	}
	if v, err := tr.ScatterAdd(ii, 0, ii, ii); err != nil || v.DType() != tf.Int64 {
		t.Errorf("ScatterAdd of int64: %v %v", v.DType(), err)
	}
}
