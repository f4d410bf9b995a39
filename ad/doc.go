// Package ad differentiates traced programs: JVP (forward mode), VJP
// (reverse mode), Grad and ValueAndGrad are transforms from a
// [trace.Graph] to a new graph, which package program compiles like any
// other (common subexpressions, dead code, fusion, einsum paths and buffer
// planning apply to the derivative too) and a prepared program replays
// without allocating.
//
// # How derivatives are formed
//
// Every differentiable operation of the catalog has one forward rule: the
// tangent of its result as linear operations on the tangents of its
// arguments, with coefficients computed from the primal values. JVP
// evaluates those linear operations alongside the primal ones. VJP records
// them on a tape and transposes it: walking it backwards, every linear
// operation maps the cotangent of its result to the cotangents of its
// linear operands (an einsum becomes an einsum of the cotangent with the
// other operands, a sum a broadcast, a gather a scatter-add, a
// concatenation a split, a broadcast a sum). Reverse mode therefore costs
// a small constant times the forward pass, and transforms compose: the JVP
// of a VJP graph gives Hessian-vector products.
//
// # Complex numbers
//
// Derivatives are real-linear maps: a complex input z = x + iy is the pair
// (x, y). JVP returns J·v, the directional derivative of the outputs
// along the tangent v (complex where the output is complex; for a
// holomorphic function f it is f'(z)·v). VJP returns J*·ȳ, the adjoint for
// the real inner product <a, b> = Re Σ conj(a)·b, so that
// <ȳ, J·v> = <J*·ȳ, v> holds for all v and ȳ. For a real loss L the
// gradient is then ∂L/∂x + i·∂L/∂y, PyTorch's convention: L = Σ |z|²
// has gradient 2z at z (2+4i at z = 1+2i), and z -= lr·grad descends.
// A JAX user comparing results conjugates this gradient.
//
// # Points without a derivative
//
// Piecewise-constant operations (Floor, Ceil, Round, Trunc, Sign of reals,
// comparisons) have derivative zero; integer and boolean results have no
// tangent. At kinks the derivative is the subgradient PyTorch uses: Abs,
// Sign and Relu take 0 at 0; Clip passes the tangent at its bounds;
// Maximum and Minimum split it evenly between tied operands; Max, Min and
// the infinity norms average it over the tied extreme elements; a norm and
// a standard deviation take 0 where the value is 0; Pow takes 0 for
// b·a^(b-1) where b = 0 and for log(a)·a^b where a = 0 (and b >= 0 for
// reals). CumProd's derivative divides by the input, so inputs with zeros
// give non-finite derivatives; Prod's first and second derivatives are
// exact with zeros in the set.
//
// # Errors
//
// Transforms fail at transform time, never at run time, with a
// *tenferro.Error naming the transform and the argument: an input position
// out of range or repeated, an input that is not floating or complex
// (ErrDType), a loss that is not a real scalar (Grad), and an operation
// without a derivative rule (ErrUnsupported, naming the operation and the
// node).
package ad
