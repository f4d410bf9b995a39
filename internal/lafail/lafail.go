// Package lafail turns the numerical failures engines report from their
// linear-algebra kernels (*backend.LinalgFailure) into the typed errors of
// the operations that called them, for package linalg and for compiled
// programs alike.
package lafail

import (
	"errors"
	"strconv"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
)

// Error turns an engine's error into the error of operation name: a
// numerical failure of one batch item of argument arg (of the given batch
// shape) names the item by its batch index. A nil err gives nil.
func Error(name, arg string, batch []int, err error) error {
	if err == nil {
		return nil
	}
	var f *backend.LinalgFailure
	if !errors.As(err, &f) {
		return tf.WrapError(name, arg, err)
	}
	item := "the matrix"
	if len(batch) > 0 {
		item = "batch item " + BatchIndex(batch, f.Item)
	}
	switch f.Reason {
	case backend.Singular:
		return tf.Errorf(tf.ErrSingular, name, arg, "a nonsingular matrix", "%s: exactly zero pivot U[%d, %d]", item, f.Index, f.Index)
	case backend.NotPositiveDefinite:
		return tf.Errorf(tf.ErrNotPositiveDefinite, name, arg, "a Hermitian positive definite matrix", "%s: leading minor of order %d is not positive definite", item, f.Index)
	case backend.NoConvergence:
		return tf.Errorf(tf.ErrNoConvergence, name, arg, "convergence within the iteration bound", "%s: %d values not converged", item, f.Index)
	}
	return tf.Errorf(tf.ErrArgument, name, arg, "finite entries", "%s: NaN or Inf at (%d, %d)", item, f.Index, f.Col)
}

// BatchIndex renders item q of a batch shape as its index, (i1, i2, ...),
// the first batch axis fastest.
func BatchIndex(batch []int, q int) string {
	s := "("
	for d, x := range batch {
		if d > 0 {
			s += ", "
		}
		i := 0
		if x > 0 {
			i, q = q%x, q/x
		}
		s += strconv.Itoa(i)
	}
	return s + ")"
}
