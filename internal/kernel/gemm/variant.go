package gemm

import (
	"fmt"
	"sync/atomic"
)

// microKernel computes the mr×nr tile
//
//	AB[i,j] = sum_{p<kc} a[p*lda+i] * b[p*ldbp+j*ldbj]
//
// from an A panel (mr rows, column p at offset p*lda: lda = mr when packed,
// the column stride when read in place) and a B panel (kc×nr; ldbp = nr,
// ldbj = 1 when packed, B's own strides when read in place), and stores
// c[i+j*ldc] = alpha*AB[i,j] + beta*c[i+j*ldc] when loadC, or alpha*AB[i,j]
// without reading c otherwise. It assumes kc >= 1, non-negative strides,
// len(a) >= (kc-1)*lda+mr, len(b) > (kc-1)*ldbp+(nr-1)*ldbj and
// len(c) >= (nr-1)*ldc+mr; the assembly wrappers check these bounds before
// entering assembly. Kernels with a private panel layout (the 1M complex
// kernels) ignore the A and B strides.
type microKernel[T Scalar] func(kc int, a []T, lda int, b []T, ldbp, ldbj int, c []T, ldc int, alpha, beta T, loadC bool)

// maskedKernel is a microKernel that stores only the top-left rows×cols
// corner of its tile (1 <= rows <= mr, 1 <= cols <= nr): C outside it is
// neither read nor written, so len(c) >= (cols-1)*ldc+rows suffices.
type maskedKernel[T Scalar] func(kc int, a []T, lda int, b []T, ldbp, ldbj int, c []T, ldc int, alpha, beta T, loadC bool, rows, cols int)

// kernelInfo is one dtype's micro-kernel with its register tile (mr×nr) and
// cache blocking (kc, mc, nc).
type kernelInfo[T Scalar] struct {
	mr, nr     int
	kc, mc, nc int
	kern       microKernel[T]
	// Optional: packers for a kernel-specific panel layout (nil means
	// packA/packB), the packed-A panel size as a multiple of mr*kc (0 means
	// 1), and whether kern accepts only real alpha and beta.
	packA       func(dst []T, a Mat[T], i0, mc, p0, kc, mr int)
	packB       func(dst []T, b Mat[T], p0, kc, j0, nc, nr int)
	aScale      int
	realScalars bool
	// inPlace is the largest m*k (k*n) for which a column-major A (a B
	// with positive strides) is read in place instead of packed (0: always
	// pack).
	inPlace int
	// edge[v-1], when present, is a kernel of the same nr for v*lanes
	// rows (v*lanes < mr), used for the last rows of a block.
	edge  []microKernel[T]
	lanes int
	// colEdge lists kernels of the full mr and fewer columns, narrowest
	// first, used for the last columns of a block.
	colEdge []colEdge[T]
	// kernM and edgeM, when present, are the masked twins of kern and
	// edge (and colEdge[i].kernM of colEdge[i].kern): a partial tile of a
	// unit-stride C is stored in place instead of through a buffer.
	kernM maskedKernel[T]
	edgeM []maskedKernel[T]
}

// colEdge is a kernel for an mr×nr tile with nr below the family's.
type colEdge[T Scalar] struct {
	nr    int
	kern  microKernel[T]
	kernM maskedKernel[T] // its masked twin, or nil
}

// colEdgeFor returns the kernel for a full-height panel of nrb columns,
// the columns it computes and its masked twin (nil if none).
func (kb *kernelInfo[T]) colEdgeFor(nrb int) (microKernel[T], int, maskedKernel[T]) {
	for _, e := range kb.colEdge {
		if nrb <= e.nr {
			return e.kern, e.nr, e.kernM
		}
	}
	return kb.kern, kb.nr, kb.kernM
}

// edgeFor returns the kernel for an mrb-row panel, the rows it computes
// and its masked twin (nil if none).
func (kb *kernelInfo[T]) edgeFor(mrb int) (microKernel[T], int, maskedKernel[T]) {
	if mrb < kb.mr && len(kb.edge) > 0 {
		if v := (mrb + kb.lanes - 1) / kb.lanes; v <= len(kb.edge) {
			var m maskedKernel[T]
			if v <= len(kb.edgeM) {
				m = kb.edgeM[v-1]
			}
			return kb.edge[v-1], v * kb.lanes, m
		}
	}
	return kb.kern, kb.mr, kb.kernM
}

// variant is a complete set of kernels for the four dtypes.
type variant struct {
	name      string
	supported bool
	f32       kernelInfo[float32]
	f64       kernelInfo[float64]
	c64       kernelInfo[complex64]
	c128      kernelInfo[complex128]
}

// Variant describes one micro-kernel family and whether this CPU runs it.
type Variant struct {
	Name      string
	Supported bool
}

// variants lists the families, best first; the first supported one is the
// default.
var variants = append(archVariants(), genericVariant())

var active atomic.Pointer[variant]

func init() {
	for _, v := range variants {
		if v.supported {
			active.Store(v)
			break
		}
	}
}

func activeVariant() *variant { return active.Load() }

// Variants lists the micro-kernel families built into this binary, best
// first, with whether the running CPU supports each.
func Variants() []Variant {
	out := make([]Variant, len(variants))
	for i, v := range variants {
		out[i] = Variant{Name: v.name, Supported: v.supported}
	}
	return out
}

// ActiveVariant names the family [Gemm] uses now.
func ActiveVariant() string { return activeVariant().name }

// SetVariant makes [Gemm] use the named family from now on, for testing and
// benchmarking. It returns the previous name, or an error naming the
// families if name is unknown or unsupported on this CPU. It must not be
// called while products are running.
func SetVariant(name string) (prev string, err error) {
	for _, v := range variants {
		if v.name != name {
			continue
		}
		if !v.supported {
			return "", fmt.Errorf("gemm.SetVariant: variant %q is not supported by this CPU", name)
		}
		prev = activeVariant().name
		active.Store(v)
		return prev, nil
	}
	return "", fmt.Errorf("gemm.SetVariant: unknown variant %q (have %v)", name, Variants())
}

// kernelFor returns v's kernel for T.
func kernelFor[T Scalar](v *variant) *kernelInfo[T] {
	var z T
	switch any(z).(type) {
	case float32:
		return any(&v.f32).(*kernelInfo[T])
	case float64:
		return any(&v.f64).(*kernelInfo[T])
	case complex64:
		return any(&v.c64).(*kernelInfo[T])
	default:
		return any(&v.c128).(*kernelInfo[T])
	}
}

// genericVariant is the pure-Go family, available everywhere.
func genericVariant() *variant {
	return &variant{
		name:      "generic",
		supported: true,
		f32:       kernelInfo[float32]{mr: 4, nr: 4, kc: 256, mc: 128, nc: 2048, kern: kernGeneric4x4[float32], inPlace: 1 << 17},
		f64:       kernelInfo[float64]{mr: 4, nr: 4, kc: 256, mc: 96, nc: 2048, kern: kernGeneric4x4[float64], inPlace: 1 << 17},
		c64:       complexKernel[complex64](),
		c128:      complexKernel[complex128](),
	}
}

// complexKernel is the pure-Go complex kernel used by every family.
func complexKernel[T complex64 | complex128]() kernelInfo[T] {
	return kernelInfo[T]{mr: 4, nr: 2, kc: 192, mc: 64, nc: 1024, kern: kernGeneric4x2[T]}
}
