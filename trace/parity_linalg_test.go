package trace_test

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/linalg"
	"github.com/tenferro-go/tenferro/trace"
)

// linalgCases gives every linear-algebra operation of a trace the shape
// of its eager twin in package linalg on valid inputs (the identity in
// every matrix, so that every factorization succeeds). A trace takes the
// subset of package linalg's shapes without batch broadcasting or vector
// right-hand sides; its shape errors are its own.
func linalgCases() []parityCase {
	eye := func(x *tf.Tensor[float64]) *tf.Tensor[float64] {
		y, _ := x.Clone()
		d, _ := y.Data()
		s := y.Shape()
		m, n := s[0], s[1]
		for k := range d {
			i, j := k%m, (k/m)%n
			if i == j {
				d[k] = 1
			}
		}
		return y
	}
	one := func(k op.Kind, shapes [][]int, eager func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error), traced func(tr *trace.Trace, in []trace.Var) (trace.Var, error)) parityCase {
		return pc(k, "valid", shapes, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
			for i := range in {
				in[i] = eye(in[i])
			}
			return eager(e, in)
		}, traced)
	}
	sq, tall := [][]int{{3, 3, 2}}, [][]int{{4, 3, 2}}
	sys := [][]int{{3, 3, 2}, {3, 2, 2}}
	return []parityCase{
		one(op.Cholesky, sq, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) { return shapeOfV(linalg.Cholesky(e, in[0])) },
			func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Cholesky(in[0], false) }),
		one(op.Solve, sys, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
			return shapeOfV(linalg.Solve(e, in[0], in[1]))
		},
			func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Solve(in[0], in[1]) }),
		one(op.SolveTriangular, sys, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
			return shapeOfV(linalg.SolveTriangular(e, in[0], in[1], true))
		}, func(tr *trace.Trace, in []trace.Var) (trace.Var, error) {
			return tr.SolveTriangular(in[0], in[1], true, true, false)
		}),
		one(op.Inv, sq, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) { return shapeOfV(linalg.Inv(e, in[0])) },
			func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Inv(in[0]) }),
		one(op.Det, sq, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) { return shapeOfV(linalg.Det(e, in[0])) },
			func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Det(in[0]) }),
		one(op.SlogDetSign, sq, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
			s, _, err := linalg.SlogDet[float64](e, in[0])
			return shapeOfV(s, err)
		}, func(tr *trace.Trace, in []trace.Var) (trace.Var, error) {
			s, _, err := tr.SlogDet(in[0])
			return s, err
		}),
		one(op.SlogDetLogAbs, sq, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
			_, l, err := linalg.SlogDet[float64](e, in[0])
			return shapeOfV(l, err)
		}, func(tr *trace.Trace, in []trace.Var) (trace.Var, error) {
			_, l, err := tr.SlogDet(in[0])
			return l, err
		}),
		one(op.Expm, sq, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) { return shapeOfV(linalg.Expm(e, in[0])) },
			func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Expm(in[0]) }),
		one(op.EighValues, sq, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
			return shapeOfV(linalg.Eigvalsh[float64](e, in[0]))
		}, func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Eigvalsh(in[0], false) }),
		one(op.EighVectors, sq, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
			_, v, err := linalg.Eigh[float64](e, in[0])
			return shapeOfV(v, err)
		}, func(tr *trace.Trace, in []trace.Var) (trace.Var, error) {
			_, v, err := tr.Eigh(in[0], false)
			return v, err
		}),
		one(op.SVDU, tall, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
			u, _, _, err := linalg.SVD[float64](e, in[0])
			return shapeOfV(u, err)
		}, func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { u, _, _, err := tr.SVD(in[0]); return u, err }),
		one(op.SVDS, tall, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
			return shapeOfV(linalg.SVDVals[float64](e, in[0]))
		}, func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.SVDVals(in[0]) }),
		one(op.SVDVh, tall, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
			_, _, vh, err := linalg.SVD[float64](e, in[0])
			return shapeOfV(vh, err)
		}, func(tr *trace.Trace, in []trace.Var) (trace.Var, error) {
			_, _, vh, err := tr.SVD(in[0])
			return vh, err
		}),
		one(op.QRQ, tall, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
			q, _, err := linalg.QR(e, in[0])
			return shapeOfV(q, err)
		}, func(tr *trace.Trace, in []trace.Var) (trace.Var, error) {
			q, _, err := tr.QR(in[0], false)
			return q, err
		}),
		one(op.QRR, tall, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
			_, r, err := linalg.QR(e, in[0])
			return shapeOfV(r, err)
		}, func(tr *trace.Trace, in []trace.Var) (trace.Var, error) {
			_, r, err := tr.QR(in[0], false)
			return r, err
		}),
		one(op.Pinv, tall, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) { return shapeOfV(linalg.Pinv(e, in[0], 0)) },
			func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Pinv(in[0], 0) }),
		// Lstsq records Pinv and Matmul; the parity is of its solution.
		one(op.Pinv, [][]int{{4, 3, 2}, {4, 5, 2}}, func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
			x, _, _, err := linalg.Lstsq[float64](e, in[0], in[1], -1)
			return shapeOfV(x, err)
		}, func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Lstsq(in[0], in[1], -1) }),
	}
}

// convertCases: Convert has tenferro.Convert's shape and dtype errors.
func convertCases() []parityCase {
	var cs []parityCase
	for _, to := range []tf.DType{tf.Complex128, tf.Int64, tf.Bool, tf.DType(99)} {
		cs = append(cs, parityCase{kind: op.Convert, name: "to " + to.String(), shapes: [][]int{{2, 3}}, dtypes: []tf.DType{tf.Float64},
			eagerV: func(e tf.Engine, in []tf.Value) ([]int, error) {
				v, err := tf.Convert(in[0], to)
				if err != nil {
					return nil, err
				}
				return v.Shape(), nil
			},
			traced: func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Convert(in[0], to) }})
	}
	return cs
}
