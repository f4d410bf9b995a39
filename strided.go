package tenferro

import (
	"fmt"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// FromStrided returns the view of data whose element (i0, i1, ...) is
//
//	data[offset + Σ_d i_d*strides[d]]
//
// sharing data as its storage (no copy). It is how memory laid out by other
// libraries becomes a tensor: a row-major r×c matrix with row stride s is
// FromStrided(data, 0, []int{r, c}, []int{s, 1}).
//
// Strides may be zero or negative, as on views made by Broadcast and
// Reverse, and may make distinct indices share an element; writing through
// such a view writes the shared element, and operations refuse it as a
// destination (ErrAlias). Every element of a non-empty view must lie in
// data (ErrArgument otherwise); an empty view (some extent 0) reaches
// nothing, and its offset only needs to lie in [0, len(data)].
func FromStrided[T Elem](data []T, offset int, shape, strides []int) (*Tensor[T], error) {
	const name = "FromStrided"
	if _, err := checkShape(name, shape); err != nil {
		return nil, err
	}
	if len(strides) != len(shape) {
		return nil, newError(name, "strides", fmt.Sprintf("%d strides (one per axis of shape %v)", len(shape), shape), fmt.Sprintf("%d", len(strides)), ErrShape)
	}
	if err := checkReach(name, len(data), offset, shape, strides); err != nil {
		return nil, err
	}
	t := newHeader(backend.NewStorage(data, nil), len(shape))
	copy(t.v.Shape, shape)
	copy(t.v.Strides, strides)
	t.v.Off = offset
	return t, nil
}

// checkReach reports an ErrArgument unless every element of the view
// (shape, strides, offset) lies in a buffer of n elements. It bounds each
// axis's reach by n before adding, so that no sum overflows.
func checkReach(name string, n, offset int, shape, strides []int) error {
	if offset < 0 || offset > n {
		return newError(name, "offset", fmt.Sprintf("an offset in [0, %d]", n), fmt.Sprintf("%d", offset), ErrArgument)
	}
	empty := false
	for _, e := range shape {
		empty = empty || e == 0
	}
	if empty {
		return nil
	}
	lo, hi := offset, offset
	for d, e := range shape {
		s := strides[d]
		if e == 1 || s == 0 {
			continue
		}
		a := s
		if a < 0 {
			a = -a
		}
		if a > n || e-1 > n/a {
			return reachError(name, n, offset, shape, strides)
		}
		if s < 0 {
			lo -= a * (e - 1)
		} else {
			hi += a * (e - 1)
		}
	}
	if lo < 0 || hi >= n {
		return reachError(name, n, offset, shape, strides)
	}
	return nil
}

func reachError(name string, n, offset int, shape, strides []int) error {
	return newError(name, "strides", fmt.Sprintf("a view inside the %d elements of data", n),
		fmt.Sprintf("offset %d, strides %s for shape %s", offset, op.FmtInts(strides), op.FmtInts(shape)), ErrArgument)
}
