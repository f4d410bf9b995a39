package gemm

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tenferro-go/tenferro/internal/par"
)

// testRunner is a minimal par.Runner with persistent worker goroutines, so
// that a Run allocates nothing.
type testRunner struct {
	width int
	jobs  []chan testJob
	done  chan struct{}
	busy  atomic.Bool
	wg    sync.WaitGroup
}

type testJob struct {
	t        par.Task
	p, parts int
}

func newTestRunner(t testing.TB, width int) *testRunner {
	r := &testRunner{width: width, done: make(chan struct{}, width)}
	for i := 1; i < width; i++ {
		ch := make(chan testJob)
		r.jobs = append(r.jobs, ch)
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			for j := range ch {
				j.t.RunPart(j.p, j.parts)
				r.done <- struct{}{}
			}
		}()
	}
	t.Cleanup(func() {
		for _, ch := range r.jobs {
			close(ch)
		}
		r.wg.Wait()
	})
	return r
}

func (r *testRunner) Width() int { return r.width }

func (r *testRunner) Run(t par.Task, parts int) {
	parts = max(1, min(parts, r.width))
	if !r.busy.CompareAndSwap(false, true) {
		for p := 0; p < parts; p++ {
			t.RunPart(p, parts)
		}
		return
	}
	for p := 1; p < parts; p++ {
		r.jobs[p-1] <- testJob{t, p, parts}
	}
	t.RunPart(0, parts)
	for p := 1; p < parts; p++ {
		<-r.done
	}
	r.busy.Store(false)
}

func toC128[T Scalar](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	default:
		return any(v).(complex128)
	}
}

func fromC128[T Scalar](v complex128) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(float32(real(v))).(T)
	case float64:
		return any(real(v)).(T)
	case complex64:
		return any(complex64(v)).(T)
	default:
		return any(v).(T)
	}
}

func epsOf[T Scalar]() float64 {
	var z T
	switch any(z).(type) {
	case float32, complex64:
		return 0x1p-23
	}
	return 0x1p-52
}

func randScalar[T Scalar](rng *rand.Rand) T {
	return fromC128[T](complex(rng.Float64()*2-1, rng.Float64()*2-1))
}

// layout names how a test matrix is laid out in its backing array.
type layout int

const (
	colMajor   layout = iota // RS=1, CS=rows+pad
	transposed               // RS=cols+pad, CS=1
	strided                  // RS=2, CS=2*rows+3
	negative                 // RS=-1, CS=-(rows+2)
	zeroCol                  // RS=1, CS=0 (read operands only: all columns alike)
	dense                    // RS=1, CS=rows (contiguous column-major)
	nLayouts
)

func (l layout) String() string {
	return [...]string{"colmajor", "transposed", "strided", "negative", "zerocol", "dense"}[l]
}

// matGuard is the number of spare backing elements makeMat leaves on each
// side of a matrix.
var matGuard = 5

// makeMat returns a rows×cols matrix in layout l inside a backing array with
// guard space on both sides; every backing element is set to fill(idx).
func makeMat[T Scalar](rows, cols int, l layout, fill func() T) Mat[T] {
	guard := matGuard
	var m Mat[T]
	var span int // max index offset from Off reached by (rows-1, cols-1)
	switch l {
	case colMajor:
		m.RS, m.CS = 1, rows+1
	case transposed:
		m.RS, m.CS = cols+1, 1
	case strided:
		m.RS, m.CS = 2, 2*rows+3
	case negative:
		m.RS, m.CS = -1, -(rows + 2)
	case zeroCol:
		m.RS, m.CS = 1, 0
	case dense:
		m.RS, m.CS = 1, rows
	}
	lo, hi := 0, 0
	if rows > 0 && cols > 0 {
		for _, v := range []int{(rows - 1) * m.RS, (cols - 1) * m.CS, (rows-1)*m.RS + (cols-1)*m.CS} {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	span = hi - lo + 1
	m.Off = guard - lo
	m.Data = make([]T, span+2*guard)
	for i := range m.Data {
		m.Data[i] = fill()
	}
	return m
}

// members reports which backing indices belong to the rows×cols matrix.
func members[T Scalar](m Mat[T], rows, cols int) []bool {
	in := make([]bool, len(m.Data))
	for j := 0; j < cols; j++ {
		for i := 0; i < rows; i++ {
			in[m.Off+i*m.RS+j*m.CS] = true
		}
	}
	return in
}

func at[T Scalar](m Mat[T], i, j int) T { return m.Data[m.Off+i*m.RS+j*m.CS] }

func isFinite(v complex128) bool {
	return !math.IsNaN(real(v)) && !math.IsNaN(imag(v)) && !math.IsInf(real(v), 0) && !math.IsInf(imag(v), 0)
}

// checkGemm compares C (after the product) with the complex128 reference
// computed from A, B and the original C0, and checks that every backing
// element outside the m×n range of C is unchanged.
func checkGemm[T Scalar](t *testing.T, name string, m, n, k int, alpha T, a, b Mat[T], beta T, c0, c Mat[T]) {
	t.Helper()
	eps := epsOf[T]()
	factor := 1.0
	if isComplex[T]() {
		factor = 4
	}
	al, be := toC128(alpha), toC128(beta)
	isReal := !isComplex[T]()
	in := members(c, m, n)
	for idx := range c.Data {
		if !in[idx] {
			g, w := toC128(c.Data[idx]), toC128(c0.Data[idx])
			if g != w && !(cmplx.IsNaN(g) && cmplx.IsNaN(w)) {
				t.Fatalf("%s: guard element %d changed: %v -> %v", name, idx, w, g)
			}
		}
	}
	// Dense complex128 copies (A row-major, B column-major) and their
	// magnitudes keep the reference loop cheap.
	ad, bd := make([]complex128, m*k), make([]complex128, k*n)
	am, bm := make([]float64, m*k), make([]float64, k*n)
	for i := 0; i < m; i++ {
		for p := 0; p < k; p++ {
			ad[i*k+p] = toC128(at(a, i, p))
			am[i*k+p] = cmplx.Abs(ad[i*k+p])
		}
	}
	for j := 0; j < n; j++ {
		for p := 0; p < k; p++ {
			bd[j*k+p] = toC128(at(b, p, j))
			bm[j*k+p] = cmplx.Abs(bd[j*k+p])
		}
	}
	bad := 0
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			var s complex128
			var mag float64
			if alpha != 0 {
				ar, br := ad[i*k:i*k+k], bd[j*k:j*k+k]
				amr, bmr := am[i*k:i*k+k], bm[j*k:j*k+k]
				if isReal {
					var sr float64
					for p, x := range ar {
						sr += real(x) * real(br[p])
					}
					s = complex(sr, 0)
				} else {
					for p, x := range ar {
						s += x * br[p]
					}
				}
				for p, x := range amr {
					mag += x * bmr[p]
				}
			}
			ref := al * s
			if isReal {
				ref = complex(real(al)*real(s), 0)
			}
			bound := cmplx.Abs(al) * mag
			if beta != 0 {
				cv := toC128(at(c0, i, j))
				if isReal {
					ref = complex(real(ref)+real(be)*real(cv), 0)
				} else {
					ref += be * cv
				}
				bound += cmplx.Abs(be) * cmplx.Abs(cv)
			}
			got := toC128(at(c, i, j))
			ok := true
			switch {
			case !isFinite(ref):
				ok = !isFinite(got)
				if !isComplex[T]() && cmplx.IsNaN(ref) != cmplx.IsNaN(got) {
					ok = false
				}
				if !isComplex[T]() && !cmplx.IsNaN(ref) && got != ref {
					ok = false
				}
			default:
				tol := factor*float64(k+3)*eps*bound + 1e-300
				ok = isFinite(got) && cmplx.Abs(got-ref) <= tol
			}
			if !ok {
				bad++
				if bad <= 3 {
					t.Errorf("%s: C[%d,%d] = %v, want %v (bound %g)", name, i, j, got, ref, bound)
				}
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%s: %d of %d elements wrong", name, bad, m*n)
	}
}

// forEachVariant runs f with every supported variant active, each with its
// own blocking (operands read in place when small), with its own blocking
// and operands always packed, and with tiny blocking that forces many blocks
// and edges.
func forEachVariant(t *testing.T, f func(t *testing.T)) {
	saved := activeVariant()
	defer active.Store(saved)
	for _, v := range variants {
		if !v.supported {
			continue
		}
		tiny, packed := *v, *v
		shrink(&tiny.f32)
		shrink(&tiny.f64)
		shrink(&tiny.c64)
		shrink(&tiny.c128)
		packed.f32.inPlace, packed.f64.inPlace, packed.c64.inPlace, packed.c128.inPlace = 0, 0, 0, 0
		for _, vv := range []*variant{v, &packed, &tiny} {
			name := v.name
			switch vv {
			case &tiny:
				name += "/tinyblocks"
			case &packed:
				name += "/packed"
			}
			active.Store(vv)
			t.Run(name, f)
		}
	}
}

func shrink[T Scalar](kb *kernelInfo[T]) {
	kb.kc = 5
	kb.mc = 2 * kb.mr
	kb.nc = 2 * kb.nr
	kb.inPlace = 0
}
