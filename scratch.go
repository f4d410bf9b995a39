package tenferro

import (
	"sync"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/viewcopy"
)

// scratch is the room the structural and indexing operations build their
// backend arguments in (sub-views, operand lists, shifts, pads, index
// lists): pooled per dtype, so that their Into forms allocate nothing on a
// warm engine. Slices handed to a backend escape, so they must not live on
// the stack.
type scratch[T Elem] struct {
	room   viewcopy.Room[T]
	views  []*backend.View[T]
	shapes [][]int
	v      [2]backend.View[T]
	st     [2][MaxRank]int
	ints   [2 * MaxRank]int
	idx    []int64
	iv     backend.View[int64]
	idims  [2]int
}

var scratchPools [op.NumDTypes]sync.Pool

func getScratch[T Elem]() *scratch[T] {
	s, _ := scratchPools[DTypeOf[T]()].Get().(*scratch[T])
	if s == nil {
		s = new(scratch[T])
	}
	return s
}

// put drops every reference to tensors' data and returns s to its pool.
func (s *scratch[T]) put() {
	s.room.Clear()
	clear(s.views)
	clear(s.shapes)
	s.views, s.shapes = s.views[:0], s.shapes[:0]
	s.v = [2]backend.View[T]{}
	s.iv = backend.View[int64]{}
	scratchPools[DTypeOf[T]()].Put(s)
}

// operands validates the tensors of a variadic operation and lists their
// shapes and views in s.
func (s *scratch[T]) operands(name string, tensors []*Tensor[T]) error {
	for k, t := range tensors {
		if !t.Valid() { // the argument's name only for the error
			return t.check(name, op.OperandName(k))
		}
		s.shapes = append(s.shapes, t.v.Shape)
		s.views = append(s.views, t.desc())
	}
	return nil
}

// indexView sets s.iv to the 1-D int64 view of s.idx.
func (s *scratch[T]) indexView() *backend.View[int64] {
	s.idims = [2]int{len(s.idx), 1}
	s.iv = backend.View[int64]{Data: s.idx, Shape: s.idims[:1:1], Strides: s.idims[1:2:2]}
	return &s.iv
}

// compactStrides writes the column-major strides of shape to st.
func compactStrides(shape []int, st []int) []int {
	st = st[:len(shape)]
	s := 1
	for d, n := range shape {
		st[d] = s
		s *= n
	}
	return st
}
