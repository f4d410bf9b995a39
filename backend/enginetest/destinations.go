package enginetest

import (
	"errors"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
)

// destinations checks the destination rule of package tenferro on every
// family of Into forms: the wrong shape (ErrShape), repeated elements
// (ErrAlias), a released destination (ErrReleased), partial overlap with
// an input (ErrAlias), any overlap for non-elementwise operations
// (ErrAlias) — each time with the destination untouched — and the in-place
// forms that elementwise operations allow.
func (suite[T]) destinations(t *testing.T, e tf.Engine) {
	r := rng(8)
	a := Operand[T](t, r, []int{4, 6}, Compact)
	b := Operand[T](t, r, []int{4, 6}, Transposed)
	m := Operand[T](t, r, []int{6, 3}, Compact)
	into := map[string]func(dst *tf.Tensor[T]) error{
		"CopyInto":   func(dst *tf.Tensor[T]) error { return tf.CopyInto(e, dst, a) },
		"ScaleInto":  func(dst *tf.Tensor[T]) error { return tf.ScaleInto(e, dst, castC[T](2), a) },
		"AddInto":    func(dst *tf.Tensor[T]) error { return tf.AddInto(e, dst, a, b) },
		"SumInto":    func(dst *tf.Tensor[T]) error { return tf.SumInto(e, dst, a, 1) },
		"MatmulInto": func(dst *tf.Tensor[T]) error { return tf.MatmulInto(e, dst, a, m) },
		"EinsumInto": func(dst *tf.Tensor[T]) error { return tf.EinsumInto(e, dst, "ij,jk->ik", a, m) },
	}
	shapes := map[string][]int{"CopyInto": {4, 6}, "ScaleInto": {4, 6}, "AddInto": {4, 6}, "SumInto": {4}, "MatmulInto": {4, 3}, "EinsumInto": {4, 3}}
	for name, run := range into {
		shape := shapes[name]
		bad := map[string]struct {
			dst  *tf.Tensor[T]
			kind error
		}{}
		wrong, _ := tf.Zeros[T](append(slices.Clone(shape), 2)...)
		bad["wrong shape"] = struct {
			dst  *tf.Tensor[T]
			kind error
		}{wrong, tf.ErrShape}
		if one, err := tf.Zeros[T](append([]int{1}, shape[1:]...)...); err == nil {
			if bc, err := one.Broadcast(shape...); err == nil && shape[0] > 1 {
				bad["repeated elements"] = struct {
					dst  *tf.Tensor[T]
					kind error
				}{bc, tf.ErrAlias}
			}
		}
		rel, _ := tf.Zeros[T](shape...)
		rel.Release()
		bad["released"] = struct {
			dst  *tf.Tensor[T]
			kind error
		}{rel, tf.ErrReleased}
		for what, c := range bad {
			before := snapshot(c.dst)
			err := run(c.dst)
			if !errors.Is(err, c.kind) {
				t.Errorf("%s, %s destination: %v, want %v", name, what, err, c.kind)
			}
			if c.dst.Valid() && !slices.Equal(before, snapshot(c.dst)) {
				t.Errorf("%s, %s destination: written although the call failed", name, what)
			}
		}
	}
	// Partial overlap with an input: a shifted view of a's storage.
	big := Operand[T](t, r, []int{5, 6}, Compact)
	top, _ := big.Slice(0, 0, 4, 1)
	bottom, _ := big.Slice(0, 1, 5, 1)
	before := snapshot(big)
	if err := tf.AddInto(e, bottom, top, b); !errors.Is(err, tf.ErrAlias) {
		t.Errorf("AddInto with a partly overlapping destination: %v, want ErrAlias", err)
	}
	if err := tf.CopyInto(e, bottom, top); !errors.Is(err, tf.ErrAlias) {
		t.Errorf("CopyInto with a partly overlapping destination: %v, want ErrAlias", err)
	}
	if !slices.Equal(before, snapshot(big)) {
		t.Error("a refused destination was written")
	}
	// Non-elementwise operations refuse even the identical view.
	sq := Operand[T](t, r, []int{4, 4}, Compact)
	before = snapshot(sq)
	if err := tf.MatmulInto(e, sq, sq, sq); !errors.Is(err, tf.ErrAlias) {
		t.Errorf("MatmulInto onto its input: %v, want ErrAlias", err)
	}
	if err := tf.EinsumInto(e, sq, "ij->ji", sq); !errors.Is(err, tf.ErrAlias) {
		t.Errorf("EinsumInto onto its input: %v, want ErrAlias", err)
	}
	if !slices.Equal(before, snapshot(sq)) {
		t.Error("a refused destination was written")
	}
	// Elementwise operations update in place, also through strided views.
	x := Operand[T](t, r, []int{4, 6}, Reversed)
	want := Dense(x)
	for i := range want {
		want[i] = -want[i]
	}
	mustNil(t, "NegateInto in place", tf.NegateInto(e, x, x))
	for i, v := range Dense(x) {
		if v != want[i] {
			t.Fatalf("NegateInto in place: element %d = %v, want %v", i, v, want[i])
		}
	}
}

// snapshot copies the whole storage of t.
func snapshot[T tf.Elem](t *tf.Tensor[T]) []T { return slices.Clone(t.Storage()) }
