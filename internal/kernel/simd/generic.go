package simd

import "math"

// The pure-Go loops: the whole work on builds without assembly, the tail
// after the assembly otherwise. Each is the scalar definition of its
// operation; the rounding functions of package math compile to single
// instructions on the common architectures.

// maximum is scalar.Maximum: NaN where x or y is NaN (the builtin max),
// y for equal arguments (so maximum(0, -0) = -0), else the larger; the
// form avoids a branch on the order of the arguments, which random data
// would mispredict.
func maximum[F Float](x, y F) F {
	r := max(x, y)
	if x == y {
		r = y
	}
	return r
}

// minimum is scalar.Minimum, as maximum.
func minimum[F Float](x, y F) F {
	r := min(x, y)
	if x == y {
		r = y
	}
	return r
}

// binary is the scalar form of o.
func binary[F Float](o Op, x, y F) F {
	switch o {
	case Add:
		return x + y
	case Sub:
		return x - y
	case Mul:
		return x * y
	case Div:
		return x / y
	case Max:
		return maximum(x, y)
	case Min:
		return minimum(x, y)
	case GoMax:
		return max(x, y)
	case GoMin:
		return min(x, y)
	}
	panic("simd: unknown binary operation")
}

// unary is the scalar form of o.
func unary[F Float](o UnaryOp, x, a, b F) F {
	switch o {
	case Neg:
		return -x
	case Abs:
		return F(math.Abs(float64(x)))
	case Square:
		return x * x
	case Recip:
		return 1 / x
	case Rsqrt:
		return F(1 / math.Sqrt(float64(x)))
	case Floor:
		return F(math.Floor(float64(x)))
	case Ceil:
		return F(math.Ceil(float64(x)))
	case Trunc:
		return F(math.Trunc(float64(x)))
	case Round:
		return F(math.RoundToEven(float64(x)))
	case Relu:
		if x > 0 || x != x {
			return x
		}
		return 0
	case Sign:
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return x
	case Clip:
		return minimum(maximum(x, a), b)
	}
	panic("simd: unknown unary operation")
}

// The loops below keep the common operations out of the generic switch
// so that they compile to tight loops; len(x), len(y) == len(z).

func goVV[F Float](o Op, z, x, y []F) {
	x, y = x[:len(z)], y[:len(z)]
	switch o {
	case Add:
		for i := range z {
			z[i] = x[i] + y[i]
		}
	case Sub:
		for i := range z {
			z[i] = x[i] - y[i]
		}
	case Mul:
		for i := range z {
			z[i] = x[i] * y[i]
		}
	case Div:
		for i := range z {
			z[i] = x[i] / y[i]
		}
	case Max:
		for i := range z {
			z[i] = maximum(x[i], y[i])
		}
	case Min:
		for i := range z {
			z[i] = minimum(x[i], y[i])
		}
	case GoMax:
		for i := range z {
			z[i] = max(x[i], y[i])
		}
	case GoMin:
		for i := range z {
			z[i] = min(x[i], y[i])
		}
	default:
		for i := range z {
			z[i] = binary(o, x[i], y[i])
		}
	}
}

func goVS[F Float](o Op, z, x []F, y F) {
	x = x[:len(z)]
	switch o {
	case Add:
		for i := range z {
			z[i] = x[i] + y
		}
	case Mul:
		for i := range z {
			z[i] = x[i] * y
		}
	default:
		for i := range z {
			z[i] = binary(o, x[i], y)
		}
	}
}

func goSV[F Float](o Op, z []F, x F, y []F) {
	y = y[:len(z)]
	for i := range z {
		z[i] = binary(o, x, y[i])
	}
}

func goUnary[F Float](o UnaryOp, z, x []F, a, b F) {
	x = x[:len(z)]
	switch o {
	case Neg:
		for i := range z {
			z[i] = -x[i]
		}
	case Abs:
		for i, v := range x {
			z[i] = F(math.Abs(float64(v)))
		}
	case Square:
		for i, v := range x {
			z[i] = v * v
		}
	case Recip:
		for i, v := range x {
			z[i] = 1 / v
		}
	case Floor:
		for i, v := range x {
			z[i] = F(math.Floor(float64(v)))
		}
	case Ceil:
		for i, v := range x {
			z[i] = F(math.Ceil(float64(v)))
		}
	case Trunc:
		for i, v := range x {
			z[i] = F(math.Trunc(float64(v)))
		}
	case Round:
		for i, v := range x {
			z[i] = F(math.RoundToEven(float64(v)))
		}
	case Clip:
		for i, v := range x {
			z[i] = minimum(maximum(v, a), b)
		}
	default:
		for i, v := range x {
			z[i] = unary(o, v, a, b)
		}
	}
}
