package program

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
)

// The step of Convert: an element loop over the strided source and
// destination, each element converted through complex128 as
// tenferro.Convert does (complex to real keeps the real part, floating to
// int64 truncates, anything to bool tests for non-zero).

// convertStep makes the step converting c's source of element type T to
// its destination's dtype.
func convertStep[T backend.Elem](b *preparer, c *command) (step, error) {
	switch b.p.vals[c.dst].dt {
	case tf.Float32:
		return newConvert[T, float32](b, c), nil
	case tf.Float64:
		return newConvert[T, float64](b, c), nil
	case tf.Complex64:
		return newConvert[T, complex64](b, c), nil
	case tf.Complex128:
		return newConvert[T, complex128](b, c), nil
	case tf.Int64:
		return newConvert[T, int64](b, c), nil
	}
	return newConvert[T, bool](b, c), nil
}

type convert[T, U backend.Elem] struct {
	dst *backend.View[U]
	a   *backend.View[T]
	idx []int
}

func newConvert[T, U backend.Elem](b *preparer, c *command) step {
	return &convert[T, U]{dst: regs[U](b).at(c.dst), a: regs[T](b).at(c.args[0]), idx: make([]int, len(b.p.vals[c.dst].shape))}
}

func (s *convert[T, U]) run() error {
	d, a := s.dst, s.a
	n := 1
	for _, e := range d.Shape {
		n *= e
	}
	clear(s.idx)
	for range n {
		od, oa := d.Off, a.Off
		for k, i := range s.idx {
			od += i * d.Strides[k]
			oa += i * a.Strides[k]
		}
		if v, ok := any(a.Data[oa]).(int64); ok {
			d.Data[od] = fromInt[U](v) // exact beyond 2^53 to int64
		} else {
			d.Data[od] = fromC[U](toComplex(a.Data[oa]))
		}
		for k := range s.idx {
			if s.idx[k]++; s.idx[k] < d.Shape[k] {
				break
			}
			s.idx[k] = 0
		}
	}
	return nil
}

// toComplex reads one element as a complex128 (bool as 0 or 1).
func toComplex[T backend.Elem](x T) complex128 {
	switch v := any(x).(type) {
	case int64:
		return complex(float64(v), 0)
	case bool:
		if v {
			return 1
		}
		return 0
	case float32:
		return backend.ToComplex(v)
	case float64:
		return backend.ToComplex(v)
	case complex64:
		return backend.ToComplex(v)
	}
	return any(x).(complex128)
}

// fromC converts a complex128 to element type U (NumPy's astype).
func fromC[U backend.Elem](c complex128) U {
	var z U
	switch p := any(&z).(type) {
	case *int64:
		*p = int64(real(c))
	case *bool:
		*p = c != 0
	case *float32:
		*p = backend.FromComplex[float32](c)
	case *float64:
		*p = backend.FromComplex[float64](c)
	case *complex64:
		*p = backend.FromComplex[complex64](c)
	case *complex128:
		*p = c
	}
	return z
}

// fromInt converts an int64 to element type U.
func fromInt[U backend.Elem](v int64) U {
	var z U
	if p, ok := any(&z).(*int64); ok {
		*p = v
		return z
	}
	return fromC[U](complex(float64(v), 0))
}
