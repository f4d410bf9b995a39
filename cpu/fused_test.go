package cpu_test

import (
	"errors"
	"math/cmplx"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// TestFusedAgainstLoop evaluates conj(2·(a - b)·c) + (-a) with b and c
// broadcast and a strided destination, against a plain loop in complex128.
func TestFusedAgainstLoop(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	code := []tf.FusedInstr{
		{Op: tf.FusedLoad, Arg: 0}, {Op: tf.FusedLoad, Arg: 1}, {Op: tf.FusedSub},
		{Op: tf.FusedScale, Alpha: 2 - 1i}, {Op: tf.FusedLoad, Arg: 2}, {Op: tf.FusedMul},
		{Op: tf.FusedConj}, {Op: tf.FusedLoad, Arg: 0}, {Op: tf.FusedNegate}, {Op: tf.FusedAdd},
	}
	const m, n = 7, 300 // n crosses the kernel's block size
	for _, dt := range tf.DTypes {
		k, err := e.Fuse(dt, code, 3)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := tf.Rand[complex128](1, m, n)
		b, _ := tf.Rand[complex128](2, m, 1)
		c, _ := tf.Rand[complex128](3, 1, n)
		ta, _ := tf.Convert(tf.ValueOf(a), dt)
		tb, _ := tf.Convert(tf.ValueOf(b), dt)
		tc, _ := tf.Convert(tf.ValueOf(c), dt)
		dv, _ := tf.NewValue(dt, n, m)
		dst := transposeValue(dv)
		if err := e.Begin("test"); err != nil {
			t.Fatal(err)
		}
		err = k.Eval(dst.Tensor(), []any{ta.Tensor(), tb.Tensor(), tc.Tensor()})
		e.End()
		if err != nil {
			t.Fatal(err)
		}
		got, _ := tf.Convert(dst, tf.Complex128)
		gt, _ := tf.As[complex128](got)
		real32 := !dt.IsComplex()
		eps := 0x1p-52
		if dt == tf.Float32 || dt == tf.Complex64 {
			eps = 0x1p-23
		}
		ca, cb, cc := asC128(ta), asC128(tb), asC128(tc)
		for i := range m {
			for j := range n {
				ra, _ := ca.At(i, j)
				rb, _ := cb.At(i, 0)
				rc, _ := cc.At(0, j)
				alpha := complex128(2 - 1i)
				if real32 {
					alpha = 2
				}
				want := cmplx.Conj(alpha*(ra-rb)*rc) - ra
				g, _ := gt.At(i, j)
				// About six roundings on terms bounded by 8.
				if cmplx.Abs(g-want) > 8*8*eps {
					t.Fatalf("%v (%d,%d): got %v want %v", dt, i, j, g, want)
				}
			}
		}
	}
}

func asC128(v tf.Value) *tf.Tensor[complex128] {
	c, _ := tf.Convert(v, tf.Complex128)
	t, _ := tf.As[complex128](c)
	return t
}

func transposeValue(v tf.Value) tf.Value {
	switch t := v.Tensor().(type) {
	case *tf.Tensor[float32]:
		tt, _ := t.Transpose()
		return tf.ValueOf(tt)
	case *tf.Tensor[float64]:
		tt, _ := t.Transpose()
		return tf.ValueOf(tt)
	case *tf.Tensor[complex64]:
		tt, _ := t.Transpose()
		return tf.ValueOf(tt)
	default:
		tt, _ := t.(*tf.Tensor[complex128]).Transpose()
		return tf.ValueOf(tt)
	}
}

func TestFuseErrors(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	load := tf.FusedInstr{Op: tf.FusedLoad}
	cases := []struct {
		name string
		dt   tf.DType
		code []tf.FusedInstr
		nin  int
	}{
		{"dtype", tf.Invalid, []tf.FusedInstr{load}, 1},
		{"unknown op", tf.Float64, []tf.FusedInstr{load, {Op: 99}}, 1},
		{"load out of range", tf.Float64, []tf.FusedInstr{{Op: tf.FusedLoad, Arg: 1}}, 1},
		{"empty stack", tf.Float64, []tf.FusedInstr{load, {Op: tf.FusedAdd}}, 1},
		{"two left", tf.Float64, []tf.FusedInstr{load, load}, 1},
		{"too many inputs", tf.Float64, []tf.FusedInstr{load}, tf.MaxFusedInputs + 1},
		{"too deep", tf.Float64, []tf.FusedInstr{load, load, load, load, load, load, load, load, load}, 1},
	}
	for _, c := range cases {
		_, err := e.Fuse(c.dt, c.code, c.nin)
		var te *tf.Error
		if err == nil || !errors.As(err, &te) {
			t.Errorf("%s: err %v, want a *tenferro.Error", c.name, err)
		}
	}
}
