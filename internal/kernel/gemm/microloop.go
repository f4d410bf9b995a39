package gemm

// MicroLoop is a benchmarking aid: a pre-packed float64 product whose Run
// executes only the macro-kernel loop (micro-kernel calls and edge-tile
// write-back) of the active variant, with no packing and no dispatch. Timing
// it gives the floor that a full small product can approach.
type MicroLoop struct {
	kb      *kernelInfo[float64]
	n       int
	a, b, t []float64
	c       Mat[float64]
}

// NewMicroLoop32 prepares C = A*B with A, B and C 32×32 float64 (column-major,
// values in [0, 1)), packed for the variant active now.
func NewMicroLoop32() *MicroLoop {
	const n = 32
	kb := kernelFor[float64](activeVariant())
	a := Mat[float64]{Data: make([]float64, n*n), RS: 1, CS: n}
	b := Mat[float64]{Data: make([]float64, n*n), RS: 1, CS: n}
	for i := range a.Data {
		a.Data[i] = float64(i%7) / 7
		b.Data[i] = float64(i%5) / 5
	}
	mp := (n + kb.mr - 1) / kb.mr * kb.mr
	np := (n + kb.nr - 1) / kb.nr * kb.nr
	l := &MicroLoop{kb: kb, n: n,
		a: make([]float64, mp*n), b: make([]float64, np*n), t: make([]float64, kb.mr*kb.nr),
		c: Mat[float64]{Data: make([]float64, n*n), RS: 1, CS: n}}
	packA(l.a, a, 0, n, 0, n, kb.mr)
	packB(l.b, b, 0, n, 0, n, kb.nr)
	return l
}

// Run computes C = A*B from the packed panels.
func (l *MicroLoop) Run() {
	macroKernel(l.kb, l.n, l.n, l.n, l.a, false, Mat[float64]{}, l.b, false, Mat[float64]{}, l.t, 1, 0, false, l.c)
}

// Flops is the floating-point operation count of one Run (2*32^3).
func (l *MicroLoop) Flops() int { return 2 * l.n * l.n * l.n }

// C returns the result matrix of the last Run (column-major, 32×32).
func (l *MicroLoop) C() []float64 { return l.c.Data }
