package reduce

import (
	"fmt"
	"math/bits"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

func testScan[T strided.Scalar](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(31, uint64(strided.Kind[T]())))
	eps := st.Eps[T]()
	for ci, c := range redCases(rng, 1<<12) {
		m := 0
		for d, red := range c.red {
			if red {
				m |= 1 << d
			}
		}
		if bits.OnesCount(uint(m)) != 1 {
			continue
		}
		axis := bits.TrailingZeros(uint(m))
		n := c.shape[axis]
		for _, prod := range []bool{false, true} {
			inPlace := ci%3 == 0
			in := c.in
			if inPlace {
				in.Zero = false
			}
			src := st.RandView[T](rng, c.shape, in)
			if prod {
				mapView(src, c.shape, func(x T) T { return 1 + x/st.From[T](complex(float64(max(1, n)), 0)) })
			}
			if ci%5 == 4 && !(prod && st.IsComplex[T]()) {
				sprinkle(rng, src, c.shape, 0.03, nan[T](), inf[T](1))
			}
			orig := slices.Clone(src.Data)
			dst := src
			if !inPlace {
				dst = st.RandView[T](rng, c.shape, st.All)
			}
			Scan(r, prod, c.shape, axis, dst, src)
			what := fmt.Sprintf("Scan prod=%v %T shape %v axis %d in-place %v", prod, *new(T), c.shape, axis, inPlace)
			st.ForEach(keptShape(c.shape, c.red), func(idx []int) {
				idx = slices.Clone(idx)
				acc, mag := complex128(0), 0.0
				if prod {
					acc, mag = 1, 1
				}
				for k := range n {
					idx[axis] = k
					x := st.C128(orig[st.At(src, idx)])
					var tol float64
					if prod {
						if k == 0 {
							acc = x // the fibre starts with its first element
						} else if st.IsComplex[T]() {
							acc *= x
						} else {
							acc = complex(real(acc)*real(x), 0) // no Inf*0 in an imaginary part
						}
						mag *= cmplx.Abs(x)
						tol = 4*float64(k+2)*eps*mag + 1e-300
					} else {
						acc += x
						mag += finiteAbs(real(x)) + finiteAbs(imag(x))
						tol = float64(k+2) * eps * mag
					}
					if got := st.C128(dst.Data[st.At(dst, idx)]); !near(got, acc, tol) {
						t.Fatalf("%s: at %v got %v, want %v (tol %g)", what, idx, got, acc, tol)
					}
				}
			})
			if i := st.CheckGuards(dst, c.shape); i >= 0 {
				t.Fatalf("%s: guard %d overwritten", what, i)
			}
		}
	}
	x := strided.Ref[T]{Data: make([]T, 3), Strides: []int{1}}
	mustPanic(t, "Scan axis out of range", func() { Scan(nil, false, []int{3}, 1, x, x) })
}

func TestScan(t *testing.T) {
	for i, r := range runners(t) {
		t.Run(fmt.Sprint("runner", i), func(t *testing.T) {
			testScan[float32](t, r)
			testScan[float64](t, r)
			testScan[complex64](t, r)
			testScan[complex128](t, r)
		})
	}
}
