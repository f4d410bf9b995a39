package tenferro

import (
	"fmt"
	"github.com/tenferro-go/tenferro/backend"
	"math"
	"math/rand/v2"

	"github.com/tenferro-go/tenferro/internal/op"
)

// The Into forms of the creation routines (see create.go). Each writes
// the values of its constructor into a destination the caller holds,
// typically one from the engine's pool that a loop reuses; with a warm
// engine none allocates. dst may be any view with distinct elements
// (transposed, reversed, stepped, part of a larger tensor); the values go
// to its elements in their logical column-major order, the order of
// [Tensor.Data] for a compact tensor, so a compact dst receives exactly
// what the constructor returns. Validation comes first, in a fixed order
// (dst, then the other arguments in order, then the engine): a failed
// call leaves dst, and the generator of the random forms, untouched.
// Every form claims the engine like any other operation, so concurrent
// use of one engine fails with ErrEngineBusy.
//
// There are no ZerosInto or OnesInto: FillInto(e, dst, 0) and
// FillInto(e, dst, 1) (false and true for bool) are those.

// checkOut validates the destination of a creation Into form: a live
// tensor of the given rank (any rank when rank < 0) whose elements are
// distinct.
func checkOut[T Elem](name string, dst *Tensor[T], rank int) error {
	if err := dst.check(name, "dst"); err != nil {
		return err
	}
	if rank >= 0 && len(dst.v.Shape) != rank {
		want := "a rank-1 tensor (a vector)"
		if rank == 2 {
			want = "a rank-2 tensor (a matrix)"
		}
		return newError(name, "dst", want, fmt.Sprintf("rank %d, shape %s", len(dst.v.Shape), op.FmtInts(dst.v.Shape)), ErrShape)
	}
	return checkDst(name, false, dst, dst.v.Shape, nil)
}

// checkRand validates the generator of a random Into form.
func checkRand(name string, r *rand.Rand) error {
	if r == nil {
		return newError(name, "r", "a generator", "nil", ErrArgument)
	}
	return nil
}

// FillInto sets every element of dst to v: the Into form of [Full], and
// of [Zeros] and [Ones] with v = 0 and 1 (false and true for bool). It
// runs the engine's fill kernel.
//
// Errors: ErrArgument for a nil dst or engine, ErrReleased for a released
// dst, ErrAlias when dst's elements are not distinct (a broadcast view),
// ErrEngineBusy and ErrUnsupported from the engine.
func FillInto[T Elem](e Engine, dst *Tensor[T], v T) error {
	const name = "FillInto"
	if err := checkOut(name, dst, -1); err != nil {
		return err
	}
	be, ks, err := claim[T](e, name)
	if err != nil {
		return err
	}
	if ks.Core == nil {
		err = unsupported[T](name, "storage")
	} else {
		err = ks.Core.Fill(dst.desc(), v)
	}
	be.End()
	return err
}

// EyeInto sets the n×m matrix dst to ones on its k-th diagonal and zeros
// elsewhere (true and false for bool): element (i, j) is 1 when
// j - i == k, as [EyeK] returns. k > 0 is above the main diagonal, k < 0
// below; k = 0 gives [Eye] and, for a square dst, [Identity].
//
// Errors: ErrShape when dst is not of rank 2, and those of [FillInto].
func EyeInto[T Elem](e Engine, dst *Tensor[T], k int) error {
	const name = "EyeInto"
	if err := checkOut(name, dst, 2); err != nil {
		return err
	}
	be, ks, err := claim[T](e, name)
	if err != nil {
		return err
	}
	var zero T
	if ks.Core == nil {
		err = unsupported[T](name, "storage")
	} else if err = ks.Core.Fill(dst.desc(), zero); err == nil {
		setDiagonal(&dst.v, k)
	}
	be.End()
	return err
}

// ArangeInto sets element i of the vector dst to start + i*step, computed
// as [Arange] computes it (in float64, never by repeated addition) and
// rounded once to T; complex T gets a zero imaginary part. A compact dst
// of n elements thus receives Arange(start, stop, step) for any stop that
// gives n elements. Step 0, which leaves Arange's count undefined, is
// allowed here: it sets every element to start.
//
// Errors: ErrShape when dst is not of rank 1; ErrArgument for a NaN or
// infinite start or step, and when the last value overflows float64 (all
// of Arange's values are finite); and those of [FillInto].
func ArangeInto[T Scalar](e Engine, dst *Tensor[T], start, step float64) error {
	const name = "ArangeInto"
	if err := checkOut(name, dst, 1); err != nil {
		return err
	}
	if err := finite(name, "start", start); err != nil {
		return err
	}
	if err := finite(name, "step", step); err != nil {
		return err
	}
	if n := dst.v.Shape[0]; n > 0 {
		// The values are monotone in i: the last one bounds them all.
		if last := arangeAt(start, step, n-1); math.IsInf(last, 0) {
			return newError(name, "step", "values start + i*step within the float64 range",
				fmt.Sprintf("%g at i = %d for start %g, step %g", last, n-1, start, step), ErrArgument)
		}
	}
	return fillClaimed(e, name, dst, func(v *backend.View[T]) { fillArange(v, start, step) })
}

// LinspaceInto sets the vector dst to Linspace(start, stop, n, endpoint)
// for n = len(dst): n evenly spaced values from start to stop, with the
// last one stop exactly when endpoint (see [Linspace] for the formula and
// its agreement with NumPy).
//
// Errors: ErrShape when dst is not of rank 1; ErrArgument for a NaN or
// infinite start or stop; and those of [FillInto].
func LinspaceInto[T Scalar](e Engine, dst *Tensor[T], start, stop float64, endpoint bool) error {
	const name = "LinspaceInto"
	if err := checkOut(name, dst, 1); err != nil {
		return err
	}
	if err := linspaceEnds(name, start, stop); err != nil {
		return err
	}
	return fillClaimed(e, name, dst, func(v *backend.View[T]) { fillLinspace(v, start, stop, endpoint) })
}

// LogspaceInto sets the vector dst to Logspace(start, stop, n, endpoint,
// base) for n = len(dst): base**y for y = Linspace(start, stop, n,
// endpoint), each power math.Pow in float64 rounded once to T (see
// [Logspace]).
//
// Errors: ErrShape when dst is not of rank 1; ErrArgument for a NaN or
// infinite start, stop or base; and those of [FillInto].
func LogspaceInto[T Scalar](e Engine, dst *Tensor[T], start, stop float64, endpoint bool, base float64) error {
	const name = "LogspaceInto"
	if err := checkOut(name, dst, 1); err != nil {
		return err
	}
	if err := linspaceEnds(name, start, stop); err != nil {
		return err
	}
	if err := finite(name, "base", base); err != nil {
		return err
	}
	return fillClaimed(e, name, dst, func(v *backend.View[T]) { fillLogspace(v, start, stop, endpoint, base) })
}

// RandInto sets the elements of dst, in column-major order, to values
// uniform in [0, 1) drawn from r (both parts for complex T), as
// [FillRand] fills a buffer: a compact dst filled from the generator of
// [Rand] with seed s, rand.New(rand.NewPCG(s, 0x74656e66)), receives
// Rand(s, shape...). The stream of r continues from call to call.
//
// Errors: ErrArgument for a nil r, and those of [FillInto].
func RandInto[T Scalar](e Engine, dst *Tensor[T], r *rand.Rand) error {
	const name = "RandInto"
	if err := checkOut(name, dst, -1); err != nil {
		return err
	}
	if err := checkRand(name, r); err != nil {
		return err
	}
	return fillClaimed(e, name, dst, func(v *backend.View[T]) { fillRand(v, r) })
}

// RandNInto sets the elements of dst, in column-major order, to standard
// normal values drawn from r, as [FillRandN] fills a buffer (the standard
// complex normal for complex T, two draws per element): a compact dst
// filled from rand.New(rand.NewPCG(s, 0x74656e66)) receives
// RandN(s, shape...).
//
// Errors: ErrArgument for a nil r, and those of [FillInto].
func RandNInto[T Scalar](e Engine, dst *Tensor[T], r *rand.Rand) error {
	const name = "RandNInto"
	if err := checkOut(name, dst, -1); err != nil {
		return err
	}
	if err := checkRand(name, r); err != nil {
		return err
	}
	return fillClaimed(e, name, dst, func(v *backend.View[T]) { fillRandN(v, r) })
}

// RandUniformInto sets the elements of dst, in column-major order, to
// values uniform in [lo, hi) drawn from r (both parts for complex T),
// computed as [RandUniform] computes them: a compact dst filled from
// rand.New(rand.NewPCG(s, 0x74656e66)) receives RandUniform(s, lo, hi,
// shape...), and every value v satisfies T(lo) <= v < T(hi).
//
// Errors: ErrArgument for a nil r and for lo and hi as [RandUniform]
// rejects them, and those of [FillInto].
func RandUniformInto[T Scalar](e Engine, dst *Tensor[T], r *rand.Rand, lo, hi float64) error {
	const name = "RandUniformInto"
	if err := checkOut(name, dst, -1); err != nil {
		return err
	}
	if err := checkRand(name, r); err != nil {
		return err
	}
	u, err := uniformArgs[T](name, lo, hi)
	if err != nil {
		return err
	}
	return fillClaimed(e, name, dst, func(v *backend.View[T]) { fillUniform(v, r, u) })
}

// fillClaimed claims e for operation name, runs fill on dst's view and ends
// the claim: the tail of the creation Into forms, after their checks.
func fillClaimed[T Scalar](e Engine, name string, dst *Tensor[T], fill func(*backend.View[T])) error {
	be, _, err := claim[T](e, name)
	if err != nil {
		return err
	}
	defer be.End()
	fill(&dst.v)
	return nil
}
