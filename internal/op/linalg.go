package op

import "strconv"

// The shape rules of the linear-algebra operations of traces (category
// Linalg). Matrices are the first two axes, batch axes after them, as for
// Matmul; the operands of one operation have the same batch extents.
// Decompositions are one node per factor (SVDU, SVDS and SVDVh of one
// matrix, say); a compiled program computes the factors of one matrix in
// one step.
//
// Attributes (Attrs.Ints, normalized to 0 or 1):
//
//	Cholesky, EighValues, EighVectors   [upper]: the triangle read
//	SolveTriangular                     [upper, left, unit]
//	QRQ, QRR                            [positive]: diag(R) real and >= 0
//	Pinv                                Alpha: rcond (real; < 0: machine precision)

// Group reports the decomposition k computes a factor of (k itself for
// operations with one result) and the factor's position in it.
func (k Kind) Group() (Kind, int) {
	switch k {
	case SVDS:
		return SVDU, 1
	case SVDVh:
		return SVDU, 2
	case EighVectors:
		return EighValues, 1
	case QRR:
		return QRQ, 1
	case SlogDetLogAbs:
		return SlogDetSign, 1
	}
	return k, 0
}

// Square checks that a holds square matrices (rank >= 2) and returns n.
func SquareMatrices(arg string, a []int) (int, *Fault) {
	if f := matrixRank(arg, a); f != nil {
		return 0, f
	}
	if a[0] != a[1] {
		return 0, faultf(ErrShape, arg, "square matrices (n, n, batch...)", "shape %s", FmtInts(a))
	}
	return a[0], nil
}

func matrixRank(arg string, a []int) *Fault {
	if len(a) < 2 {
		return faultf(ErrShape, arg, "matrices (m, n, batch...), rank >= 2", "rank %d", len(a))
	}
	if len(a) > MaxRank {
		return faultf(ErrShape, arg, "rank <= "+strconv.Itoa(MaxRank), "rank %d", len(a))
	}
	_, f := Numel(arg, a)
	return f
}

// sameBatch checks that b has a's batch extents (the axes after the
// first two).
func sameBatch(a, b []int) *Fault {
	if len(b) != len(a) {
		return faultf(ErrShape, "b", "rank "+strconv.Itoa(len(a))+" like a (the batch axes of a)", "rank %d", len(b))
	}
	for d := 2; d < len(a); d++ {
		if a[d] != b[d] {
			return faultf(ErrShape, "b", "batch extents "+FmtInts(a[2:])+" like a", "shape %s", FmtInts(b))
		}
	}
	return nil
}

// flagInts checks that a.Ints holds n flags (0 or 1), missing ones 0.
func flagInts(a *Attrs, n int, names string) *Fault {
	if len(a.Ints) > n {
		return faultf(ErrArgument, "flags", strconv.Itoa(n)+" flags ("+names+")", "%d", len(a.Ints))
	}
	for len(a.Ints) < n {
		a.Ints = append(a.Ints, 0)
	}
	for _, v := range a.Ints {
		if v != 0 && v != 1 {
			return faultf(ErrArgument, "flags", "0 or 1 ("+names+")", "%v", a.Ints)
		}
	}
	return nil
}

// linalgShape is the shape rule of the Linalg operations.
func linalgShape(k Kind, a *Attrs, in [][]int) ([]int, *Fault) {
	x := in[0]
	switch k {
	case Cholesky, Inv, Expm, EighVectors, EighValues, Det, SlogDetSign, SlogDetLogAbs:
		n, f := SquareMatrices("a", x)
		if f != nil {
			return nil, f
		}
		if k == Cholesky || k == EighValues || k == EighVectors {
			if f := flagInts(a, 1, "upper"); f != nil {
				return nil, f
			}
		}
		switch k {
		case EighValues:
			return append([]int{n}, x[2:]...), nil
		case Det, SlogDetSign, SlogDetLogAbs:
			return append([]int{}, x[2:]...), nil
		}
		return append([]int{}, x...), nil
	case Solve, SolveTriangular:
		n, f := SquareMatrices("a", x)
		if f != nil {
			return nil, f
		}
		b := in[1]
		if f := matrixRank("b", b); f != nil {
			return nil, f
		}
		if f := sameBatch(x, b); f != nil {
			return nil, f
		}
		left := true
		if k == SolveTriangular {
			if f := flagInts(a, 3, "upper, left, unit"); f != nil {
				return nil, f
			}
			left = a.Ints[1] == 1
		}
		if left && b[0] != n {
			return nil, faultf(ErrShape, "b", strconv.Itoa(n)+" rows (a is "+FmtInts(x)+")", "shape %s", FmtInts(b))
		}
		if !left && b[1] != n {
			return nil, faultf(ErrShape, "b", strconv.Itoa(n)+" columns (a is "+FmtInts(x)+")", "shape %s", FmtInts(b))
		}
		return append([]int{}, b...), nil
	case SVDU, SVDS, SVDVh, QRQ, QRR, Pinv:
		if f := matrixRank("a", x); f != nil {
			return nil, f
		}
		m, n := x[0], x[1]
		r := min(m, n)
		switch k {
		case SVDU, QRQ:
			if k == QRQ {
				if f := flagInts(a, 1, "positive"); f != nil {
					return nil, f
				}
			}
			return append([]int{m, r}, x[2:]...), nil
		case SVDS:
			return append([]int{r}, x[2:]...), nil
		case Pinv:
			if rc := real(a.Alpha); imag(a.Alpha) != 0 || rc != rc {
				return nil, faultf(ErrArgument, "rcond", "a real rcond (< 0: machine precision)", "%v", a.Alpha)
			}
			return append([]int{n, m}, x[2:]...), nil
		case QRR:
			if f := flagInts(a, 1, "positive"); f != nil {
				return nil, f
			}
		}
		return append([]int{r, n}, x[2:]...), nil
	case GaugeCheck:
		if len(in[1]) != len(in[2]) {
			return nil, faultf(ErrShape, "scale", "the shape of g "+FmtInts(in[1]), "shape %s", FmtInts(in[2]))
		}
		for d := range in[1] {
			if in[1][d] != in[2][d] {
				return nil, faultf(ErrShape, "scale", "the shape of g "+FmtInts(in[1]), "shape %s", FmtInts(in[2]))
			}
		}
		if tol := a.Alpha; imag(tol) != 0 || !(real(tol) >= 0) {
			return nil, faultf(ErrArgument, "tol", "a real tolerance >= 0", "%v", tol)
		}
		return append([]int{}, x...), nil
	}
	return nil, faultf(ErrArgument, "k", "a linear-algebra operation", "%v", k)
}
