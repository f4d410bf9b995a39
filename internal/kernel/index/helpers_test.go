package index

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/permute"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

// extents are the awkward extents the random shapes are drawn from.
var extents = []int{0, 1, 1, 2, 3, 5, 7, 17}

// randShape returns a shape of rank in [lo, hi] with extents from extents,
// at most 4096 elements.
func randShape(rng *rand.Rand, lo, hi int) []int {
	for {
		s := st.RandShape(rng, lo+rng.IntN(hi-lo+1), extents)
		if strided.Size(s) <= 4096 {
			return s
		}
	}
}

// conv converts x to T: complex types get an imaginary part, int64 keeps
// six decimals, bool is x > 0.
func conv[T strided.Elem](x float64) T {
	var r T
	switch p := any(&r).(type) {
	case *float32:
		*p = float32(x)
	case *float64:
		*p = x
	case *complex64:
		*p = complex(float32(x), float32(0.5-x))
	case *complex128:
		*p = complex(x, 0.5-x)
	case *int64:
		*p = int64(math.Round(x * 1e6))
	case *bool:
		*p = x > 0
	}
	return r
}

// sentinel is the value of the elements a view does not address.
func sentinel[T strided.Elem]() T { return conv[T](st.Sentinel) }

// view returns a random view of shape with elements of type T: the layout
// of stridedtest.RandView (guards, gaps, permuted, reversed or broadcast
// strides as o says), its values converted by conv.
func view[T strided.Elem](rng *rand.Rand, shape []int, o st.ViewOpts) strided.Ref[T] {
	f := st.RandView[float64](rng, shape, o)
	d := make([]T, len(f.Data))
	for i, x := range f.Data {
		d[i] = conv[T](x)
	}
	return strided.Ref[T]{Data: d, Off: f.Off, Strides: f.Strides}
}

// dstOpts returns the stride options of a destination for repetition rep.
func dstOpts(rep int) st.ViewOpts {
	return st.ViewOpts{Permute: rep > 0, Negative: rep%2 == 1, Gaps: rep > 1}
}

// srcOpts returns the stride options of an input for repetition rep
// (broadcast strides from the third on).
func srcOpts(rep int) st.ViewOpts {
	return st.ViewOpts{Permute: true, Negative: rep > 0, Gaps: rep%2 == 1, Zero: rep > 1}
}

// at returns the offset of multi-index idx in r.
func at[T strided.Elem](r strided.Ref[T], idx []int) int {
	o := r.Off
	for d, i := range idx {
		o += i * r.Strides[d]
	}
	return o
}

// guards returns the index of the first element of r.Data that r does not
// address over shape and that no longer holds the sentinel, or -1.
func guards[T strided.Elem](r strided.Ref[T], shape []int) int {
	hit := make([]bool, len(r.Data))
	st.ForEach(shape, func(idx []int) { hit[at(r, idx)] = true })
	s := sentinel[T]()
	for i, v := range r.Data {
		if !hit[i] && v != s {
			return i
		}
	}
	return -1
}

// snapshot returns the values of r over shape in column-major order.
func snapshot[T strided.Elem](r strided.Ref[T], shape []int) []T {
	var v []T
	st.ForEach(shape, func(idx []int) { v = append(v, r.Data[at(r, idx)]) })
	return v
}

// checkView compares dst over shape with want(idx) and checks its guards;
// it reports the first mismatch only.
func checkView[T strided.Elem](t *testing.T, what string, dst strided.Ref[T], shape []int, want func(idx []int) T) {
	t.Helper()
	bad := false
	st.ForEach(shape, func(idx []int) {
		if g, w := dst.Data[at(dst, idx)], want(idx); g != w && !bad {
			bad = true
			t.Errorf("%s %T: dst%v = %v, want %v", what, g, idx, g, w)
		}
	})
	if i := guards(dst, shape); i >= 0 {
		t.Errorf("%s %T: element %d outside dst was overwritten", what, *new(T), i)
	}
}

// counting is a runner that counts the runs that reached it.
type counting struct {
	par.Runner
	runs atomic.Int64
}

func (c *counting) Run(t par.Task, parts int) {
	c.runs.Add(1)
	c.Runner.Run(t, parts)
}

// runners returns the serial runner and a 3-wide one with ParallelBytes
// lowered so that small cases fan out; the test fails when no call
// reached the wide one.
func runners(t *testing.T) []par.Runner {
	c := &counting{Runner: st.Parallel(t, 3, &ParallelBytes, 64)}
	t.Cleanup(func() {
		if c.runs.Load() == 0 {
			t.Errorf("no kernel call fanned out to the 3-wide runner")
		}
	})
	return []par.Runner{nil, c}
}

// name labels a case.
func name(r par.Runner, format string, args ...any) string {
	return fmt.Sprintf("width %d: ", par.Width(r)) + fmt.Sprintf(format, args...)
}

// mustPanic fails t unless fn panics with a message containing want.
func mustPanic(t *testing.T, what, want string, fn func()) {
	t.Helper()
	defer func() {
		t.Helper()
		e := recover()
		if e == nil {
			t.Errorf("%s did not panic", what)
			return
		}
		if msg := fmt.Sprint(e); !strings.Contains(msg, want) {
			t.Errorf("%s panicked with %q, want a message containing %q", what, msg, want)
		}
	}()
	fn()
}

// compact returns a compact column-major view of shape holding data.
func compact[T strided.Elem](shape []int, data []T) strided.Ref[T] {
	return strided.Ref[T]{Data: data, Strides: permute.ColMajor(shape)}
}
