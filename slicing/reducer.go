package slicing

import (
	"fmt"
	"slices"
	"strconv"
	"sync"

	tf "github.com/tenferro-go/tenferro"
)

// Reducer sums the partial results of slice ranges (from ContractRange)
// into the contraction's result, each range once: adding a range again is
// a no-op reported as a duplicate, so a coordinator may accept results
// that workers sent twice. Ranges that overlap an added range without
// equalling it are refused. Partial sums are added in arrival order, so
// the result's rounding depends on that order. A Reducer is safe for
// concurrent use.
type Reducer struct {
	mu     sync.Mutex
	c      *compiled
	total  int
	ranges [][2]int // added, sorted by lo, disjoint
	done   int
	sum    tf.Value // compact, allocated by the first Add
}

// NewReducer returns a Reducer for p's slices (checking p).
func NewReducer(p *Plan) (*Reducer, error) {
	c, err := p.use("slicing.NewReducer")
	if err != nil {
		return nil, err
	}
	return &Reducer{c: c, total: c.snap.Slices}, nil
}

// Add adds the partial sum of slices lo..hi-1 (0 <= lo < hi <= Slices),
// a live tensor of the plan's dtype and output shape (any layout; it is
// only read). It returns false, and adds nothing, when exactly this range
// was added before, and an error for a range that overlaps an added one
// without equalling it.
func (r *Reducer) Add(lo, hi int, partial tf.Value) (added bool, err error) {
	const name = "slicing.Reducer.Add"
	if lo < 0 || lo >= hi || hi > r.total {
		return false, tf.Errorf(tf.ErrArgument, name, "lo, hi", "a slice range 0 <= lo < hi <= "+strconv.Itoa(r.total), "%d, %d", lo, hi)
	}
	if err := r.c.checkValue(name, "partial", partial); err != nil {
		return false, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	i, _ := slices.BinarySearchFunc(r.ranges, lo, func(x [2]int, lo int) int { return x[0] - lo })
	if i < len(r.ranges) && r.ranges[i] == [2]int{lo, hi} {
		return false, nil
	}
	for _, j := range []int{i - 1, i} {
		if j >= 0 && j < len(r.ranges) && r.ranges[j][0] < hi && lo < r.ranges[j][1] {
			return false, tf.Errorf(tf.ErrArgument, name, "lo, hi", fmt.Sprintf("a range disjoint from the added [%d, %d) or equal to it", r.ranges[j][0], r.ranges[j][1]), "[%d, %d)", lo, hi)
		}
	}
	if err := r.accumulate(partial); err != nil {
		return false, tf.WrapError(name, "partial", err)
	}
	r.ranges = slices.Insert(r.ranges, i, [2]int{lo, hi})
	r.done += hi - lo
	return true, nil
}

// Progress returns the number of slices summed and the plan's number of
// slices.
func (r *Reducer) Progress() (done, total int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done, r.total
}

// Done reports whether every slice has been summed.
func (r *Reducer) Done() bool {
	done, total := r.Progress()
	return done == total
}

// Result returns the contraction's result once every slice has been
// summed: a compact tensor the Reducer owns (the same one on every call),
// valid until the caller releases it.
func (r *Reducer) Result() (tf.Value, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done != r.total {
		return tf.Value{}, tf.Errorf(tf.ErrArgument, "slicing.Reducer.Result", "r", "every one of the "+strconv.Itoa(r.total)+" slices summed", "%d", r.done)
	}
	return r.sum, nil
}

// accumulate adds partial into the sum, which the first call allocates
// as a compact copy of partial. Caller holds mu.
func (r *Reducer) accumulate(partial tf.Value) error {
	switch r.c.dt {
	case tf.Float32:
		return addInto[float32](&r.sum, partial)
	case tf.Float64:
		return addInto[float64](&r.sum, partial)
	case tf.Complex64:
		return addInto[complex64](&r.sum, partial)
	}
	return addInto[complex128](&r.sum, partial)
}

// addInto sets *sum += x elementwise (*sum compact, x any layout of its
// shape); an empty *sum becomes a compact copy of x.
func addInto[T tf.Scalar](sum *tf.Value, x tf.Value) error {
	t, err := tf.As[T](x)
	if err != nil {
		return err
	}
	if !sum.Valid() {
		c, err := t.Clone()
		if err != nil {
			return err
		}
		*sum = tf.ValueOf(c)
		return nil
	}
	s, err := tf.As[T](*sum)
	if err != nil {
		return err
	}
	if !t.IsCompact() {
		if t, err = t.Clone(); err != nil {
			return err
		}
	}
	sd, err := s.Data()
	if err != nil {
		return err
	}
	td, err := t.Data()
	if err != nil {
		return err
	}
	for i, v := range td {
		sd[i] += v
	}
	return nil
}

func equal(a, b []int) bool { return slices.Equal(a, b) }

func shapeString(s []int) string { return fmt.Sprint(s) }
