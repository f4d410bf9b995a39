package gonumx

import (
	"fmt"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/cblas128"
	"gonum.org/v1/gonum/blas/cblas64"
	"gonum.org/v1/gonum/blas/gonum"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
	"github.com/tenferro-go/tenferro/internal/par"
	"github.com/tenferro-go/tenferro/team"
)

// Implementation is a gonum BLAS (it satisfies [blas.Float32],
// [blas.Float64], [blas.Complex64] and [blas.Complex128]) whose level-3
// routines run on this module's packed GEMM kernels: GEMM always, and
// TRSM, TRMM, SYRK and SYR2K when their work reaches the [Crossover]. Every
// other routine, every call with invalid arguments (which panics with
// gonum's own message) and every degenerate call (an empty result, alpha =
// 0, an empty inner dimension) is gonum's own [gonum.Implementation],
// embedded.
//
// An Implementation is safe for concurrent use: it holds no mutable state,
// and each call takes its packing buffers from a sync.Pool. When several
// goroutines call at once while the Implementation has a team, the first
// call to reach the team fans out on it and the others run serially on
// their own goroutines (the team's rule for concurrent Runs), so no call
// ever waits for another and the processors are never oversubscribed.
type Implementation struct {
	gonum.Implementation
	run       par.Runner // nil: serial
	own       *team.Team // the team New started and Close stops
	crossover int        // cube root of the multiply-adds below which gonum runs
}

var (
	_ blas.Float32    = (*Implementation)(nil)
	_ blas.Float64    = (*Implementation)(nil)
	_ blas.Complex64  = (*Implementation)(nil)
	_ blas.Complex128 = (*Implementation)(nil)
)

// DefaultCrossover is the default of [Crossover]. It is a first estimate
// (the blocked routines copy a triangle and a panel per leaf, which a
// 32×32×32 product amortizes many times over), to be replaced by the
// crossover that BenchmarkCrossover measures.
const DefaultCrossover = 32

// Option configures [New] and [Use].
type Option func(*config)

type config struct {
	threads   int
	tm        *team.Team
	crossover int
	errs      []error
}

// Threads sets the number of goroutines, the caller included, that one
// call may use: 1 (the default) runs every call on its caller, and n > 1
// starts a team of width n (see package team) that [Implementation.Close]
// stops. n must lie in [1, team.MaxThreads].
func Threads(n int) Option {
	return func(c *config) {
		if n < 1 || n > team.MaxThreads {
			c.errs = append(c.errs, tf.Errorf(tf.ErrArgument, "gonumx.New", "Threads", fmt.Sprintf("a thread count in [1, %d]", team.MaxThreads), "%d", n))
			return
		}
		c.threads, c.tm = n, nil
	}
}

// WithTeam makes calls fan out on t, a team the caller owns and closes
// (after the Implementation's last call; a closed team runs everything
// inline). It overrides [Threads]. t must not be nil.
func WithTeam(t *team.Team) Option {
	return func(c *config) {
		if t == nil {
			c.errs = append(c.errs, tf.Errorf(tf.ErrArgument, "gonumx.New", "WithTeam", "a team", "nil"))
			return
		}
		c.tm, c.threads = t, 0
	}
}

// Crossover sets the size below which TRSM, TRMM, SYRK and SYR2K run
// gonum's own code: a call whose multiply-add count (m²·n/2 for a
// triangular m×m matrix against n columns, n²·k/2 for SYRK, n²·k for
// SYR2K) is below n³ is not worth the blocked route's copies. GEMM ignores
// it: the packed kernel has its own path for small products. n must be at
// least 0 (0 sends every non-degenerate call to the blocked routines). The
// default is [DefaultCrossover].
func Crossover(n int) Option {
	return func(c *config) {
		if n < 0 || n > 1<<20 {
			c.errs = append(c.errs, tf.Errorf(tf.ErrArgument, "gonumx.New", "Crossover", "a size in [0, 1<<20]", "%d", n))
			return
		}
		c.crossover = n
	}
}

// New returns an Implementation configured by opts (serial, crossover
// [DefaultCrossover] by default). It fails with an error naming the bad
// option; nothing is started then.
func New(opts ...Option) (*Implementation, error) {
	cfg := config{threads: 1, crossover: DefaultCrossover}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if len(cfg.errs) > 0 {
		return nil, cfg.errs[0]
	}
	impl := &Implementation{crossover: cfg.crossover}
	switch {
	case cfg.tm != nil:
		impl.run = cfg.tm
	case cfg.threads > 1:
		tm, err := team.New(team.Threads(cfg.threads))
		if err != nil {
			return nil, tf.WrapError("gonumx.New", "Threads", err)
		}
		impl.run, impl.own = tm, tm
	}
	return impl, nil
}

// Use builds an Implementation with [New] and installs it as the BLAS of
// gonum's blas32, blas64, cblas64 and cblas128 packages, which mat and
// lapack64 call: from then on mat.Dense.Mul, lapack64.Potrf and the rest
// run on it. It returns the Implementation so that the caller may Close it
// after restoring gonum's own (blas64.Use(gonum.Implementation{}) and
// likewise for the other three). On error nothing is installed.
func Use(opts ...Option) (*Implementation, error) {
	impl, err := New(opts...)
	if err != nil {
		return nil, err
	}
	blas32.Use(impl)
	blas64.Use(impl)
	cblas64.Use(impl)
	cblas128.Use(impl)
	return impl, nil
}

// Threads reports the number of goroutines one call may use.
func (impl *Implementation) Threads() int { return par.Width(impl.run) }

// Close stops the team that [Threads] started, if any. Calls made after
// Close still work, serially. Closing twice is harmless.
func (impl *Implementation) Close() error {
	if impl.own == nil {
		return nil
	}
	err := impl.own.Close()
	if err != nil {
		return tf.WrapError("gonumx.Close", "", err)
	}
	return nil
}

// small reports whether a blocked routine of mulAdds multiply-adds goes to
// gonum's own code.
func (impl *Implementation) small(mulAdds float64) bool {
	c := float64(impl.crossover)
	return mulAdds < c*c*c
}

// work is what one call borrows from the pool: the kernels' workspace and
// two scratch arrays per element type (conjugated operands, triangles,
// copies of a panel), grown on demand and kept warm by the pool.
type work struct {
	lw   lapack.Workspace
	f32  [2][]float32
	f64  [2][]float64
	c64  [2][]complex64
	c128 [2][]complex128
}

var pool = sync.Pool{New: func() any { return new(work) }}

func getWork() *work  { return pool.Get().(*work) }
func putWork(w *work) { pool.Put(w) }

// scratch returns scratch array i of w for T, at least n long.
func scratch[T gemm.Scalar](w *work, i, n int) []T {
	var s *[2][]T
	var z T
	switch any(z).(type) {
	case float32:
		s = any(&w.f32).(*[2][]T)
	case float64:
		s = any(&w.f64).(*[2][]T)
	case complex64:
		s = any(&w.c64).(*[2][]T)
	default:
		s = any(&w.c128).(*[2][]T)
	}
	if len(s[i]) < n {
		s[i] = make([]T, n+n/4)
	}
	return s[i][:n]
}
