package main

import (
	"errors"
	"fmt"
	"math"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
)

// The operation table of `tenferro linalg` and `tenferro bench linalg`:
// one entry per operation, with its command-line run, its timed Into
// form and its peers' forms, and the helpers the entries share.

// inputKind is what the benchmark draws for an input (the command line
// reads any matrix).
type inputKind int

const (
	generalIn   inputKind = iota // square, well conditioned: R + √n·I
	spdIn                        // Hermitian positive definite: (R + Rᴴ)/2 + 2n·I
	hermitianIn                  // Hermitian: (R + Rᴴ)/2
	rhsIn                        // right sides (n, n): R
	matrixIn                     // any matrix (m, n); drawn square: R
	scaledIn                     // square, norm about 1: R/√n
)

// square reports whether inputs of kind k must be square matrices.
func (k inputKind) square() bool { return k != rhsIn && k != matrixIn }

// linalgOp is one operation: its inputs, the options it takes, the command
// line run (allocating forms), and for `bench linalg` the timed call of its
// Into forms, the peers' expressions and the gonum run.
type linalgOp[T tf.Scalar] struct {
	name    string
	summary string
	in      []inputKind // one per input file
	opts    []string    // operation-specific options it takes
	// numpyIn: run takes its inputs in NumPy's axis order and lines them
	// up itself (solve's broadcasting); otherwise it gets library views.
	numpyIn bool
	run     func(e tf.Engine, in []*tf.Tensor[T], f linalgFlags) ([]output, error)
	// into prepares destinations for the inputs (library layout) and
	// returns the call of the Into form and what releases them.
	into func(e tf.Engine, in []*tf.Tensor[T]) (call func() error, done func(), err error)
	peer linalgPeer
}

// linalgPeer is how the peers run an operation: NumPy (numpy.linalg, or
// scipy.linalg where needsScipy) and PyTorch expressions over the stacked
// inputs a and b in NumPy's layout, and the gonum run (float64 only).
// An empty expression or a nil gonum means no peer form (null time).
type linalgPeer struct {
	numpy      string
	needsScipy bool
	torch      string
	gonum      gonumRun
}

// linalgOps is the operation table, in the order the benchmark runs it.
func linalgOps[T tf.Scalar]() []linalgOp[T] {
	return []linalgOp[T]{
		{name: "qr", summary: "A = Q·R (PREFIX.q, PREFIX.r); --mode reduced|complete|r, --positive, --pivoting (PREFIX.perm)", in: []inputKind{matrixIn},
			opts: []string{"mode", "positive", "pivoting"},
			run: func(e tf.Engine, in []*tf.Tensor[T], f linalgFlags) ([]output, error) {
				return pairRun(e, in[0], f, false)
			},
			into: func(e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
				return into2(e, in[0], false)
			},
			peer: linalgPeer{numpy: "np.linalg.qr(a)", torch: "torch.linalg.qr(a)", gonum: gonumQR}},
		{name: "lq", summary: "A = L·Q (PREFIX.l, PREFIX.q); --mode reduced|complete|l, --positive", in: []inputKind{matrixIn}, opts: []string{"mode", "positive"},
			run: func(e tf.Engine, in []*tf.Tensor[T], f linalgFlags) ([]output, error) {
				return pairRun(e, in[0], f, true)
			},
			into: func(e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
				return into2(e, in[0], true)
			},
			peer: linalgPeer{gonum: gonumLQ}},
		{name: "svd", summary: "A = U·diag(S)·Vᴴ (PREFIX.u, PREFIX.s, PREFIX.vh); --full, --values-only, --max-rank, --cutoff, --rel-cutoff",
			in: []inputKind{matrixIn}, opts: []string{"full", "values-only", "max-rank", "cutoff", "rel-cutoff"},
			run: byReal[T](svdRun[float32, T], svdRun[float64, T]), into: byReal[T](svdInto[float32, T], svdInto[float64, T]),
			peer: linalgPeer{numpy: "np.linalg.svd(a, full_matrices=False)", torch: "torch.linalg.svd(a, full_matrices=False)", gonum: gonumSVD}},
		{name: "eigh", summary: "A·V = V·diag(W), A Hermitian (PREFIX.w, PREFIX.v); --values-only, --upper", in: []inputKind{hermitianIn},
			opts: []string{"values-only", "upper", "lower"},
			run:  byReal[T](eighRun[float32, T], eighRun[float64, T]), into: byReal[T](eighInto[float32, T], eighInto[float64, T]),
			peer: linalgPeer{numpy: "np.linalg.eigh(a)", torch: "torch.linalg.eigh(a)", gonum: gonumEigenSym}},
		{name: "solve", summary: "X with A·X = B (PREFIX.x)", in: []inputKind{generalIn, rhsIn}, numpyIn: true,
			run: func(e tf.Engine, in []*tf.Tensor[T], _ linalgFlags) ([]output, error) {
				a, b, vec, err := solveOperands(in[0], in[1])
				if err != nil {
					return nil, err
				}
				x, err := linalg.Solve(e, a, b)
				return outs(err, out("x", x, vecMat(vec)))
			},
			into: func(e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
				return into1(e, in[1].Shape(), func(x *tf.Tensor[T]) error { return linalg.SolveInto(e, x, in[0], in[1]) })
			},
			peer: linalgPeer{numpy: "np.linalg.solve(a, b)", torch: "torch.linalg.solve(a, b)", gonum: gonumSolve}},
		{name: "cholesky_solve", summary: "X with A·X = B from A's Cholesky factor C (PREFIX.x); --upper", in: []inputKind{spdIn, rhsIn}, numpyIn: true,
			opts: []string{"upper", "lower"},
			run: func(e tf.Engine, in []*tf.Tensor[T], f linalgFlags) ([]output, error) {
				c, b, vec, err := solveOperands(in[0], in[1])
				if err != nil {
					return nil, err
				}
				var opts []linalg.Option
				if f.upper {
					opts = append(opts, linalg.Upper)
				}
				x, err := linalg.CholeskySolve(e, c, b, opts...)
				return outs(err, out("x", x, vecMat(vec)))
			},
			into: func(e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
				return into1(e, in[1].Shape(), func(x *tf.Tensor[T]) error { return linalg.CholeskySolveInto(e, x, in[0], in[1]) })
			},
			peer: linalgPeer{numpy: "each(lambda c, y: sl.cho_solve((c, True), y), a, b)", needsScipy: true, torch: "torch.cholesky_solve(b, a)"}},
		{name: "solve_triangular", summary: "X with A·X = B, A triangular (PREFIX.x); --upper, --right (X·A = B), --unit-diagonal", in: []inputKind{spdIn, rhsIn},
			numpyIn: true, opts: []string{"upper", "lower", "right", "unit-diagonal"},
			run: func(e tf.Engine, in []*tf.Tensor[T], f linalgFlags) ([]output, error) {
				a, b, vec, err := solveOperands(in[0], in[1])
				if err != nil {
					return nil, err
				}
				var opts []linalg.Option
				if f.right {
					opts = append(opts, linalg.Right)
				}
				if f.unitDiag {
					opts = append(opts, linalg.UnitDiagonal)
				}
				x, err := linalg.SolveTriangular(e, a, b, f.upper, opts...)
				return outs(err, out("x", x, vecMat(vec)))
			},
			into: func(e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
				return into1(e, in[1].Shape(), func(x *tf.Tensor[T]) error { return linalg.SolveTriangularInto(e, x, in[0], in[1], false) })
			},
			peer: linalgPeer{numpy: "each(lambda t, y: sl.solve_triangular(t, y, lower=True), a, b)", needsScipy: true,
				torch: "torch.linalg.solve_triangular(a, b, upper=False)", gonum: gonumSolveTri}},
		{name: "cholesky", summary: "A = L·Lᴴ (PREFIX.l), or Uᴴ·U with --upper (PREFIX.u)", in: []inputKind{spdIn}, opts: []string{"upper", "lower"},
			run: func(e tf.Engine, in []*tf.Tensor[T], f linalgFlags) ([]output, error) {
				if f.upper {
					u, err := linalg.Cholesky(e, in[0], linalg.Upper)
					return outs(err, out("u", u, 2))
				}
				l, err := linalg.Cholesky(e, in[0])
				return outs(err, out("l", l, 2))
			},
			into: func(e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
				return into1(e, in[0].Shape(), func(l *tf.Tensor[T]) error { return linalg.CholeskyInto(e, l, in[0]) })
			},
			peer: linalgPeer{numpy: "np.linalg.cholesky(a)", torch: "torch.linalg.cholesky(a)", gonum: gonumCholesky}},
		{name: "inv", summary: "A⁻¹ (PREFIX.inv)", in: []inputKind{generalIn},
			run: func(e tf.Engine, in []*tf.Tensor[T], _ linalgFlags) ([]output, error) {
				x, err := linalg.Inv(e, in[0])
				return outs(err, out("inv", x, 2))
			},
			into: func(e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
				return into1(e, in[0].Shape(), func(x *tf.Tensor[T]) error { return linalg.InvInto(e, x, in[0]) })
			},
			peer: linalgPeer{numpy: "np.linalg.inv(a)", torch: "torch.linalg.inv(a)", gonum: gonumInverse}},
		{name: "det", summary: "det(A) (PREFIX.det)", in: []inputKind{generalIn},
			run: func(e tf.Engine, in []*tf.Tensor[T], _ linalgFlags) ([]output, error) {
				d, err := linalg.Det(e, in[0])
				return outs(err, out("det", d, 0))
			},
			into: func(e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
				return into1(e, in[0].Shape()[2:], func(d *tf.Tensor[T]) error { return linalg.DetInto(e, d, in[0]) })
			},
			peer: linalgPeer{numpy: "np.linalg.det(a)", torch: "torch.linalg.det(a)", gonum: gonumDet}},
		{name: "slogdet", summary: "det(A) = sign·exp(logabs) (PREFIX.sign, PREFIX.logabs)", in: []inputKind{generalIn},
			run:  byReal[T](slogdetRun[float32, T], slogdetRun[float64, T]),
			into: byReal[T](slogdetInto[float32, T], slogdetInto[float64, T]),
			peer: linalgPeer{numpy: "np.linalg.slogdet(a)", torch: "torch.linalg.slogdet(a)", gonum: gonumLogDet}},
		{name: "lstsq", summary: "minimum-norm X minimizing ‖A·X − B‖ (PREFIX.x, PREFIX.rank, PREFIX.s); --rcond", in: []inputKind{matrixIn, rhsIn},
			opts: []string{"rcond"},
			run:  byReal[T](lstsqRun[float32, T], lstsqRun[float64, T]), into: byReal[T](lstsqInto[float32, T], lstsqInto[float64, T]),
			peer: linalgPeer{numpy: "each(lambda x, y: np.linalg.lstsq(x, y, rcond=None), a, b)", torch: "torch.linalg.lstsq(a, b, driver='gelsd')"}},
		{name: "pinv", summary: "the pseudo-inverse A⁺ (PREFIX.pinv); --rcond", in: []inputKind{matrixIn}, opts: []string{"rcond"},
			run: func(e tf.Engine, in []*tf.Tensor[T], f linalgFlags) ([]output, error) {
				x, err := linalg.Pinv(e, in[0], pinvRcond(f))
				return outs(err, out("pinv", x, 2))
			},
			into: func(e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
				x, err := linalg.Pinv(e, in[0], 1e-15)
				if err != nil {
					return nil, nil, err
				}
				return func() error { return linalg.PinvInto(e, x, in[0], 1e-15) }, func() { x.Release() }, nil
			},
			peer: linalgPeer{numpy: "np.linalg.pinv(a)", torch: "torch.linalg.pinv(a)"}},
		{name: "expm", summary: "exp(A) (PREFIX.expm)", in: []inputKind{scaledIn},
			run: func(e tf.Engine, in []*tf.Tensor[T], _ linalgFlags) ([]output, error) {
				x, err := linalg.Expm(e, in[0])
				return outs(err, out("expm", x, 2))
			},
			into: func(e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
				return into1(e, in[0].Shape(), func(x *tf.Tensor[T]) error { return linalg.ExpmInto(e, x, in[0]) })
			},
			peer: linalgPeer{numpy: "sl.expm(a)", needsScipy: true, torch: "torch.linalg.matrix_exp(a)", gonum: gonumExp}},
		{name: "norm", summary: "the matrix norm --ord of each matrix (PREFIX.norm)", in: []inputKind{matrixIn}, opts: []string{"ord"},
			run: byReal[T](normRun[float32, T], normRun[float64, T]), into: byReal[T](normInto[float32, T], normInto[float64, T]),
			peer: linalgPeer{numpy: "np.linalg.norm(a, 'fro', axis=(-2, -1))", torch: "torch.linalg.matrix_norm(a)", gonum: gonumNorm}},
		{name: "cond", summary: "the condition number in the norm --ord (PREFIX.cond)", in: []inputKind{matrixIn}, opts: []string{"ord"},
			run: byReal[T](condRun[float32, T], condRun[float64, T]), into: byReal[T](condInto[float32, T], condInto[float64, T]),
			peer: linalgPeer{numpy: "np.linalg.cond(a)", torch: "torch.linalg.cond(a)", gonum: gonumCond}},
		{name: "matrix_rank", summary: "the numerical rank (PREFIX.rank); --atol, --rtol", in: []inputKind{matrixIn}, opts: []string{"atol", "rtol"},
			run: func(e tf.Engine, in []*tf.Tensor[T], f linalgFlags) ([]output, error) {
				r, err := linalg.MatrixRank(e, in[0], f.atol, f.rtol)
				return outs(err, out("rank", r, 0))
			},
			into: func(e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
				r, err := linalg.MatrixRank(e, in[0], 0, -1)
				if err != nil {
					return nil, nil, err
				}
				return func() error { return linalg.MatrixRankInto(e, r, in[0], 0, -1) }, func() { r.Release() }, nil
			},
			peer: linalgPeer{numpy: "np.linalg.matrix_rank(a)", torch: "torch.linalg.matrix_rank(a)"}},
		{name: "lu", summary: "A = P·L·U (PREFIX.p, PREFIX.l, PREFIX.u), or --packed (PREFIX.lu, PREFIX.piv)", in: []inputKind{generalIn}, opts: []string{"packed"},
			run: luRun[T],
			into: func(e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
				lu, err := tf.NewTensor[T](e, in[0].Shape()...)
				if err != nil {
					return nil, nil, err
				}
				piv, err := tf.NewTensor[int64](e, append([]int{min(in[0].Dim(0), in[0].Dim(1))}, in[0].Shape()[2:]...)...)
				if err != nil {
					lu.Release()
					return nil, nil, err
				}
				return func() error { return linalg.LUInto(e, lu, piv, in[0]) }, func() { lu.Release(); piv.Release() }, nil
			},
			peer: linalgPeer{numpy: "each(sl.lu_factor, a)", needsScipy: true, torch: "torch.linalg.lu_factor(a)", gonum: gonumLU}},
	}
}

// linalgOpNames lists the operations in table order.
func linalgOpNames() []string {
	var s []string
	for _, o := range linalgOps[float64]() {
		s = append(s, o.name)
	}
	return s
}

func findLinalgOp[T tf.Scalar](name string) (linalgOp[T], bool) {
	for _, o := range linalgOps[T]() {
		if o.name == name {
			return o, true
		}
	}
	return linalgOp[T]{}, false
}

// out builds one output from a typed result.
func out[E tf.Elem](name string, t *tf.Tensor[E], mat int) output {
	if t == nil {
		return output{name: name, mat: mat}
	}
	return output{name, tf.ValueOf(t), mat}
}

// outs returns the outputs of a call that ended with err.
func outs(err error, o ...output) ([]output, error) {
	if err != nil {
		return nil, err
	}
	return o, nil
}

// vecMat is the number of leading non-batch axes of X for a vector B (1)
// or a matrix B (2).
func vecMat(vec bool) int {
	if vec {
		return 1
	}
	return 2
}

// into1 allocates one destination of the given shape and returns the call
// that fills it.
func into1[T tf.Scalar](e tf.Engine, shape []int, call func(*tf.Tensor[T]) error) (func() error, func(), error) {
	d, err := tf.NewTensor[T](e, shape...)
	if err != nil {
		return nil, nil, err
	}
	return func() error { return call(d) }, func() { d.Release() }, nil
}

// pairRun runs QR (lq false) or LQ with the options f.
func pairRun[T tf.Scalar](e tf.Engine, a *tf.Tensor[T], f linalgFlags, lq bool) ([]output, error) {
	var opts []linalg.Option
	if f.positive {
		opts = append(opts, linalg.PositiveDiagonal)
	}
	if f.pivoting {
		if f.mode == "r" {
			return nil, errors.New("--pivoting takes --mode reduced or complete")
		}
		if f.mode == "complete" {
			opts = append(opts, linalg.Complete)
		}
		q, r, perm, err := linalg.QRPivoted(e, a, opts...)
		return outs(err, out("q", q, 2), out("r", r, 2), out("perm", perm, 1))
	}
	if f.mode == "r" || f.mode == "l" {
		// The triangular factor alone, through the Into form.
		m, n := a.Dim(0), a.Dim(1)
		shape := append([]int{min(m, n), n}, a.Shape()[2:]...)
		if lq {
			shape[0], shape[1] = m, min(m, n)
		}
		t, err := tf.NewTensor[T](e, shape...)
		if err != nil {
			return nil, err
		}
		if lq {
			err = linalg.LQInto(e, t, nil, a, opts...)
		} else {
			err = linalg.QRInto(e, nil, t, a, opts...)
		}
		if err != nil {
			t.Release()
			return nil, err
		}
		return []output{out(f.mode, t, 2)}, nil
	}
	if f.mode == "complete" {
		opts = append(opts, linalg.Complete)
	}
	if lq {
		l, q, err := linalg.LQ(e, a, opts...)
		return outs(err, out("l", l, 2), out("q", q, 2))
	}
	q, r, err := linalg.QR(e, a, opts...)
	return outs(err, out("q", q, 2), out("r", r, 2))
}

// into2 prepares the reduced factors of QR (lq false) or LQ of a.
func into2[T tf.Scalar](e tf.Engine, a *tf.Tensor[T], lq bool) (func() error, func(), error) {
	var x, y *tf.Tensor[T]
	var err error
	if lq {
		x, y, err = linalg.LQ(e, a)
	} else {
		x, y, err = linalg.QR(e, a)
	}
	if err != nil {
		return nil, nil, err
	}
	call := func() error { return linalg.QRInto(e, x, y, a) }
	if lq {
		call = func() error { return linalg.LQInto(e, x, y, a) }
	}
	return call, func() { x.Release(); y.Release() }, nil
}

// byReal returns f32 for the single-precision dtypes (float32,
// complex64) and f64 for the others: the instance of an operation whose
// real results have T's real dtype R.
func byReal[T tf.Scalar, F any](f32, f64 F) F {
	if tf.DTypeOf[T]().Real() == tf.Float32 {
		return f32
	}
	return f64
}

func slogdetRun[R tf.Float, T tf.Scalar](e tf.Engine, in []*tf.Tensor[T], _ linalgFlags) ([]output, error) {
	s, l, err := linalg.SlogDet[R](e, in[0])
	return outs(err, out("sign", s, 0), out("logabs", l, 0))
}

func slogdetInto[R tf.Float, T tf.Scalar](e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
	s, l, err := linalg.SlogDet[R](e, in[0])
	if err != nil {
		return nil, nil, err
	}
	return func() error { return linalg.SlogDetInto(e, s, l, in[0]) }, func() { s.Release(); l.Release() }, nil
}

func svdRun[R tf.Float, T tf.Scalar](e tf.Engine, in []*tf.Tensor[T], f linalgFlags) ([]output, error) {
	a := in[0]
	switch {
	case f.values:
		s, err := linalg.SVDVals[R](e, a)
		return outs(err, out("s", s, 1))
	case f.maxRank > 0 || f.cutoff > 0 || f.relCut > 0:
		if a.Rank() != 2 {
			return nil, fmt.Errorf("--max-rank, --cutoff and --rel-cutoff take a single matrix, got %d batch axes", a.Rank()-2)
		}
		u, s, vh, _, err := linalg.TruncatedSVD[R](e, a, linalg.Truncation{MaxRank: f.maxRank, Cutoff: f.cutoff, RelCutoff: f.relCut})
		return outs(err, out("u", u, 2), out("s", s, 1), out("vh", vh, 2))
	}
	var opts []linalg.Option
	if f.full {
		opts = append(opts, linalg.Complete)
	}
	u, s, vh, err := linalg.SVD[R](e, a, opts...)
	return outs(err, out("u", u, 2), out("s", s, 1), out("vh", vh, 2))
}

func svdInto[R tf.Float, T tf.Scalar](e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
	u, s, vh, err := linalg.SVD[R](e, in[0])
	if err != nil {
		return nil, nil, err
	}
	return func() error { return linalg.SVDInto(e, u, s, vh, in[0]) }, func() { u.Release(); s.Release(); vh.Release() }, nil
}

func eighRun[R tf.Float, T tf.Scalar](e tf.Engine, in []*tf.Tensor[T], f linalgFlags) ([]output, error) {
	var opts []linalg.Option
	if f.upper {
		opts = append(opts, linalg.Upper)
	}
	if f.values {
		w, err := linalg.Eigvalsh[R](e, in[0], opts...)
		return outs(err, out("w", w, 1))
	}
	w, v, err := linalg.Eigh[R](e, in[0], opts...)
	return outs(err, out("w", w, 1), out("v", v, 2))
}

func eighInto[R tf.Float, T tf.Scalar](e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
	w, v, err := linalg.Eigh[R](e, in[0])
	if err != nil {
		return nil, nil, err
	}
	return func() error { return linalg.EighInto(e, w, v, in[0]) }, func() { w.Release(); v.Release() }, nil
}

func normRun[R tf.Float, T tf.Scalar](e tf.Engine, in []*tf.Tensor[T], f linalgFlags) ([]output, error) {
	n, err := linalg.MatrixNorm[R](e, in[0], f.ord)
	return outs(err, out("norm", n, 0))
}

func normInto[R tf.Float, T tf.Scalar](e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
	return realInto[R](e, in[0].Shape()[2:], func(d *tf.Tensor[R]) error { return linalg.MatrixNormInto(e, d, in[0], linalg.NormFro) })
}

func condRun[R tf.Float, T tf.Scalar](e tf.Engine, in []*tf.Tensor[T], f linalgFlags) ([]output, error) {
	if !f.ordSet {
		f.ord = linalg.Norm2 // NumPy's default
	}
	c, err := linalg.Cond[R](e, in[0], f.ord)
	return outs(err, out("cond", c, 0))
}

func condInto[R tf.Float, T tf.Scalar](e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
	return realInto[R](e, in[0].Shape()[2:], func(d *tf.Tensor[R]) error { return linalg.CondInto(e, d, in[0], linalg.Norm2) })
}

// realInto is into1 for a real destination.
func realInto[R tf.Float](e tf.Engine, shape []int, call func(*tf.Tensor[R]) error) (func() error, func(), error) {
	d, err := tf.NewTensor[R](e, shape...)
	if err != nil {
		return nil, nil, err
	}
	return func() error { return call(d) }, func() { d.Release() }, nil
}

// normOrders are the --ord names.
var normOrders = map[string]linalg.NormOrder{"fro": linalg.NormFro, "nuc": linalg.NormNuclear, "1": linalg.Norm1, "-1": linalg.NormNeg1,
	"2": linalg.Norm2, "-2": linalg.NormNeg2, "inf": linalg.NormInf, "-inf": linalg.NormNegInf}

// lstsqRcond is NumPy's default rcond of lstsq, max(m, n)·eps of A's
// dtype, unless --rcond gave one.
func lstsqRcond[T tf.Scalar](a *tf.Tensor[T], f linalgFlags) float64 {
	if !math.IsNaN(f.rcond) {
		return f.rcond
	}
	eps, _ := epsOf[T]()
	return float64(max(a.Dim(0), a.Dim(1))) * 2 * eps // epsOf is the unit roundoff, eps/2
}

// pinvRcond is NumPy's default rcond of pinv, 1e-15, unless --rcond gave
// one.
func pinvRcond(f linalgFlags) float64 {
	if !math.IsNaN(f.rcond) {
		return f.rcond
	}
	return 1e-15
}

func lstsqRun[R tf.Float, T tf.Scalar](e tf.Engine, in []*tf.Tensor[T], f linalgFlags) ([]output, error) {
	a, b := in[0], in[1]
	if a.Rank() < 2 {
		return nil, fmt.Errorf("input 1 has %d axes, expected a matrix (..., m, n)", a.Rank())
	}
	x, rank, s, err := linalg.Lstsq[R](e, a, b, lstsqRcond(a, f))
	return outs(err, out("x", x, vecMat(b.Rank() == 1)), out("rank", rank, 0), out("s", s, 1))
}

func lstsqInto[R tf.Float, T tf.Scalar](e tf.Engine, in []*tf.Tensor[T]) (func() error, func(), error) {
	rcond := lstsqRcond(in[0], linalgFlags{rcond: math.NaN()})
	x, rank, s, err := linalg.Lstsq[R](e, in[0], in[1], rcond)
	if err != nil {
		return nil, nil, err
	}
	return func() error { return linalg.LstsqInto(e, x, rank, s, in[0], in[1], rcond) }, func() { x.Release(); rank.Release(); s.Release() }, nil
}

func luRun[T tf.Scalar](e tf.Engine, in []*tf.Tensor[T], f linalgFlags) ([]output, error) {
	lu, piv, err := linalg.LU(e, in[0])
	if err != nil {
		return nil, err
	}
	if f.packed {
		return []output{out("lu", lu, 2), out("piv", piv, 1)}, nil
	}
	defer lu.Release()
	defer piv.Release()
	p, l, u, err := linalg.LUUnpack(e, lu, piv)
	return outs(err, out("p", p, 2), out("l", l, 2), out("u", u, 2))
}

// solveOperands maps NumPy's solve operands to the library's: A (..., n, n)
// and B (..., n, k) become (n, n, ...) and (n, k, ...) views, the shorter
// batch padded with leading axes of extent 1 so that the batch axes line
// up from the right as NumPy broadcasts them; a 1-D B is a vector (NumPy
// 2's rule) and stays as it is.
func solveOperands[T tf.Scalar](a, b *tf.Tensor[T]) (la, lb *tf.Tensor[T], vec bool, err error) {
	if b.Rank() == 1 || a.Rank() < 2 || b.Rank() < 2 {
		la, err = libView(a)
		return la, b, b.Rank() == 1, err
	}
	if a, err = padBatch(a, b.Rank()); err != nil {
		return nil, nil, false, err
	}
	if b, err = padBatch(b, a.Rank()); err != nil {
		return nil, nil, false, err
	}
	if la, err = libView(a); err != nil {
		return nil, nil, false, err
	}
	lb, err = libView(b)
	return la, lb, false, err
}

// padBatch prepends axes of extent 1 to t up to rank r.
func padBatch[T tf.Scalar](t *tf.Tensor[T], r int) (*tf.Tensor[T], error) {
	if t.Rank() >= r {
		return t, nil
	}
	axes := make([]int, r-t.Rank())
	for i := range axes {
		axes[i] = i
	}
	return t.Unsqueeze(axes...)
}
