package program_test

import (
	"fmt"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// Convert in a program gives tenferro.Convert's elements for every pair
// of dtypes, from a strided (transposed) input.
func TestConvert(t *testing.T) {
	e := newEngine(t)
	src := []complex128{1.5, -2.7, 0, 3 + 4i, -0.5i, 1 << 60, 7, -1}
	dts := []tf.DType{tf.Float32, tf.Float64, tf.Complex64, tf.Complex128, tf.Int64, tf.Bool}
	for _, from := range dts {
		base, err := tf.FromSlice(src, 2, 4)
		if err != nil {
			t.Fatal(err)
		}
		in, err := tf.Convert(tf.ValueOf(base), from)
		if err != nil {
			t.Fatal(err)
		}
		for _, to := range dts {
			t.Run(fmt.Sprintf("%v-%v", from, to), func(t *testing.T) {
				tr := trace.New()
				v, _ := tr.Input(from, 2, 4)
				p, err := tr.Permute(v, 1, 0)
				if err != nil {
					t.Fatal(err)
				}
				c, err := tr.Convert(p, to)
				if err != nil {
					t.Fatal(err)
				}
				g, _ := tr.Finish(c)
				prog, err := program.Compile(g)
				if err != nil {
					t.Fatal(err)
				}
				pp, err := program.Prepare(prog, e)
				if err != nil {
					t.Fatal(err)
				}
				out, err := pp.Run(in)
				if err != nil {
					t.Fatal(err)
				}
				tv, err := transposed(in)
				if err != nil {
					t.Fatal(err)
				}
				want, err := tf.Convert(tv, to)
				if err != nil {
					t.Fatal(err)
				}
				got, _ := out[0].Data()
				wd, _ := want.Data()
				if fmt.Sprint(got) != fmt.Sprint(wd) {
					t.Errorf("got %v, want %v", got, wd)
				}
			})
		}
	}
	tr := trace.New()
	v, _ := tr.Input(tf.Float64, 2)
	if _, err := tr.Convert(v, tf.DType(99)); err == nil {
		t.Error("Convert to an invalid dtype: no error")
	}
}

// transposed is a compact copy of the transpose of the matrix v.
func transposed(v tf.Value) (tf.Value, error) {
	switch x := v.Tensor().(type) {
	case *tf.Tensor[float32]:
		return clonedT(x)
	case *tf.Tensor[float64]:
		return clonedT(x)
	case *tf.Tensor[complex64]:
		return clonedT(x)
	case *tf.Tensor[complex128]:
		return clonedT(x)
	case *tf.Tensor[int64]:
		return clonedT(x)
	case *tf.Tensor[bool]:
		return clonedT(x)
	}
	return tf.Value{}, fmt.Errorf("dtype %v", v.DType())
}

func clonedT[T tf.Elem](x *tf.Tensor[T]) (tf.Value, error) {
	p, err := x.Permute(1, 0)
	if err != nil {
		return tf.Value{}, err
	}
	c, err := p.Clone()
	if err != nil {
		return tf.Value{}, err
	}
	return tf.ValueOf(c), nil
}
