package cpu

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/kernel/elementwise"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/permute"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
)

// A pairwise step computes
//
//	C[LF, RF, B] = Σ_{Con} A[LF, Con, B] · B[Con, RF, B]
//
// on strided views addressed through label-indexed strides: sa[l] is the
// stride of label l in the left operand (after its diagonal, broadcast and
// pre-reduction), likewise sb for the right operand and the target's
// strides for C. The kernel is chosen by the label groups:
//
//   - nothing contracted (outer, Hadamard, batched outer products): one
//     element-wise multiplication over C's labels, each input broadcast by
//     stride 0 along the labels it lacks;
//   - M = 1 or N = 1 (dot and matrix-vector products, per batch item): the
//     strided sum-of-products kernel, which needs no packing;
//   - otherwise GEMM, laid out by einsum.GemmLayout: each side is read as an
//     M×K (K×N) matrix per batch item through its strides when its groups
//     fuse into single strides and the matrix has a unit-stride direction,
//     and is copied into a pooled compact buffer in group order when not.
//     C is written in place, or in blocks (the free labels that do not
//     fuse are looped over, one GEMM per block), or else computed
//     compactly and copied. Batch labels fuse into one stride of a batched
//     GEMM where all three tensors allow it; the remaining ones and the
//     block labels are looped over.
//
// Every intermediate buffer comes from the engine's pool and goes back as
// soon as the step is done; operands are only read.

// target is where a step writes its result: storage, offset and
// label-indexed strides, and how the result combines with what is there
// (target = alpha·result + beta·target; intermediates use alpha 1, beta 0).
type target[T strided.Scalar] struct {
	data        []T
	off         int
	strides     []int
	alpha, beta T
}

// overwrites reports whether the target takes the result as it is.
func (t *target[T]) overwrites() bool { return t.alpha == 1 && t.beta == 0 }

// side is one operand of a step after its pre-reduction: storage and
// offset (strides are label-indexed in the state) and the pooled buffer the
// step owns, if any.
type side[T strided.Scalar] struct {
	data []T
	off  int
	tmp  *backend.Storage[T]
}

// loadSide fills ls with the label strides of tensor id and sums the labels
// in reduce into a pooled compact buffer over kept when there are any.
func loadSide[T strided.Scalar](e *Engine, s *einsumState[T], p *einsum.Problem, id int, labels, reduce, kept, ls []int) (side[T], error) {
	v := &s.views[id]
	for i, l := range labels {
		ls[l] = v.strides[i]
	}
	if len(reduce) == 0 {
		return side[T]{data: v.data, off: v.off}, nil
	}
	tmp := poolAlloc[T](e.pool, numel(p.Extents, kept))
	n := len(labels)
	shape, ds, xs := s.shape[:n], s.s0[:n], s.s1[:n]
	for i, l := range labels {
		shape[i], ds[i], xs[i] = p.Extents[l], 0, ls[l]
	}
	st := 1
	for _, l := range kept {
		for i, m := range labels {
			if m == l {
				ds[i] = st
			}
		}
		ls[l] = st
		st *= p.Extents[l]
	}
	if !sumReduce(e, shape, strided.Ref[T]{Data: tmp.Buf(), Strides: ds}, strided.Ref[T]{Data: v.data, Off: v.off, Strides: xs}, strided.Ref[T]{}, false) {
		e.pool.Recycle(tmp)
		return side[T]{}, rankError()
	}
	return side[T]{data: tmp.Buf(), tmp: tmp}, nil
}

// execStep evaluates one pairwise step into c.
func execStep[T strided.Scalar](k *numeric[T], s *einsumState[T], p *einsum.Problem, st *einsum.Step, c target[T]) error {
	e := k.e
	a, err := loadSide(e, s, p, st.LeftID, st.LeftLabels, st.LeftReduce, st.LeftKept, s.sa)
	if err != nil {
		return err
	}
	b, err := loadSide(e, s, p, st.RightID, st.RightLabels, st.RightReduce, st.RightKept, s.sb)
	if err != nil {
		if a.tmp != nil {
			e.pool.Recycle(a.tmp)
		}
		return err
	}
	switch {
	case len(st.Contracted) == 0 && labelRank(p, st.Out) <= strided.MaxRank:
		// Elementwise and sum-of-products kernels overwrite: an
		// accumulating target gets the result through a staging buffer.
		tgt, tmp := s.stage(e, p, st.Out, c)
		mulStep(e, s, p, st, a, b, tgt)
		k.unstage(s, p, st.Out, c, tmp)
	case (st.M == 1 || st.N == 1) && labelRank(p, st.LeftFree, st.RightFree, st.Contracted, st.Batch) <= strided.MaxRank:
		tgt, tmp := s.stage(e, p, st.Out, c)
		productStep(e, s, p, st, a, b, tgt)
		k.unstage(s, p, st.Out, c, tmp)
	default:
		gemmStep(k, s, p, st, a, b, c)
	}
	if a.tmp != nil {
		e.pool.Recycle(a.tmp)
	}
	if b.tmp != nil {
		e.pool.Recycle(b.tmp)
	}
	return nil
}

// mulStep computes C = A ⊙ B over C's labels (no contracted label),
// broadcasting each side along the labels it lacks. The caller checked
// the rank against the kernel's limit.
func mulStep[T strided.Scalar](e *Engine, s *einsumState[T], p *einsum.Problem, st *einsum.Step, a, b side[T], c target[T]) {
	n := len(st.Out)
	shape, cs, as, bs := s.shape[:n], s.s0[:n], s.s1[:n], s.s2[:n]
	nl, nr := len(st.LeftFree), len(st.RightFree)
	for i, l := range st.Out {
		shape[i], cs[i], as[i], bs[i] = p.Extents[l], c.strides[l], s.sa[l], s.sb[l]
		if i < nl {
			bs[i] = 0
		} else if i < nl+nr {
			as[i] = 0
		}
	}
	elementwise.Binary(e.runner, op.Mul, shape,
		strided.Ref[T]{Data: c.data, Off: c.off, Strides: cs},
		strided.Ref[T]{Data: a.data, Off: a.off, Strides: as},
		strided.Ref[T]{Data: b.data, Off: b.off, Strides: bs})
}

// productStep computes C[LF, RF, B] = Σ_{Con} A[LF, Con, B]·B[Con, RF, B]
// with the strided sum-of-products kernel, each side broadcast (stride 0)
// along the free labels of the other. It serves dot products (M = N = 1)
// and matrix-vector products (M = 1 or N = 1), where GEMM's packing would
// cost as much as the product. The caller checked the rank against the
// kernel's limit (labelRank).
func productStep[T strided.Scalar](e *Engine, s *einsumState[T], p *einsum.Problem, st *einsum.Step, a, b side[T], c target[T]) {
	groups := [4][]int{st.LeftFree, st.RightFree, st.Contracted, st.Batch}
	n := 0
	shape, cs, as, bs := s.shape, s.s0, s.s1, s.s2
	for g, labels := range groups {
		for _, l := range labels {
			shape[n], cs[n], as[n], bs[n] = p.Extents[l], c.strides[l], s.sa[l], s.sb[l]
			switch g {
			case 0:
				bs[n] = 0
			case 1:
				as[n] = 0
			case 2:
				cs[n] = 0
			}
			n++
		}
	}
	sumReduce(e, shape[:n],
		strided.Ref[T]{Data: c.data, Off: c.off, Strides: cs[:n]},
		strided.Ref[T]{Data: a.data, Off: a.off, Strides: as[:n]},
		strided.Ref[T]{Data: b.data, Off: b.off, Strides: bs[:n]}, true)
}

// labelRank is the number of labels of extent > 1 in the groups: the rank
// a strided kernel walks over them.
func labelRank(p *einsum.Problem, groups ...[]int) int {
	n := 0
	for _, labels := range groups {
		for _, l := range labels {
			if p.Extents[l] != 1 {
				n++
			}
		}
	}
	return n
}

// pack copies the labels of groups g0, g1, g2 (in that order) of a view
// with label strides ls into a pooled compact buffer and rewrites ls to the
// buffer's strides.
func pack[T strided.Scalar](e *Engine, s *einsumState[T], p *einsum.Problem, data []T, off int, ls []int, g0, g1, g2 []int) *backend.Storage[T] {
	n0, n1 := len(g0), len(g0)+len(g1)
	n := n1 + len(g2)
	shape, ds, xs := s.shape[:n], s.s0[:n], s.s1[:n]
	st := 1
	for i := range n {
		var l int
		switch {
		case i < n0:
			l = g0[i]
		case i < n1:
			l = g1[i-n0]
		default:
			l = g2[i-n1]
		}
		shape[i], ds[i], xs[i] = p.Extents[l], st, ls[l]
		st *= p.Extents[l]
	}
	tmp := poolAlloc[T](e.pool, st)
	permute.Copy(e.runner, shape, strided.Ref[T]{Data: tmp.Buf(), Strides: ds}, strided.Ref[T]{Data: data, Off: off, Strides: xs})
	for i := range n {
		switch {
		case i < n0:
			ls[g0[i]] = ds[i]
		case i < n1:
			ls[g1[i-n0]] = ds[i]
		default:
			ls[g2[i-n1]] = ds[i]
		}
	}
	return tmp
}

// gemmStep lowers the step to (batched) GEMM; see the notes at the top of
// the file. GEMM accumulates into the target itself when it writes there in
// place.
func gemmStep[T strided.Scalar](k *numeric[T], s *einsumState[T], p *einsum.Problem, st *einsum.Step, a, b side[T], c target[T]) {
	e := k.e
	ext := p.Extents
	g := &s.gemm
	g.Decide(ext, st, s.sa, s.sb, c.strides)
	rows, cols := g.Left[:g.InnerLeft], g.Right[:g.InnerRight]
	var ta, tb, tc *backend.Storage[T]
	if g.PackLeft {
		ta = pack(e, s, p, a.data, a.off, s.sa, g.Left, st.Contracted, st.Batch)
		a.data, a.off = ta.Buf(), 0
	}
	m, ars, _ := einsum.FuseGroup(ext, rows, s.sa)
	kk, acs, _ := einsum.FuseGroup(ext, st.Contracted, s.sa)
	if g.PackRight {
		tb = pack(e, s, p, b.data, b.off, s.sb, st.Contracted, g.Right, st.Batch)
		b.data, b.off = tb.Buf(), 0
	}
	_, brs, _ := einsum.FuseGroup(ext, st.Contracted, s.sb)
	n, bcs, _ := einsum.FuseGroup(ext, cols, s.sb)
	cd, coff, cls := c.data, c.off, c.strides
	crs, ccs := g.RowStride, g.ColStride
	if g.CompactResult {
		// Compute into a compact buffer in Out order, then copy.
		tc = poolAlloc[T](e.pool, numel(ext, st.Out))
		cd, coff = tc.Buf(), 0
		stc := 1
		for _, l := range st.Out {
			s.s2[l] = stc
			stc *= ext[l]
		}
		cls = s.s2
		_, crs, _ = einsum.FuseGroup(ext, rows, cls)
		_, ccs, _ = einsum.FuseGroup(ext, cols, cls)
	}
	// Looped labels: the result's blocks (each read by one side only) and
	// the batch labels; drop extent 1 and fuse runs contiguous in all
	// three tensors.
	nb := 0
	loop := func(l, xa, xb, xc int) {
		x := ext[l]
		if x == 1 {
			return
		}
		if nb > 0 && s.bsa[nb-1]*s.bext[nb-1] == xa && s.bsb[nb-1]*s.bext[nb-1] == xb && s.bsc[nb-1]*s.bext[nb-1] == xc {
			s.bext[nb-1] *= x
			return
		}
		s.bext[nb], s.bsa[nb], s.bsb[nb], s.bsc[nb] = x, xa, xb, xc
		nb++
	}
	for _, l := range g.Left[g.InnerLeft:] {
		loop(l, s.sa[l], 0, cls[l])
	}
	for _, l := range g.Right[g.InnerRight:] {
		loop(l, 0, s.sb[l], cls[l])
	}
	for _, l := range st.Batch {
		loop(l, s.sa[l], s.sb[l], cls[l])
	}
	am := gemm.Mat[T]{Data: a.data, Off: a.off, RS: ars, CS: acs}
	bm := gemm.Mat[T]{Data: b.data, Off: b.off, RS: brs, CS: bcs}
	cm := gemm.Mat[T]{Data: cd, Off: coff, RS: crs, CS: ccs}
	alpha, beta := c.alpha, c.beta
	if tc != nil {
		alpha, beta = 1, 0
	}
	gemmLoop(e, m, n, kk, alpha, am, bm, beta, cm, s.bext[:nb], s.bsa[:nb], s.bsb[:nb], s.bsc[:nb], s.bidx[:nb])
	if tc != nil {
		// Move the compact result into the target (label strides in
		// c.strides, compact ones in s.s2).
		nout := len(st.Out)
		shape, ds, xs := s.shape[:nout], s.s0[:nout], s.s1[:nout]
		for i, l := range st.Out {
			shape[i], ds[i], xs[i] = ext[l], c.strides[l], s.s2[l]
		}
		k.accumulate(shape, strided.Ref[T]{Data: c.data, Off: c.off, Strides: ds}, strided.Ref[T]{Data: cd, Strides: xs}, c.alpha, c.beta)
		e.pool.Recycle(tc)
	}
	if ta != nil {
		e.pool.Recycle(ta)
	}
	if tb != nil {
		e.pool.Recycle(tb)
	}
}
