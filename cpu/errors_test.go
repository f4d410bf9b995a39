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
	// Two 2x2 windows of x that share a column: a partial overlap.
	left, _ := x.Slice(1, 0, 2, 1)
	overlap, _ := x.Slice(1, 1, 3, 1)
	check := func(name string, err, kind error) {
		t.Helper()
		if !errors.Is(err, kind) {
			t.Errorf("%s: got %v, want kind %v", name, err, kind)
		}
	}
	// checkOp also requires the error to name the operation that failed.
	checkOp := func(name string, err, kind error, op string) {
		t.Helper()
		check(name, err, kind)
		var te *tf.Error
		if !errors.As(err, &te) || te.Op != op {
			t.Errorf("%s: %v does not name %s", name, err, op)
		}
	}
	xt, _ := x.Transpose()
	checkOp("NegateInto shape", tf.NegateInto(e, dst, xt), tf.ErrShape, "NegateInto")
	checkOp("ScaleInto shape", tf.ScaleInto(e, dst, 2, xt), tf.ErrShape, "ScaleInto")
	checkOp("ConjInto shape", tf.ConjInto(e, dst, xt), tf.ErrShape, "ConjInto")
	checkOp("CopyInto shape", tf.CopyInto(e, dst, xt), tf.ErrShape, "CopyInto")
	checkOp("NegateInto released", tf.NegateInto(e, dst, released), tf.ErrReleased, "NegateInto")
	checkOp("ScaleInto aliasing", tf.ScaleInto(e, overlap, 2, left), tf.ErrAlias, "ScaleInto")
	row, _ := tf.FromSlice([]float64{1, 2, 3}, 1, 3)
	bdst, _ := row.Broadcast(2, 3)
	checkOp("NegateInto broadcast dst", tf.NegateInto(e, bdst, x), tf.ErrAlias, "NegateInto")
	checkOp("CopyInto broadcast dst", tf.CopyInto(e, bdst, x), tf.ErrAlias, "CopyInto")
	if d, _ := row.Data(); d[0] != 1 || d[1] != 2 || d[2] != 3 {
		t.Fatalf("failed calls wrote a broadcast dst: %v", d)
	}
	checkOp("CopyInto aliasing", tf.CopyInto(e, overlap, left), tf.ErrAlias, "CopyInto")
	// The very same view (a new header over the same elements) is allowed
	// and changes nothing.
	whole, _ := x.Slice(1, 0, 3, 1)
	if err := tf.CopyInto(e, whole, x); err != nil {
		t.Errorf("CopyInto onto the same view: %v", err)
	}
	for i, v := range x.Storage() {
		if v != float64(i+1) {
			t.Fatalf("failed or no-op calls wrote x: %v", x.Storage())
		}
	}
	check("CopyInto released src", tf.CopyInto(e, dst, released), tf.ErrReleased)
	_, err := tf.NewTensor[float64](e, 2, -1)
	check("NewTensor negative extent", err, tf.ErrShape)
	_, err = tf.Copy(e, released)
	checkOp("Copy released", err, tf.ErrReleased, "Copy")
	_, err = tf.Add(nil, x, x)
	check("Add nil engine", err, tf.ErrArgument)
	_, err = tf.Sum(e, released)
	check("Sum released", err, tf.ErrReleased)
	_, err = tf.Scale(e, 2, released)
	checkOp("Scale released", err, tf.ErrReleased, "Scale")
	// SumInto with no axes sums over every axis, like Sum: a rank-0
	// destination, and a 2x3 one is a shape error.
	checkOp("SumInto no axes, 2x3 dst", tf.SumInto(e, dst, x), tf.ErrShape, "SumInto")
	checkOp("SumInto repeated axes", tf.SumInto(e, dst, x, 0, -2), tf.ErrArgument, "SumInto")
	if d, _ := dst.Data(); d[0] != 7 || d[5] != 7 {
		t.Fatalf("failed calls wrote dst: %v", d)
	}
	for i, v := range dst.Storage() {
		if v != 7 {
			t.Fatalf("failed calls wrote dst[%d] = %v", i, v)
		}
	}
	total, _ := tf.Zeros[float64]()
	if err := tf.SumInto(e, total, x); err != nil {
		t.Errorf("SumInto with no axes: %v", err)
	}
	if v, _ := total.At(); v != 21 {
		t.Fatalf("SumInto with no axes = %v, want 21", v)
	}
	// SumInto with every axis listed explicitly (any order) is the same.
	if err := tf.SumInto(e, total, x, 1, -2); err != nil {
		t.Errorf("SumInto axes 1, -2: %v", err)
	}
	if v, _ := total.At(); v != 21 {
		t.Fatalf("SumInto axes 1, -2 = %v, want 21", v)
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
