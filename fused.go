package tenferro

// FusedOp is an instruction of a fused elementwise program. Programs run on
// a stack holding one value per output element: Load pushes an input,
// binary instructions pop b then a and push a op b, unary ones replace the
// top of the stack.
type FusedOp uint8

// The instructions of a fused program.
const (
	FusedLoad   FusedOp = iota // push inputs[Arg]
	FusedAdd                   // push a + b
	FusedSub                   // push a - b
	FusedMul                   // push a·b
	FusedNegate                // top = -top
	FusedConj                  // top = conj(top) (identity on real types)
	FusedScale                 // top = Alpha·top (Alpha converted to T)
)

// FusedInstr is one instruction of a fused program: Arg is the input index
// of FusedLoad, Alpha the factor of FusedScale.
type FusedInstr struct {
	Op    FusedOp
	Arg   int
	Alpha complex128
}

// Limits of fused programs that every Fuser accepts.
const (
	MaxFusedInputs = 8 // inputs of one program
	MaxFusedStack  = 8 // stack depth of one program
)

// Fuser is an optional part of the Engine contract: engines that implement
// it evaluate chains of elementwise operations in one pass over memory.
type Fuser interface {
	// Fuse checks code for nin inputs of element type dt (every Load in
	// range, the stack within MaxFusedStack, exactly one value left) and
	// returns an evaluator bound to this engine. The evaluator owns its
	// scratch: it is used by the goroutine holding the engine, one call at
	// a time, and its Eval allocates nothing.
	Fuse(dt DType, code []FusedInstr, nin int) (FusedKernel, error)
}

// FusedKernel evaluates one fused program.
type FusedKernel interface {
	// Eval sets dst[i] = code(inputs[0][i], ..., inputs[n-1][i]) for every
	// multi-index i of dst's shape. dst and inputs are *Tensor[T] of the
	// kernel's T; inputs have dst's rank and an extent of 1 broadcasts
	// against dst's extent. dst has distinct elements and overlaps no input
	// unless it is the very same view. The caller holds the engine (Begin)
	// and has validated everything.
	Eval(dst any, inputs []any) error
}
