// Package linalg is a stub of the library's package of the same path, with
// the signatures the analyzer matches.
package linalg

import tf "github.com/tenferro-go/tenferro"

func Solve[T tf.Elem](e tf.Engine, a, b *tf.Tensor[T]) (*tf.Tensor[T], error) { return nil, nil }
func SolveInto[T tf.Elem](e tf.Engine, dst, a, b *tf.Tensor[T]) error         { return nil }

// QR returns two tensors; QRInto is its Into form.
func QR[T tf.Elem](e tf.Engine, a *tf.Tensor[T]) (*tf.Tensor[T], *tf.Tensor[T], error) {
	return nil, nil, nil
}
func QRInto[T tf.Elem](e tf.Engine, q, r, a *tf.Tensor[T]) error { return nil }
