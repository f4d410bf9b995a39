package program

import (
	"github.com/tenferro-go/tenferro/backend"
)

// tiledStepOf runs the steps of a tiled command block by block: before each
// block it points the registers of the tiled values that live outside the
// command at the block's rows (an offset along their tile axis and a
// shorter extent) and shortens the last block of the internal ones, whose
// registers view block buffers of their own.
type tiledStepOf[T backend.Number] struct {
	extent, rows int
	steps        []step
	outer        []tiledReg[T] // tiled values that live outside
	inner        []tiledReg[T] // internal values: block buffers
}

// tiledReg is one tiled register: its tile axis, the shape it gets per
// block (owned by the step) and, for an outer value, the view the run
// bound (saved at the start of each run).
type tiledReg[T backend.Number] struct {
	v     *backend.View[T]
	axis  int
	shape []int
	base  backend.View[T]
}

// tiledStep makes the step of tiled command c: the block buffers of its
// internal values and the steps of its commands.
func tiledStep[T backend.Number](b *preparer, c *command) (step, error) {
	g := c.tile
	r := regs[T](b)
	s := &tiledStepOf[T]{extent: g.extent, rows: g.rows}
	buffers := map[int][]T{}
	for _, id := range g.inner {
		v := &b.p.vals[id]
		if v.kind != valSlot {
			continue
		}
		buffers[id] = make([]T, g.blockElems(v))
	}
	for _, id := range g.inner {
		v := &b.p.vals[id]
		shape := append([]int(nil), v.shape...)
		shape[g.axis[id]] = g.rows
		root := id
		if v.kind == valView {
			root = v.root
		}
		rs := append([]int(nil), b.p.vals[root].shape...)
		rs[g.axis[root]] = g.rows
		strides := compactStrides(rs)
		if v.kind == valView {
			strides = blockViewStrides(b.p, id, strides)
		}
		*r.at(id) = backend.View[T]{Data: buffers[root], Shape: shape, Strides: strides}
		s.inner = append(s.inner, tiledReg[T]{v: r.at(id), axis: g.axis[id], shape: shape})
	}
	isInner := map[int]bool{}
	for _, id := range g.inner {
		isInner[id] = true
	}
	seen := map[int]bool{}
	for _, sub := range c.sub {
		for _, id := range append(append([]int(nil), sub.args...), sub.writes()...) {
			a := g.axis[id]
			if seen[id] || isInner[id] || a < 0 {
				continue
			}
			seen[id] = true
			shape := append([]int(nil), b.p.vals[id].shape...)
			s.outer = append(s.outer, tiledReg[T]{v: r.at(id), axis: a, shape: shape})
		}
	}
	for i := range c.sub {
		st, err := b.dtype(b.p.vals[c.sub[i].dst].dt).step(b, &c.sub[i])
		if err != nil {
			return nil, err
		}
		s.steps = append(s.steps, st)
	}
	return s, nil
}

// blockViewStrides returns the strides of view id over its root's block
// buffer, whose compact strides are rootStrides: each axis of extent above
// 1 takes the stride of the root axis it shows (the views that tile map
// the root's axes one to one).
func blockViewStrides(p *Program, id int, rootStrides []int) []int {
	v := &p.vals[id]
	root := &p.vals[v.root]
	full := compactStrides(root.shape)
	out := append([]int(nil), v.strides...)
	for d, x := range v.shape {
		if x == 1 {
			continue
		}
		for e, y := range root.shape {
			if y == x && full[e] == v.strides[d] {
				out[d] = rootStrides[e]
			}
		}
	}
	return out
}

func (s *tiledStepOf[T]) run() error {
	for i := range s.outer {
		s.outer[i].base = *s.outer[i].v
	}
	err := s.blocks()
	for i := range s.outer {
		o := &s.outer[i]
		*o.v, o.base = o.base, backend.View[T]{}
	}
	for i := range s.inner {
		s.inner[i].shape[s.inner[i].axis] = s.rows
	}
	return err
}

// blocks runs the steps on every block of rows.
func (s *tiledStepOf[T]) blocks() error {
	for r0 := 0; r0 < s.extent; r0 += s.rows {
		n := min(s.rows, s.extent-r0)
		for i := range s.outer {
			o := &s.outer[i]
			o.shape[o.axis] = n
			*o.v = backend.View[T]{Data: o.base.Data, Off: o.base.Off + r0*o.base.Strides[o.axis], Shape: o.shape, Strides: o.base.Strides}
		}
		if n < s.rows {
			for i := range s.inner {
				s.inner[i].shape[s.inner[i].axis] = n
			}
		}
		for _, st := range s.steps {
			if err := st.run(); err != nil {
				return err
			}
		}
	}
	return nil
}
