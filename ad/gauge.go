package ad

import (
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

// The gauge check. The vectors of a complex SVD are defined up to a phase
// per singular pair (U_k → U_k·e^{iφ}, V_k → V_k·e^{iφ}) and those of Eigh
// up to a phase per eigenvector; a loss that depends on these phases has
// no derivative. Reverse mode sees it in the cotangents Ū and V̄h of the
// vectors: the derivative of the loss along the phase φ_k,
//
//	SVD:  ∂L/∂φ_k = Im Σ_j conj(V̄h_kj)·Vh_kj - Im Σ_j conj(Ū_jk)·U_jk
//	Eigh: ∂L/∂φ_k = -Im Σ_j conj(V̄_jk)·V_jk
//
// vanishes for a gauge-invariant loss. The gradient program computes it
// and fails with tenferro.ErrGauge where it exceeds the tolerance.

// gaugeWatch follows the vectors of one complex decomposition.
type gaugeWatch struct {
	eigh    bool
	arg     int       // the graph node decomposed
	u, vh   trace.Var // primal vectors (u: V for Eigh)
	lu, lvh int       // tape ids of their tangents (-1: not differentiated)
	cu, cvh trace.Var // their cotangents, once the transpose reached them
	hu, hvh bool
}

// watchGauge records node id when it is the vectors of a complex SVD or
// Eigh.
func (b *builder) watchGauge(id int, nd *trace.Node, y trace.Var) {
	if b.gtol < 0 || !y.DType().IsComplex() || b.eval {
		return
	}
	switch nd.Op {
	case op.SVDU, op.SVDVh, op.EighVectors:
	default:
		return
	}
	arg := nd.Args[0]
	var w *gaugeWatch
	for _, x := range b.gauges {
		if x.eigh == (nd.Op == op.EighVectors) && x.arg == arg {
			w = x
		}
	}
	if w == nil {
		w = &gaugeWatch{eigh: nd.Op == op.EighVectors, arg: arg, lu: -1, lvh: -1}
		a := b.primal[arg]
		if w.eigh {
			w.u = y
		} else {
			w.u, w.vh = b.ap(op.SVDU, op.Attrs{}, a), b.ap(op.SVDVh, op.Attrs{}, a)
		}
		b.gauges = append(b.gauges, w)
	}
	if nd.Op == op.SVDVh {
		w.lvh = b.tan[id]
	} else {
		w.lu = b.tan[id]
	}
}

// stashGauge keeps the cotangent ct of tape value l when it is watched.
func (b *builder) stashGauge(l int, ct trace.Var) {
	for _, w := range b.gauges {
		switch l {
		case w.lu:
			w.cu, w.hu = ct, true
		case w.lvh:
			w.cvh, w.hvh = ct, true
		}
	}
}

// checkGauges passes the first output of a matching dtype through the
// check of every watched decomposition.
func (b *builder) checkGauges(outs []trace.Var) {
	for _, w := range b.gauges {
		if !w.hu && !w.hvh {
			continue
		}
		g, scale := b.gaugePart(w)
		for i, o := range outs {
			if o.DType().Real() == g.DType() {
				tol := b.gtol
				if tol == 0 {
					tol = 1e-6
					if g.DType().Size() == 4 {
						tol = 1e-3
					}
				}
				outs[i] = b.ap(op.GaugeCheck, op.Attrs{Alpha: complex(tol, 0)}, o, g, scale)
				break
			}
		}
	}
}

// gaugePart is ∂L/∂φ_k per vector and the scale |Ū_k| + |V̄h_k| it is
// compared with.
func (b *builder) gaugePart(w *gaugeWatch) (g, scale trace.Var) {
	colDot := func(c, x trace.Var) trace.Var { // Im Σ_j conj(c_jk)·x_jk
		return b.un(op.Imag, b.ap(op.Einsum, op.Attrs{Subscripts: "jk...,jk...->k..."}, b.conj(c), x))
	}
	rowDot := func(c, x trace.Var) trace.Var { // Im Σ_j conj(c_kj)·x_kj
		return b.un(op.Imag, b.ap(op.Einsum, op.Attrs{Subscripts: "kj...,kj...->k..."}, b.conj(c), x))
	}
	norm := func(x trace.Var, axis int) trace.Var {
		return b.ap(op.Norm, op.Attrs{Alpha: 2, Axes: []int{axis}}, x)
	}
	if w.hu {
		g = b.un(op.Negate, colDot(w.cu, w.u))
		scale = norm(w.cu, 0)
	}
	if w.hvh {
		gv, sv := rowDot(w.cvh, w.vh), norm(w.cvh, 1)
		if w.hu {
			g, scale = b.bin(op.Add, g, gv), b.bin(op.Add, scale, sv)
		} else {
			g, scale = gv, sv
		}
	}
	return g, scale
}
