package linalg

import (
	"math"
	"math/cmplx"
	"slices"
	"sync"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
)

// ExpmVOptions configure [ExpmV].
type ExpmVOptions struct {
	// Hermitian selects the Lanczos process (three-term recurrence) for a
	// Hermitian operator; otherwise the Arnoldi process (full
	// orthogonalization) serves any operator.
	Hermitian bool
	// MaxDim is the largest Krylov dimension m of a step (default 30,
	// clamped to the dimension N of the space); a step stops at a smaller
	// dimension when its error estimate is met there.
	MaxDim int
	// Tol bounds the relative error: a step over the fraction τ of t is
	// accepted when its error estimate is at most τ·Tol·‖w‖ for the vector
	// w it propagates, so that the relative local errors sum to about Tol.
	// The local bound τ·Tol is floored at 16 units of roundoff of T, which
	// the estimate cannot resolve, so that many short steps add up to more
	// than Tol. 0 selects 1e-12 for float64 and complex128 and 1e-6 for
	// float32 and complex64.
	Tol float64
	// MaxSteps bounds the accepted steps (default 1000); MaxSteps + 100
	// bounds the trials, rejected ones included. Reaching either fails
	// with ErrNoConvergence.
	MaxSteps int
}

// ExpmVInfo reports how [ExpmV] went.
type ExpmVInfo struct {
	// Steps counts the accepted steps and Rejected the rejected trials.
	Steps, Rejected int
	// Matvecs counts the calls of apply.
	Matvecs int
	// ErrEstimate is the sum of the steps' a-posteriori error estimates
	// relative to the vector each step propagates (Saad's estimate
	// |τ·h_{m+1,m}·e_mᵀ·φ₁(τ·t·H_m)·e₁| for the projected H_m): about
	// ‖x − exp(t·A)·v‖₂/‖x‖₂ when A is normal.
	ErrEstimate float64
	// Breakdown reports that a Krylov space was invariant, so that a step
	// was exact (to rounding).
	Breakdown bool
}

// ExpmV returns x = exp(t·A)·v for the linear map apply, by Krylov
// projection with adaptive time steps (Saad, SIAM J. Numer. Anal. 29(1),
// 1992; Hochbruck and Lubich, SIAM J. Numer. Anal. 34(5), 1997; the step
// control of Sidje's Expokit, ACM TOMS 24(1), 1998): from the current
// w ≈ exp(s·t·A)·v, up to m steps of the Arnoldi (or, with
// opts.Hermitian, Lanczos) process give A·Vₘ = Vₘ·Hₘ + h·vₘ₊₁·eₘᵀ (the
// process stops sooner once the estimate of the step it is built for is
// met, so short steps cost few products with A), and a step over the
// fraction τ of t takes w ← ‖w‖·Vₘ·exp(τ·t·Hₘ)·e₁, the small exponential
// computed by lapack.Expm on the bordered (m+1)×(m+1) matrix that also
// yields Saad's error estimate. A step is accepted when its estimate,
// relative to ‖w‖, is at most τ·Tol, and the next τ chosen from the
// estimate's growth as τᵐ; so a large ‖t·A‖ is crossed in several steps of
// a bounded Krylov dimension. An invariant Krylov space ends the iteration
// exactly. Each step costs m products with A and, for Arnoldi, m²·N
// multiply-adds of orthogonalization (Lanczos: about 8·m·N).
//
// t is complex128 so that real-time evolution exp(−i·H·dt)·v works for
// complex T; for real T, t must be real. v may be any tensor (not
// modified); x has v's shape, compact, from e's pool. t = 0 returns a copy
// of v and v = 0 a zero x without calling apply. A NaN or Inf from apply
// (or in v or t) fails with tf.ErrArgument, an error of apply is returned
// wrapped, and reaching MaxSteps fails with [ErrNoConvergence].
func ExpmV[T tf.Scalar](e tf.Engine, apply Operator[T], t complex128, v *tf.Tensor[T], opts ExpmVOptions) (*tf.Tensor[T], ExpmVInfo, error) {
	var info ExpmVInfo
	if err := live("ExpmV", "v", v); err != nil {
		return nil, info, err
	}
	x, err := allocRun(e, v.Shape(), func(x *tf.Tensor[T]) error {
		var err error
		info, err = expmVInto(e, "ExpmV", x, apply, t, v, opts)
		return err
	})
	return x, info, err
}

// ExpmVInto sets dst = exp(t·A)·v (see [ExpmV]). dst has v's shape,
// distinct elements, and does not overlap v; it may be any such view. It
// is written only on success. The Krylov basis comes from a pool per
// element type, so that a warm call of a size seen before allocates
// nothing (apply's own allocations aside); [KrylovExp] keeps it
// explicitly.
func ExpmVInto[T tf.Scalar](e tf.Engine, dst *tf.Tensor[T], apply Operator[T], t complex128, v *tf.Tensor[T], opts ExpmVOptions) (ExpmVInfo, error) {
	return expmVInto(e, "ExpmVInto", dst, apply, t, v, opts)
}

var expPools [4]sync.Pool

func expmVInto[T tf.Scalar](e tf.Engine, name string, dst *tf.Tensor[T], apply Operator[T], t complex128, v *tf.Tensor[T], opts ExpmVOptions) (ExpmVInfo, error) {
	k, _ := expPools[dtIndex[T]()].Get().(*KrylovExp[T])
	if k == nil {
		k = new(KrylovExp[T])
	}
	info, err := k.run(e, name, dst, apply, t, v, opts)
	expPools[dtIndex[T]()].Put(k)
	return info, err
}

// KrylovExp is the reusable state of [ExpmV]: the Krylov basis, the
// projected matrices and the small exponential's workspace, grown on
// demand. A warm KrylovExp called for vectors of the previous call's
// shape, with a Krylov dimension no larger than any before, allocates
// nothing (apply's own allocations aside); a new shape rebuilds the basis
// tensors' headers. The zero value is ready to use; not safe for
// concurrent use.
type KrylovExp[T tf.Scalar] struct {
	n, m  int
	shape []int
	buf   []T // m+1 basis columns, then w
	vecs  []*tf.Tensor[T]
	wt    *tf.Tensor[T]
	h     []complex128 // (m+1)×m Hessenberg, column-major, ld m+1
	a, f  []complex128 // (m+1)×(m+1) argument and value of the exponential
	y     []T
	ws    lapack.Workspace
	c     []complex128
	herm  bool
}

// ExpmVInto is [ExpmVInto] on the reusable state k.
func (k *KrylovExp[T]) ExpmVInto(e tf.Engine, dst *tf.Tensor[T], apply Operator[T], t complex128, v *tf.Tensor[T], opts ExpmVOptions) (ExpmVInfo, error) {
	return k.run(e, "ExpmVInto", dst, apply, t, v, opts)
}

func (k *KrylovExp[T]) run(e tf.Engine, name string, dst *tf.Tensor[T], apply Operator[T], t complex128, v *tf.Tensor[T], opts ExpmVOptions) (ExpmVInfo, error) {
	var info ExpmVInfo
	if e == nil {
		return info, tf.Errorf(tf.ErrArgument, name, "e", "an engine", "nil")
	}
	if apply == nil {
		return info, tf.Errorf(tf.ErrArgument, name, "apply", "an operator", "nil")
	}
	if err := live(name, "v", v); err != nil {
		return info, err
	}
	if err := checkDst(name, "dst", dst, v.Shape(), spanOf("v", v)); err != nil {
		return info, err
	}
	switch {
	case cmplx.IsNaN(t) || cmplx.IsInf(t):
		return info, tf.Errorf(tf.ErrArgument, name, "t", "a finite t", "%v", t)
	case imag(t) != 0 && !tf.DTypeOf[T]().IsComplex():
		return info, tf.Errorf(tf.ErrArgument, name, "t", "a real t for a real dtype", "%v", t)
	case opts.Tol < 0 || math.IsNaN(opts.Tol):
		return info, tf.Errorf(tf.ErrArgument, name, "opts.Tol", "Tol ≥ 0", "%g", opts.Tol)
	case opts.MaxDim < 0:
		return info, tf.Errorf(tf.ErrArgument, name, "opts.MaxDim", "MaxDim ≥ 0", "%d", opts.MaxDim)
	case opts.MaxSteps < 0:
		return info, tf.Errorf(tf.ErrArgument, name, "opts.MaxSteps", "MaxSteps ≥ 0", "%d", opts.MaxSteps)
	}
	n := v.Len()
	m := opts.MaxDim
	if m == 0 {
		m = 30
	}
	m = max(min(m, n), 1)
	tol := opts.Tol
	if tol == 0 {
		tol = 1e-12
		if unitRoundoff[T]() > 1e-10 {
			tol = 1e-6
		}
	}
	tol = max(tol, 4*unitRoundoff[T]())
	maxSteps := opts.MaxSteps
	if maxSteps == 0 {
		maxSteps = 1000
	}
	if err := k.reserve(v, m); err != nil {
		return info, err
	}
	if n == 0 {
		return info, nil
	}
	w := k.buf[(k.m+1)*n : (k.m+2)*n]
	if err := tf.CopyInto(e, k.wt, v); err != nil {
		return info, tf.WrapError(name, "v", err)
	}
	vnorm := nrm2(w)
	if math.IsNaN(vnorm) || math.IsInf(vnorm, 0) {
		return info, tf.Errorf(tf.ErrArgument, name, "v", "finite entries", "a NaN or Inf")
	}
	k.herm = opts.Hermitian
	if t != 0 && vnorm != 0 {
		if err := k.evolve(name, apply, t, m, tol, maxSteps, &info); err != nil {
			return info, err
		}
	}
	if err := tf.CopyInto(e, dst, k.wt); err != nil {
		return info, tf.WrapError(name, "dst", err)
	}
	return info, nil
}

// reserve sizes k for vectors of v's shape and dimension m.
func (k *KrylovExp[T]) reserve(v *tf.Tensor[T], m int) error {
	n := v.Len()
	if n == k.n && m <= k.m && slices.Equal(k.shape, v.Shape()) {
		return nil
	}
	mm := max(m, k.m)
	k.n, k.shape = n, slices.Clone(v.Shape())
	if len(k.buf) < (mm+2)*n {
		k.buf = make([]T, (mm+2)*n)
	}
	k.vecs = k.vecs[:0]
	for j := 0; j <= mm+1; j++ {
		x, err := tf.FromSlice(k.buf[j*n:(j+1)*n], k.shape...)
		if err != nil {
			return err
		}
		k.vecs = append(k.vecs, x)
	}
	k.wt = k.vecs[mm+1]
	if mm > k.m || k.h == nil {
		k.h = make([]complex128, (mm+1)*mm)
		k.a, k.f = make([]complex128, (mm+1)*(mm+1)), make([]complex128, (mm+1)*(mm+1))
		k.y, k.c = make([]T, mm+1), make([]complex128, mm+1)
	}
	k.m = mm
	return nil
}

// evolve advances w = buf's last column from v to exp(t·A)·v.
func (k *KrylovExp[T]) evolve(name string, apply Operator[T], t complex128, m int, tol float64, maxSteps int, info *ExpmVInfo) error {
	const (
		gamma = 0.9 // safety factor of the step-size prediction
		delta = 1.2 // slack of the acceptance test
	)
	n := k.n
	w := k.buf[(k.m+1)*n : (k.m+2)*n]
	at := cmplx.Abs(t)
	s, tau := 0.0, 0.0 // fraction of t done; fraction of the next step
	for trials := 0; s < 1; {
		beta := nrm2(w)
		if beta == 0 {
			return nil
		}
		copy(k.buf[:n], w)
		scal(scalar[T](complex(1/beta, 0)), k.buf[:n])
		// The step the basis is built for: the predicted one, or the
		// rest of t at first; the build stops as soon as its estimate
		// meets the local tolerance.
		want := 1 - s
		if tau != 0 {
			want = min(tau, 1-s)
		}
		mm, hnext, anorm, early, err := k.arnoldi(name, apply, m, complex(want, 0)*t, max(want*tol, 16*unitRoundoff[T]()), info)
		if err != nil {
			return err
		}
		if early {
			tau = want
		}
		if tau == 0 {
			// Expokit's first step: the error bound of the degree-m
			// Taylor-like estimate for ‖τ·t·A‖.
			xm := 1 / float64(m)
			fact := math.Pow(float64(m+1)/math.E, float64(m+1)) * math.Sqrt(2*math.Pi*float64(m+1))
			tau = 1.0
			if anorm > 0 {
				tau = math.Min(1, (1/(anorm*at))*math.Pow(fact*tol/(4*anorm*at), xm))
			}
			tau = max(tau, 1e-12)
		}
		exact := hnext == 0
		if exact {
			info.Breakdown = true
		}
		for {
			if trials >= maxSteps+100 || info.Steps >= maxSteps {
				return tf.Errorf(ErrNoConvergence, name, "", "exp(t·A)·v to a relative "+fmtG(tol), "%d of %d steps and %d trials done at fraction %.3g of t", info.Steps, maxSteps, trials, s)
			}
			trials++
			tau = min(tau, 1-s)
			if exact {
				tau = 1 - s
			}
			est := k.smallExp(mm, hnext, complex(tau, 0)*t) // relative to β
			if math.IsNaN(est) {
				return tf.Errorf(tf.ErrArgument, name, "apply", "finite results", "a NaN in the projected exponential")
			}
			// The local tolerance, floored at the rounding level that the
			// estimate cannot resolve.
			loc := max(tau*tol, 16*unitRoundoff[T]())
			if exact || est <= delta*loc {
				// Accept: w = β·V·exp(τ·t·H)·e₁.
				for i := 0; i < mm; i++ {
					k.y[i] = scalar[T](complex(beta, 0) * k.f[i])
				}
				vm := gemm.Mat[T]{Data: k.buf, RS: 1, CS: n}
				gemm.Gemm(&k.ws.Gemm, nil, n, 1, mm, 1, vm, gemm.Mat[T]{Data: k.y, RS: 1, CS: mm}, 0, gemm.Mat[T]{Data: w, RS: 1, CS: n})
				s += tau
				if 1-s < 1e-14 {
					s = 1
				}
				info.Steps++
				info.ErrEstimate += est
				tau = k.nextTau(tau, est, loc, gamma, mm)
				break
			}
			info.Rejected++
			tau = k.nextTau(tau, est, loc, gamma, mm)
		}
	}
	return nil
}

// nextTau predicts the step fraction whose estimate meets the local
// tolerance loc from the last one's, the estimate per unit step growing as
// τᵐ (Expokit's rule), within [τ/10, 5τ].
func (k *KrylovExp[T]) nextTau(tau, est, loc, gamma float64, m int) float64 {
	if est == 0 {
		return 2 * tau
	}
	r := gamma * tau * math.Pow(loc/est, 1/float64(m))
	return min(max(r, tau/10), 5*tau)
}

// arnoldi builds the orthonormal basis v₀ … v_mm of the Krylov space of
// A and v₀ (column 0 of buf, unit) and the (mm+1)×mm Hessenberg matrix in
// k.h, by the Arnoldi process (modified Gram–Schmidt, twice) or, for a
// Hermitian operator, the Lanczos recurrence (orthogonalization against
// the last two vectors, twice). It returns mm (less than m when the space
// is invariant, then hnext = 0), hnext = h_{mm+1,mm} and ‖A‖'s estimate
// max ‖A·vⱼ‖. From two vectors on it stops early, reporting early, when
// Saad's estimate for the step exp(c·A) meets loc (k.f then holds that
// step's small exponential): a short step costs few products.
func (k *KrylovExp[T]) arnoldi(name string, apply Operator[T], m int, c complex128, loc float64, info *ExpmVInfo) (mm int, hnext, anorm float64, early bool, err error) {
	n, ld := k.n, k.m+1
	clear(k.h)
	for j := 0; j < m; j++ {
		if err := apply(k.vecs[j+1], k.vecs[j]); err != nil {
			return 0, 0, 0, false, tf.WrapError(name, "apply", err)
		}
		info.Matvecs++
		w := k.buf[(j+1)*n : (j+2)*n]
		lo := 0
		if k.herm {
			lo = max(j-1, 0)
		}
		before, after := orthogonalize(k.buf[lo*n:], j+1-lo, w, k.c[lo:])
		if math.IsNaN(before) || math.IsInf(before, 0) || math.IsNaN(after) {
			return 0, 0, 0, false, tf.Errorf(tf.ErrArgument, name, "apply", "finite results", "a NaN or Inf in A·v at matrix-vector product %d", info.Matvecs)
		}
		anorm = max(anorm, before)
		if k.herm {
			k.h[j+j*ld] = complex(real(k.c[j]), 0)
			if j > 0 {
				k.h[j-1+j*ld] = k.h[j+(j-1)*ld]
			}
		} else {
			copy(k.h[j*ld:j*ld+j+1], k.c[:j+1])
		}
		if after <= 8*unitRoundoff[T]()*anorm*math.Sqrt(float64(j+1)) {
			return j + 1, 0, anorm, false, nil
		}
		scal(scalar[T](complex(1/after, 0)), w)
		k.h[j+1+j*ld] = complex(after, 0)
		hnext = after
		if j+1 >= 2 && j+1 < m && k.smallExp(j+1, after, c) <= loc {
			return j + 1, after, anorm, true, nil
		}
	}
	return m, hnext, anorm, false, nil
}

// smallExp sets k.f to exp(c·Ĥ) for the bordered (mm+1)×(mm+1)
// Ĥ = [H 0; hnext·eₘᵀ 0] and returns Saad's estimate |exp(c·Ĥ)[mm, 0]| =
// |c·hnext·eₘᵀ·φ₁(c·H)·e₁| (NaN when the exponential overflowed).
func (k *KrylovExp[T]) smallExp(mm int, hnext float64, c complex128) float64 {
	p, ld := mm+1, k.m+1
	a := k.a[:p*p]
	clear(a)
	for j := 0; j < mm; j++ {
		for i := 0; i <= min(j+1, mm-1); i++ {
			a[i+j*p] = c * k.h[i+j*ld]
		}
	}
	a[mm+(mm-1)*p] = c * complex(hnext, 0)
	am := gemm.Mat[complex128]{Data: a, RS: 1, CS: p}
	fm := gemm.Mat[complex128]{Data: k.f[:p*p], RS: 1, CS: p}
	if lapack.Expm(&k.ws, nil, p, am, fm) != 0 {
		return math.NaN()
	}
	return cmplx.Abs(k.f[mm])
}
