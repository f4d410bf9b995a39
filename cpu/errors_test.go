package cpu_test

import (
	"errors"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// TestOperationErrors covers the error paths of the public operations that
// the per-operation tests do not reach: each call must fail with the named
// kind, and the destination must stay untouched.
func TestOperationErrors(t *testing.T) {
	e := cpu.Serial()
	x, _ := tf.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	dst, _ := tf.Full(7.0, 2, 3)
	released, _ := tf.NewTensor[float64](e, 2, 3)
	released.Release()
	overlap, _ := x.Slice(1, 0, 3, 1)
	check := func(name string, err, kind error) {
		t.Helper()
		if !errors.Is(err, kind) {
			t.Errorf("%s: got %v, want kind %v", name, err, kind)
		}
	}
	check("UnaryInto unknown op", tf.UnaryInto(e, tf.UnaryOp(9), 1, dst, x), tf.ErrArgument)
	xt, _ := x.Transpose()
	check("UnaryInto shape", tf.UnaryInto(e, tf.OpNegate, 0, dst, xt), tf.ErrShape)
	check("CopyInto aliasing", tf.CopyInto(e, overlap, x), tf.ErrAlias)
	check("CopyInto released src", tf.CopyInto(e, dst, released), tf.ErrReleased)
	_, err := tf.NewTensor[float64](e, 2, -1)
	check("NewTensor negative extent", err, tf.ErrShape)
	_, err = tf.Contiguous(e, released)
	check("Contiguous released", err, tf.ErrReleased)
	_, err = tf.Add(nil, x, x)
	check("Add nil engine", err, tf.ErrArgument)
	_, err = tf.Sum(e, released)
	check("Sum released", err, tf.ErrReleased)
	_, err = tf.Scale(e, 2, released)
	check("Scale released", err, tf.ErrReleased)
	if d, _ := dst.Data(); d[0] != 7 || d[5] != 7 {
		t.Fatalf("failed calls wrote dst: %v", d)
	}
	if err := tf.SumInto(e, dst, x); err != nil {
		t.Errorf("SumInto with no axes copies: %v", err)
	}
	d, _ := dst.Data()
	for i, v := range d {
		if v != x.Storage()[i] {
			t.Fatalf("SumInto with no axes: dst %v, want a copy of %v", d, x.Storage())
		}
	}
	check("Value.Release empty", tf.Value{}.Release(), tf.ErrArgument)
	_, err = x.Reverse(2)
	check("Reverse axis", err, tf.ErrArgument)
	_, err = x.Diagonal(0, 0)
	check("Diagonal same axes", err, tf.ErrArgument)
	_, err = x.Broadcast(3)
	check("Broadcast lower rank", err, tf.ErrShape)
	_, err = tf.NewValue(tf.Invalid, 2)
	check("NewValue invalid dtype", err, tf.ErrDType)
}
