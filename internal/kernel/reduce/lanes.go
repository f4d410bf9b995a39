package reduce

import "math"

// Lane kernels: the unit-stride inner loops of Sum, SumSquares, Norm2,
// SumSquaredDeviations, Max, Min, MaxAbs and Arg over float32 and float64.
//
// A sum of a contiguous row is split into blocks of lanes*blockTerms
// elements, combined pairwise (halves of whole blocks, recursively). Within
// a block, element j goes to lane j mod lanes (32 for float64 results, 64
// for float32 sums), each lane adds its blockTerms terms in order, and the
// lanes are combined pairwise (combine). The error of a block is thus that
// of blockTerms + log2(lanes) sequential additions, and of a row of n
// terms about (blockTerms + log2(lanes) + log2(n/block)) * eps * sum|x_j|:
// the same bound as blocks of 128 with four interleaved accumulators.
//
// The lane order is part of the contract: the assembly kernels
// (lanes_amd64.s, AVX-512 and AVX2, chosen at start-up) and their Go twins
// (addLanes, ssqLanes) perform the same operations in the same order, so
// every implementation returns the same bits. Squares are fused
// (math.FMA). The extrema are exact in any order.

// The implementations, slowest first.
const (
	implGo = iota
	implAVX2
	implAVX512
)

// impl is the implementation in use: bestImpl, lowered by tests to check
// each against the Go twins.
var impl = bestImpl

// blockTerms is the number of terms each lane adds in a block.
const blockTerms = 32

// blockLen returns the length of a block of F: 1024 float64 or 2048
// float32 elements (float32 sums have 64 lanes of float32).
func blockLen[F Float]() int {
	var z F
	if _, ok := any(z).(float32); ok {
		return 64 * blockTerms
	}
	return 32 * blockTerms
}

// addLanes sets acc[j%len(acc)] += x[j], in order of j.
func addLanes[F Float](acc, x []F) {
	for len(x) > 0 {
		m := min(len(acc), len(x))
		a := acc[:m]
		for l, v := range x[:m] {
			a[l] += v
		}
		x = x[m:]
	}
}

// ssqLanes sets acc[j%len(acc)] = fma(d, d, acc[j%len(acc)]) for
// d = x[j] - c, in order of j.
func ssqLanes[F Float](acc []float64, x []F, c float64) {
	for len(x) > 0 {
		m := min(len(acc), len(x))
		a := acc[:m]
		for l, v := range x[:m] {
			d := float64(v) - c
			a[l] = math.FMA(d, d, a[l])
		}
		x = x[m:]
	}
}

// combine returns the pairwise sum of the lanes acc (len a power of 2),
// overwriting them: lane i takes lane i+w for w = len/2, len/4, ..., 1.
func combine[F Float](acc []F) F {
	for w := len(acc) / 2; w > 0; w /= 2 {
		a, b := acc[:w], acc[w:2*w]
		for i := range a {
			a[i] += b[i]
		}
	}
	return acc[0]
}

// halfBlocks returns the length of the first half of n elements split at
// a whole number of blocks of b (0 when n fits one block).
func halfBlocks(n, b int) int {
	if n <= b {
		return 0
	}
	return (n + b - 1) / b / 2 * b
}

// sumUnit returns sum_j x[j] (see the lane scheme above).
func sumUnit[F Float](x []F) F {
	if h := halfBlocks(len(x), blockLen[F]()); h > 0 {
		return sumUnit(x[:h]) + sumUnit(x[h:])
	}
	switch x := any(x).(type) {
	case []float64:
		k := len(x) &^ 31
		var pad [32]float64
		p := &pad
		if !padTail(pad[:], x[k:], 0) {
			p = nil
		}
		if s, ok := archSumBlock64(x[:k], p); ok {
			return F(s)
		}
		var acc [32]float64
		addLanes(acc[:], x)
		return F(combine(acc[:]))
	case []float32:
		k := len(x) &^ 63
		var pad [64]float32
		p := &pad
		if !padTail(pad[:], x[k:], 0) {
			p = nil
		}
		if s, ok := archSumBlock32(x[:k], p); ok {
			return F(s)
		}
		var acc [64]float32
		addLanes(acc[:], x)
		return F(combine(acc[:]))
	}
	return 0
}

// padTail copies tail into pad followed by fill (the element that adds
// nothing to a lane) and reports whether tail is not empty.
func padTail[F Float](pad, tail []F, fill F) bool {
	if len(tail) == 0 {
		return false
	}
	copy(pad, tail)
	for i := len(tail); i < len(pad); i++ {
		pad[i] = fill
	}
	return true
}

// sumReal returns sumUnit(x) and true when T is a real type.
func sumReal[T any](x []T) (T, bool) {
	var r T
	switch p := any(&r).(type) {
	case *float64:
		*p = sumUnit(any(x).([]float64))
		return r, true
	case *float32:
		*p = sumUnit(any(x).([]float32))
		return r, true
	}
	return r, false
}

// ssqUnit returns the sum of squares of x[j] - c formed in float64, in
// blocks of 1024 (lanes as above) combined pairwise: a block is summed
// unscaled when that sum lies in [fastLo, fastHi], else with Blue's scaling
// (ssqScaled), and a block of zeros (c = 0) gives 0 at once.
func ssqUnit[F Float](x []F, c float64) ssq {
	if h := halfBlocks(len(x), 32*blockTerms); h > 0 {
		return addSSQ(ssqUnit(x[:h], c), ssqUnit(x[h:], c))
	}
	if f := ssqBlock(x, c); f >= fastLo && f <= fastHi {
		return ssq{med: f}
	}
	if c == 0 && extUnit(extMaxAbs, x) == 0 {
		return ssq{}
	}
	return ssqScaled(x, c)
}

// ssqBlock returns the unscaled lane sum of (x[j] - c)^2 of one block.
func ssqBlock[F Float](x []F, c float64) float64 {
	k := len(x) &^ 31
	switch x := any(x).(type) {
	case []float64:
		var pad [32]float64
		p := &pad
		if !padTail(pad[:], x[k:], c) {
			p = nil
		}
		if s, ok := archSsqBlock64(x[:k], p, c); ok {
			return s
		}
	case []float32:
		var pad [32]float32
		p := &pad
		if !padTail(pad[:], x[k:], float32(c)) {
			p = nil
		}
		if s, ok := archSsqBlock32(x[:k], p, c); ok {
			return s
		}
	}
	var acc [32]float64
	ssqLanes(acc[:], x, c)
	return combine(acc[:])
}

// ssqScaled returns the sum of squares of x[j] - c with Blue's scaling.
func ssqScaled[F Float](x []F, c float64) ssq {
	var q ssq
	for _, v := range x {
		q = q.plus(float64(v) - c)
	}
	return q
}

// extKind selects an extremum: max, min, or max |.|.
type extKind uint8

const (
	extMax extKind = iota
	extMin
	extMaxAbs
)

// extUnit returns the maximum (extMax), minimum (extMin) or maximum
// modulus (extMaxAbs) of x with the built-in max and min semantics: NaN
// when an element is NaN, and max(-0, +0) = +0 = -min(+0, -0). It returns
// the identity (-Inf, +Inf or 0) for an empty x.
func extUnit[F Float](k extKind, x []F) F {
	var m F
	var n int
	switch x := any(x).(type) {
	case []float64:
		var acc [8]float64
		fillExt(k, acc[:])
		n = archExt64(k, &acc, x)
		m = F(extLanes(k, acc[0], acc[1:]))
	case []float32:
		var acc [16]float32
		fillExt(k, acc[:])
		n = archExt32(k, &acc, x)
		m = F(extLanes(k, acc[0], acc[1:]))
	}
	m = extLanes(k, m, x[n:])
	if m == 0 && n > 0 && impl == implAVX2 && k != extMaxAbs {
		// VMAXP/VMINP do not order the zeros: the sign of a zero result
		// is decided here.
		m = zeroSign(k, x)
	}
	return m
}

// fillExt sets acc to the identity of k.
func fillExt[F Float](k extKind, acc []F) {
	id := F(0)
	switch k {
	case extMax:
		id = F(math.Inf(-1))
	case extMin:
		id = F(math.Inf(1))
	}
	for i := range acc {
		acc[i] = id
	}
}

// extLanes folds x into m with the extremum k (the Go twin of the kernels).
func extLanes[F Float](k extKind, m F, x []F) F {
	switch k {
	case extMax:
		for _, v := range x {
			m = max(m, v)
		}
	case extMin:
		for _, v := range x {
			m = min(m, v)
		}
	default:
		for _, v := range x {
			m = max(m, F(math.Abs(float64(v))))
		}
	}
	return m
}

// zeroSign returns the extremum k (extMax or extMin) of x given that it is
// a zero: +0 for the maximum when x holds a +0 (else -0), -0 for the
// minimum when x holds a -0 (else +0).
func zeroSign[F Float](k extKind, x []F) F {
	neg := k == extMin
	for _, v := range x {
		if v == 0 && math.Signbit(float64(v)) == neg {
			return v
		}
	}
	if neg {
		return 0
	}
	return F(math.Copysign(0, -1))
}
