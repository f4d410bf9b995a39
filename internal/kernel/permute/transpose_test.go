package permute

import (
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
)

// checkTranspose runs transpose on an n0 x n1 plane (dst contiguous along i
// with column stride n0+pad, src contiguous along j with row stride n1+pad,
// the source rows in reverse order when rev) and compares every element with
// the naive reference dst[i + j*d1] = src[i*s0 + j]; every dst element
// outside the plane (guards before, between and after the columns) must keep
// its sentinel value.
func checkTranspose[T strided.Scalar](t *testing.T, rng *rand.Rand, n0, n1 int) {
	t.Helper()
	const g = 16 // guard elements before and after each buffer
	// Pad -1 rounds both strides up to a multiple of 1 KiB (aliased: the
	// tiled walk for elements of up to 8 bytes); the others give the
	// single-band walk unless the extents are multiples of 1 KiB.
	for _, pad := range []int{0, 3, -1} {
		for _, rev := range []bool{false, true} {
			d1, sr := n0+pad, n1+pad
			if pad < 0 {
				a := 1024 / strided.ElemSize[T]()
				d1, sr = (n0/a+1)*a, (n1/a+1)*a
				if !aliased(d1*strided.ElemSize[T]()) || !aliased(sr*strided.ElemSize[T]()) {
					t.Fatalf("strides %d, %d not aliased", d1, sr)
				}
			}
			src := make([]T, 2*g+n0*sr)
			for i := range src {
				src[i] = st.From[T](complex(float64(rng.IntN(1<<20)), float64(rng.IntN(1<<20))))
			}
			so, s0 := g, sr
			if rev && n0 > 0 {
				so, s0 = g+(n0-1)*sr, -sr
			}
			dst := make([]T, 2*g+n1*d1)
			sentinel := st.From[T](-7)
			for i := range dst {
				dst[i] = sentinel
			}
			transpose(n0, n1, dst, g, d1, src, so, s0)
			inside := make([]bool, len(dst))
			bad := 0
			for j := range n1 {
				for i := range n0 {
					di, si := g+i+j*d1, so+i*s0+j
					inside[di] = true
					if dst[di] != src[si] && bad < 3 {
						bad++
						t.Errorf("%T %dx%d pad=%d rev=%v tiles %dx%d lines: (%d,%d) = %v, want %v",
							*new(T), n0, n1, pad, rev, tileLines, BlockLines, i, j, dst[di], src[si])
					}
				}
			}
			for i, v := range dst {
				if !inside[i] && v != sentinel {
					t.Errorf("%T %dx%d pad=%d rev=%v: element %d outside the plane overwritten", *new(T), n0, n1, pad, rev, i)
					break
				}
			}
		}
	}
}

func testTransposeTiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	sizes := [][2]int{{0, 5}, {5, 0}, {1, 1}, {1, 300}, {300, 1}, {7, 3}, {16, 16}, {17, 31},
		{67, 131}, {128, 32}, {129, 33}, {257, 97}, {263, 269}}
	for k, tl := range [][2]int{{16, 4}, {1, 1}, {3, 2}, {0, 0}, {64, 256}} {
		oldT, oldB := tileLines, BlockLines
		tileLines, BlockLines = tl[0], tl[1]
		sz := sizes
		if k == 0 && !testing.Short() {
			// Odd sizes of the benchmarked magnitude, default tiles only.
			sz = append(sz[:len(sz):len(sz)], [2]int{2047, 1025}, [2]int{521, 2049})
		}
		for _, sz := range sz {
			checkTranspose[float32](t, rng, sz[0], sz[1])
			checkTranspose[float64](t, rng, sz[0], sz[1])
			checkTranspose[complex64](t, rng, sz[0], sz[1])
			checkTranspose[complex128](t, rng, sz[0], sz[1])
		}
		tileLines, BlockLines = oldT, oldB
	}
}

// TestTransposeTiles checks the tiled transpose on sizes around the tile and
// strip edges, for several tile shapes (including degenerate ones), with the
// assembly strip kernels (AVX-512 and AVX where present) and without them.
func TestTransposeTiles(t *testing.T) {
	t.Run("default", testTransposeTiles)
	if haveStrip8z {
		t.Run("avx", func(t *testing.T) {
			haveStrip8z = false
			defer func() { haveStrip8z = true }()
			testTransposeTiles(t)
		})
	}
	if haveStrip8 {
		t.Run("go", func(t *testing.T) {
			haveStrip8 = false
			defer func() { haveStrip8 = true }()
			testTransposeTiles(t)
		})
	}
}
