package op

import (
	"math"
	"math/cmplx"
)

// The references of the reductions and scans (Info.RefReduce): plain
// loops over the reduced elements in complex128 (reals have a zero
// imaginary part, bools are 0 and 1, indices are real integers), summing
// in order. p is the attribute: the ddof of Var and Std, the order of
// Norm.

func refSum(xs []complex128, _ float64) complex128 {
	var s complex128
	for _, x := range xs {
		s += x
	}
	return s
}

func refProd(xs []complex128, _ float64) complex128 {
	p := complex(1, 0)
	for _, x := range xs {
		p *= x
	}
	return p
}

func refMean(xs []complex128, _ float64) complex128 {
	return refSum(xs, 0) / complex(float64(len(xs)), 0)
}

func refVar(xs []complex128, ddof float64) complex128 {
	m := refMean(xs, 0)
	var s float64
	for _, x := range xs {
		d := x - m
		s += real(d)*real(d) + imag(d)*imag(d)
	}
	return complex(s/math.Max(float64(len(xs))-ddof, 0), 0)
}

func refStd(xs []complex128, ddof float64) complex128 {
	return complex(math.Sqrt(real(refVar(xs, ddof))), 0)
}

// refExtreme is the maximum (sign 1) or minimum (sign -1) of real parts,
// NaN if any is NaN, and the index of its first occurrence (of the first
// NaN).
func refExtreme(xs []complex128, sign float64) (float64, int) {
	best, at := math.Inf(-int(sign)), 0
	for i, x := range xs {
		v := real(x)
		if v != v {
			return v, i
		}
		if sign*v > sign*best || i == 0 {
			best, at = v, i
		}
	}
	return best, at
}

func refMax(xs []complex128, _ float64) complex128 {
	v, _ := refExtreme(xs, 1)
	return complex(v, 0)
}

func refMin(xs []complex128, _ float64) complex128 {
	v, _ := refExtreme(xs, -1)
	return complex(v, 0)
}

func refArgMax(xs []complex128, _ float64) complex128 {
	_, i := refExtreme(xs, 1)
	return complex(float64(i), 0)
}

func refArgMin(xs []complex128, _ float64) complex128 {
	_, i := refExtreme(xs, -1)
	return complex(float64(i), 0)
}

func refLogSumExp(xs []complex128, _ float64) complex128 {
	if len(xs) == 0 {
		return complex(math.Inf(-1), 0)
	}
	m, _ := refExtreme(xs, 1)
	if math.IsInf(m, 0) || m != m {
		return complex(m, 0)
	}
	var s float64
	for _, x := range xs {
		s += math.Exp(real(x) - m)
	}
	return complex(m+math.Log(s), 0)
}

func refNorm(xs []complex128, p float64) complex128 {
	if math.IsInf(p, 0) {
		m := math.Inf(-1)
		if p < 0 {
			m = math.Inf(1)
		}
		if len(xs) == 0 {
			return 0 // +Inf: 0 for the empty set; -Inf is refused
		}
		for _, x := range xs {
			a := cmplx.Abs(x)
			if a != a {
				return complex(a, 0)
			}
			if p > 0 {
				m = math.Max(m, a)
			} else {
				m = math.Min(m, a)
			}
		}
		return complex(m, 0)
	}
	var s float64
	for _, x := range xs {
		switch {
		case p != 0:
			s += math.Pow(cmplx.Abs(x), p)
		case x != 0:
			s++ // order 0 counts the non-zero elements
		}
	}
	if p == 0 {
		return complex(s, 0)
	}
	return complex(math.Pow(s, 1/p), 0)
}

func refAll(xs []complex128, _ float64) complex128 {
	for _, x := range xs {
		if x == 0 {
			return 0
		}
	}
	return 1
}

func refAny(xs []complex128, _ float64) complex128 {
	for _, x := range xs {
		if x != 0 {
			return 1
		}
	}
	return 0
}
