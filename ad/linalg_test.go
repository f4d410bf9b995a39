package ad_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/ad"
	"github.com/tenferro-go/tenferro/linalg"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// The linear-algebra rules, checked on gauge-invariant functions of the
// factors: the values, products in which the phases cancel, magnitudes
// and quadratic forms.

// well is x + shift·I for a square x (n, n, batch...): a well-conditioned
// matrix.
func well(tr *trace.Trace, x trace.Var, shift float64) (trace.Var, error) {
	n := x.Shape()[0]
	eye := make([]float64, n*n)
	for i := range n {
		eye[i*(n+1)] = shift
	}
	id, err := constMatrix(tr, x, eye, n)
	if err != nil {
		return id, err
	}
	return tr.Add(x, id)
}

// hermitian is x + xᴴ.
func hermitian(tr *trace.Trace, x trace.Var) (trace.Var, error) {
	xt, err := tr.Permute(x, swapped(x.Rank())...)
	if err != nil {
		return xt, err
	}
	if x.DType().IsComplex() {
		if xt, err = tr.Conj(xt); err != nil {
			return xt, err
		}
	}
	return tr.Add(x, xt)
}

// gram is x·xᴴ + shift·I: Hermitian positive definite.
func gram(tr *trace.Trace, x trace.Var, shift float64) (trace.Var, error) {
	xt, err := tr.Permute(x, swapped(x.Rank())...)
	if err != nil {
		return xt, err
	}
	if x.DType().IsComplex() {
		if xt, err = tr.Conj(xt); err != nil {
			return xt, err
		}
	}
	p, err := tr.Matmul(x, xt)
	if err != nil {
		return p, err
	}
	return well(tr, p, shift)
}

func swapped(r int) []int {
	perm := make([]int, r)
	for d := range perm {
		perm[d] = d
	}
	perm[0], perm[1] = 1, 0
	return perm
}

func seq(fs ...func(tr *trace.Trace, x trace.Var) (trace.Var, error)) builder {
	return func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
		x := xs[0]
		for _, f := range fs {
			var err error
			if x, err = f(tr, x); err != nil {
				return x, err
			}
		}
		return x, nil
	}
}

func TestLinalgRules(t *testing.T) {
	sq := [][]int{{4, 4}}
	batched := [][]int{{3, 3, 2}}
	shift := func(s float64) func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
		return func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return well(tr, x, s) }
	}
	herm := func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return hermitian(tr, x) }
	hpd := func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return gram(tr, x, 1) }
	u0 := func(tr *trace.Trace, u trace.Var) (trace.Var, error) { // the first column's quadratic form with a fixed Hermitian H
		return quadForm(tr, u)
	}
	cases := []adCase{
		{name: "Inv", shapes: batched, build: seq(shift(3), (*trace.Trace).Inv)},
		{name: "Det", shapes: sq, build: seq(shift(3), (*trace.Trace).Det)},
		{name: "SlogDetLogAbs", shapes: batched, build: seq(shift(3), func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
			_, l, err := tr.SlogDet(x)
			return l, err
		})},
		{name: "SlogDetSign", shapes: sq, build: seq(shift(3), func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
			s, _, err := tr.SlogDet(x)
			return s, err
		})},
		{name: "Expm", shapes: batched, build: seq((*trace.Trace).Expm)},
		{name: "Solve", shapes: [][]int{{3, 3, 2}, {3, 4, 2}}, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			a, err := well(tr, xs[0], 3)
			if err != nil {
				return a, err
			}
			return tr.Solve(a, xs[1])
		}},
		{name: "SolveTriangularLeftUpper", shapes: [][]int{{4, 4}, {4, 2}}, build: triSolve(true, true, false)},
		{name: "SolveTriangularRightLowerUnit", shapes: [][]int{{4, 4}, {3, 4}}, build: triSolve(false, false, true)},
		{name: "CholeskyLower", shapes: batched, build: seq(hpd, func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Cholesky(x, false) })},
		{name: "CholeskyUpper", shapes: sq, build: seq(hpd, func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Cholesky(x, true) })},
		{name: "CholeskyTriangleRead", shapes: sq, build: seq(shift(6), func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Cholesky(x, false) })},
		{name: "Eigvalsh", shapes: batched, build: seq(herm, func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Eigvalsh(x, false) })},
		{name: "EighUpperRead", shapes: sq, build: seq(func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Eigvalsh(x, true) })},
		{name: "EighVectors", shapes: sq, build: seq(herm, func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
			_, v, err := tr.Eigh(x, false)
			if err != nil {
				return v, err
			}
			return quadFormAll(tr, v)
		})},
		{name: "SVDVals", shapes: [][]int{{5, 3, 2}}, build: seq((*trace.Trace).SVDVals)},
		{name: "SVDValsWide", shapes: [][]int{{3, 5}}, build: seq((*trace.Trace).SVDVals)},
		{name: "SVDPolar", shapes: [][]int{{4, 4}}, build: seq(func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
			u, _, vh, err := tr.SVD(x)
			if err != nil {
				return u, err
			}
			return tr.Matmul(u, vh)
		})},
		{name: "SVDTallU", shapes: [][]int{{5, 3}}, build: seq(func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
			u, _, _, err := tr.SVD(x)
			return u, err
		}, u0)},
		{name: "SVDWideVh", shapes: [][]int{{3, 5}}, build: seq(func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
			_, _, vh, err := tr.SVD(x)
			if err != nil {
				return vh, err
			}
			return tr.Permute(vh, 1, 0)
		}, u0)},
		{name: "SVDTallVh", shapes: [][]int{{5, 3}}, build: seq(func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
			_, _, vh, err := tr.SVD(x)
			if err != nil {
				return vh, err
			}
			return tr.Permute(vh, 1, 0)
		}, u0)},
		{name: "SVDWideU", shapes: [][]int{{3, 5}}, build: seq(func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
			u, _, _, err := tr.SVD(x)
			return u, err
		}, u0)},
		{name: "TruncatedSVDReconstruction", shapes: [][]int{{6, 5}, {6, 5}}, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			// ‖U_k·S_k·V_kᴴ - B‖²: its gradient needs the discarded subspace.
			u, s, vh, err := tr.TruncatedSVD(xs[0], 3)
			if err != nil {
				return u, err
			}
			sv := s
			if u.DType().IsComplex() {
				zero, _ := tr.Full(s.DType(), 0)
				sv, _ = tr.Complex(s, zero)
			}
			rec, err := tr.Einsum("ik,k,kj->ij", u, sv, vh)
			if err != nil {
				return rec, err
			}
			d, _ := tr.Sub(rec, xs[1])
			a, _ := tr.Abs(d)
			sq, _ := tr.Square(a)
			return tr.Sum(sq)
		}},
		{name: "QRTall", shapes: [][]int{{5, 3}}, build: qrPart(false, 0)},
		{name: "QRTallR", shapes: [][]int{{5, 3}}, build: qrPart(false, 1)},
		{name: "QRWide", shapes: [][]int{{3, 5}}, build: qrPart(true, 0)},
		{name: "QRWideR", shapes: [][]int{{3, 5, 2}}, build: qrPart(true, 1)},
		{name: "LQ", shapes: [][]int{{3, 4}}, build: seq(func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
			l, q, err := tr.LQ(x, true)
			if err != nil {
				return l, err
			}
			return tr.Concatenate(1, l, q)
		})},
		{name: "Pinv", shapes: [][]int{{5, 3}}, build: seq(func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Pinv(x, 0) })},
		{name: "PinvWide", shapes: [][]int{{2, 4}}, build: seq(func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Pinv(x, 0) })},
		{name: "LstsqTall", shapes: [][]int{{5, 3, 2}, {5, 2, 2}}, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return tr.Lstsq(xs[0], xs[1], -1) }},
		{name: "MatrixNormFro", shapes: [][]int{{4, 3, 2}}, build: matrixNorm(linalg.NormFro)},
		{name: "MatrixNormNuclear", shapes: [][]int{{4, 3}}, build: matrixNorm(linalg.NormNuclear)},
		{name: "MatrixNorm2", shapes: [][]int{{3, 4, 2}}, build: matrixNorm(linalg.Norm2)},
		{name: "MatrixNormNeg2", shapes: [][]int{{4, 3}}, build: matrixNorm(linalg.NormNeg2)},
		{name: "MatrixNorm1", shapes: [][]int{{4, 3, 2}}, build: matrixNorm(linalg.Norm1)},
		{name: "MatrixNormNeg1", shapes: [][]int{{4, 3}}, build: matrixNorm(linalg.NormNeg1)},
		{name: "MatrixNormInf", shapes: [][]int{{4, 3}}, build: matrixNorm(linalg.NormInf)},
		{name: "MatrixNormNegInf", shapes: [][]int{{4, 3, 2}}, build: matrixNorm(linalg.NormNegInf)},
		{name: "LstsqWide", shapes: [][]int{{2, 4}, {2, 3}}, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return tr.Lstsq(xs[0], xs[1], -1) }},
	}
	runCases(t, cases)
}

func matrixNorm(ord linalg.NormOrder) builder {
	return seq(func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.MatrixNorm(x, ord) })
}

func triSolve(upper, left, unit bool) builder {
	return func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
		a, err := well(tr, xs[0], 3)
		if err != nil {
			return a, err
		}
		return tr.SolveTriangular(a, xs[1], upper, left, unit)
	}
}

func qrPart(positive bool, part int) builder {
	return seq(func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
		q, r, err := tr.QR(x, positive)
		if part == 0 {
			return q, err
		}
		return r, err
	})
}

// quadForm is Re(u₀ᴴ·H·u₀) for the first column u₀ of u and a fixed
// Hermitian H: invariant under the phase of u₀.
func quadForm(tr *trace.Trace, u trace.Var) (trace.Var, error) {
	m := u.Shape()[0]
	cols, err := tr.SplitAt(u, 1, 1)
	if err != nil {
		return u, err
	}
	return form(tr, cols[0], m)
}

// quadFormAll is Σ_k Re(v_kᴴ·H·v_k) weighted by k+1: a function of every
// eigenvector, invariant under their phases.
func quadFormAll(tr *trace.Trace, v trace.Var) (trace.Var, error) {
	n := v.Shape()[0]
	h, err := fixedHermitian(tr, v, n)
	if err != nil {
		return h, err
	}
	hv, err := tr.Matmul(h, v)
	if err != nil {
		return hv, err
	}
	w := make([]float64, n)
	for k := range w {
		w[k] = float64(k + 1)
	}
	wk, err := constVector(tr, v, w)
	if err != nil {
		return wk, err
	}
	s, err := tr.Einsum("ik,ik,k->", mustConj(tr, v), hv, wk)
	if err != nil {
		return s, err
	}
	return tr.Real(s)
}

func form(tr *trace.Trace, col trace.Var, m int) (trace.Var, error) {
	h, err := fixedHermitian(tr, col, m)
	if err != nil {
		return h, err
	}
	s, err := tr.Einsum("ia,ij,ja->", mustConj(tr, col), h, col)
	if err != nil {
		return s, err
	}
	return tr.Real(s)
}

func mustConj(tr *trace.Trace, x trace.Var) trace.Var {
	if !x.DType().IsComplex() {
		return x
	}
	c, _ := tr.Conj(x)
	return c
}

// fixedHermitian is a constant Hermitian (real symmetric) n×n matrix.
func fixedHermitian(tr *trace.Trace, like trace.Var, n int) (trace.Var, error) {
	h := make([]float64, n*n)
	for i := range n {
		for j := range n {
			h[i+n*j] = 1 / float64(1+i+j)
		}
		h[i+n*i] += float64(i)
	}
	return constMatrix(tr, like, h, n)
}

// constMatrix is the constant n×n matrix data (column-major) in like's
// dtype, with axes of extent 1 for like's batch axes so that it
// broadcasts against every matrix of like.
func constMatrix(tr *trace.Trace, like trace.Var, data []float64, n int) (trace.Var, error) {
	shape := []int{n, n}
	for len(shape) < like.Rank() {
		shape = append(shape, 1)
	}
	return constOf(tr, like.DType(), data, shape...)
}

func constVector(tr *trace.Trace, like trace.Var, data []float64) (trace.Var, error) {
	return constOf(tr, like.DType(), data, len(data))
}

func constOf(tr *trace.Trace, dt tf.DType, data []float64, shape ...int) (trace.Var, error) {
	if dt.IsComplex() {
		zs := make([]complex128, len(data))
		for i, x := range data {
			zs[i] = complex(x, 0)
		}
		x, err := tf.FromSlice(zs, shape...)
		if err != nil {
			return trace.Var{}, err
		}
		return tr.Const(tf.ValueOf(x))
	}
	x, err := tf.FromSlice(append([]float64(nil), data...), shape...)
	if err != nil {
		return trace.Var{}, err
	}
	return tr.Const(tf.ValueOf(x))
}

// A loss that reads the phase of a singular vector or an eigenvector has
// no derivative: the gradient program refuses it at run time.
func TestGaugeDependentLoss(t *testing.T) {
	phase := map[string]builder{
		"SVD U": func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			u, _, _, err := tr.SVD(xs[0])
			if err != nil {
				return u, err
			}
			return firstReal(tr, u)
		},
		"SVD Vh": func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			_, _, vh, err := tr.SVD(xs[0])
			if err != nil {
				return vh, err
			}
			return firstReal(tr, vh)
		},
		"Eigh": func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			h, err := hermitian(tr, xs[0])
			if err != nil {
				return h, err
			}
			_, v, err := tr.Eigh(h, false)
			if err != nil {
				return v, err
			}
			return firstReal(tr, v)
		},
	}
	for name, f := range phase {
		t.Run(name, func(t *testing.T) {
			c := adCase{shapes: [][]int{{3, 3}}, build: f}
			g, _ := c.record(t, tf.Complex128)
			x := randData(rand.New(rand.NewPCG(1, 1)), tf.Complex128, []int{3, 3}, -1, 1)
			gg, err := ad.Grad(g, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := runErr(t, gg, x); !errors.Is(err, tf.ErrGauge) {
				t.Errorf("gauge-dependent loss: %v, want ErrGauge", err)
			}
			// Without the check the program runs; in float64 there is no
			// continuous gauge to check.
			gg, err = ad.Options{GaugeTolerance: -1}.Grad(g, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := runErr(t, gg, x); err != nil {
				t.Errorf("check off: %v", err)
			}
			g, _ = c.record(t, tf.Float64)
			gg, _ = ad.Grad(g, 0)
			if _, err := runErr(t, gg, randData(rand.New(rand.NewPCG(1, 1)), tf.Float64, []int{3, 3}, -1, 1)); err != nil {
				t.Errorf("float64: %v", err)
			}
		})
	}
}

// firstReal is Re x[0, 0].
func firstReal(tr *trace.Trace, x trace.Var) (trace.Var, error) {
	rows, err := tr.SplitAt(x, 0, 1)
	if err != nil {
		return x, err
	}
	e, err := tr.SplitAt(rows[0], 1, 1)
	if err != nil {
		return x, err
	}
	r, err := tr.Real(e[0])
	if err != nil {
		return r, err
	}
	return tr.Sum(r)
}

// A prepared gradient program through the decompositions allocates
// nothing per run.
func TestLinalgGradAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's pools drop items")
	}
	for _, dt := range []tf.DType{tf.Float64, tf.Complex128} {
		c := adCase{shapes: [][]int{{4, 3}}, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			u, s, vh, err := tr.SVD(xs[0])
			if err != nil {
				return u, err
			}
			p, _ := tr.Matmul(u, vh)
			q, r, _ := tr.QR(p, true)
			g, _ := gram(tr, r, 1)
			l, _ := tr.Cholesky(g, false)
			w, _ := tr.Eigvalsh(g, false)
			a, _ := quadForm(tr, q)
			b, _ := tr.Sum(s)
			e, _ := tr.Sum(w)
			ld, _ := tr.Abs(l)
			lsum, _ := tr.Sum(ld)
			x, _ := tr.Add(a, b)
			x, _ = tr.Add(x, e)
			return tr.Add(x, lsum)
		}}
		g, _ := c.record(t, dt)
		gg, err := ad.ValueAndGrad(g, 0)
		if err != nil {
			t.Fatal(err)
		}
		p, err := program.Compile(gg)
		if err != nil {
			t.Fatal(err)
		}
		pp, err := program.Prepare(p, engine)
		if err != nil {
			t.Fatal(err)
		}
		x := randData(rand.New(rand.NewPCG(2, 2)), dt, []int{4, 3}, -1, 1)
		in := []tf.Value{x.value(t)}
		outs, err := pp.Run(in...)
		if err != nil {
			t.Fatal(err)
		}
		run := func() {
			if err := pp.RunInto(outs, in...); err != nil {
				t.Fatal(err)
			}
		}
		if a := testing.AllocsPerRun(20, run); a != 0 {
			t.Errorf("%v: %v allocations per gradient run, want 0", dt, a)
		}
	}
}
