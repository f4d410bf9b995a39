package lapack_test

import (
	"fmt"
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
)

// A reflector that maps [3; 4] to [-5; 0].
func ExampleLarfg() {
	x := []float64{4}
	beta, tau := lapack.Larfg(2, 3, x, 0, 1)
	fmt.Printf("β=%g τ=%g v=[1 %g]\n", beta, tau, x[0])
	// Output: β=-5 τ=1.6 v=[1 0.5]
}

// Apply H = I − τ·v·vᴴ to a vector from the left.
func ExampleLarf() {
	v := []float64{1, 0.5}
	c := gemm.Mat[float64]{Data: []float64{3, 4}, RS: 1, CS: 2}
	lapack.Larf(lapack.Left, 2, 1, v, 0, 1, 1.6, c)
	fmt.Printf("%.4g\n", c.Data)
	// Output: [-5 0]
}

// The triangular factor of two reflectors, then their block applied to
// the identity gives Q = H1·H2.
func ExampleLarft() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{3, 4, 0, 1, 2, 2}, RS: 1, CS: 3} // [3 1; 4 2; 0 2]
	tau := make([]float64, 2)
	lapack.Geqr2(3, 2, a, tau)
	t := gemm.Mat[float64]{Data: make([]float64, 4), RS: 1, CS: 2}
	lapack.Larft(&ws, nil, 3, 2, a, tau, t)
	fmt.Printf("τ=%.4f T=%.4f\n", tau, t.Data)
	// Output: τ=[1.6000 1.1961] T=[1.6000 0.0000 -0.9569 1.1961]
}

// Apply Qᴴ of a QR factorization to the columns of A through its block
// reflector: the result is R.
func ExampleLarfb() {
	var ws lapack.Workspace
	src := []float64{3, 4, 0, 1, 2, 2}
	a := gemm.Mat[float64]{Data: append([]float64(nil), src...), RS: 1, CS: 3}
	tau := make([]float64, 2)
	lapack.Geqr2(3, 2, a, tau)
	t := gemm.Mat[float64]{Data: make([]float64, 4), RS: 1, CS: 2}
	lapack.Larft(&ws, nil, 3, 2, a, tau, t)
	c := gemm.Mat[float64]{Data: append([]float64(nil), src...), RS: 1, CS: 3}
	lapack.Larfb(&ws, nil, lapack.Left, lapack.ConjTrans, 3, 2, 2, a, t, c)
	fmt.Println(r4(c.Data))
	// Output: [-5 0 0 -2.2 -2.0396 0]
}

// Factor A = Q·R; R is on and above the diagonal.
func ExampleGeqrf() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{3, 4, 0, 1, 2, 2}, RS: 1, CS: 3} // [3 1; 4 2; 0 2]
	tau := make([]float64, 2)
	lapack.Geqrf(&ws, nil, 3, 2, a, tau)
	fmt.Printf("R=[%.4f %.4f; 0 %.4f]\n", a.Data[0], a.Data[3], a.Data[4])
	// Output: R=[-5.0000 -2.2000; 0 -2.0396]
}

// Column pivoting moves the column of largest norm first: the rank-1
// matrix [1 2; 2 4] has R[1,1] = 0.
func ExampleGeqp3() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{1, 2, 2, 4}, RS: 1, CS: 2}
	jpvt, tau := make([]int, 2), make([]float64, 2)
	lapack.Geqp3(&ws, 2, 2, a, jpvt, tau)
	fmt.Println(jpvt, r4([]float64{a.Data[0], a.Data[2], a.Data[3]}))
	// Output: [1 0] [-4.4721 -2.2361 0]
}

// The unblocked QR of a 2×2 matrix.
func ExampleGeqr2() {
	a := gemm.Mat[float64]{Data: []float64{0, 2, 1, 1}, RS: 1, CS: 2} // [0 1; 2 1]
	tau := make([]float64, 2)
	lapack.Geqr2(2, 2, a, tau)
	fmt.Printf("R=[%.1f %.1f; 0 %.1f] τ=%.1f\n", a.Data[0], a.Data[2], a.Data[3], tau)
	// Output: R=[-2.0 -1.0; 0 -1.0] τ=[1.0 0.0]
}

// Form the thin Q of A = [3 1; 4 2; 0 2] and make diag(R) positive.
func ExampleOrgqr() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{3, 4, 0, 1, 2, 2}, RS: 1, CS: 3}
	tau := make([]float64, 2)
	lapack.Geqrf(&ws, nil, 3, 2, a, tau)
	r := gemm.Mat[float64]{Data: []float64{a.Data[0], 0, a.Data[3], a.Data[4]}, RS: 1, CS: 2}
	lapack.Orgqr(&ws, nil, 3, 2, 2, a, tau)
	lapack.PositiveDiag(3, 2, 2, a, r)
	fmt.Println("Q", r4(a.Data), "R", r4(r.Data))
	// Output: Q [0.6 0.8 0 -0.1569 0.1177 0.9806] R [5 0 2.2 2.0396]
}

// The full 2×2 unitary Q of a complex QR.
func ExampleUngqr() {
	var ws lapack.Workspace
	a := gemm.Mat[complex128]{Data: []complex128{1i, 1, 0, 0}, RS: 1, CS: 2} // first column [i; 1]
	tau := make([]complex128, 1)
	lapack.Geqrf(&ws, nil, 2, 1, a, tau)
	fmt.Println("R11", r4(a.Data[:1]))
	lapack.Ungqr(&ws, nil, 2, 2, 1, a, tau)
	fmt.Println("Q", r4(a.Data))
	// Output:
	// R11 [(-1.4142+0i)]
	// Q [(0-0.7071i) (-0.7071+0i) (-0.2357-0.6667i) (0.6667-0.2357i)]
}

// Solve the least-squares problem min ‖A·x − b‖ with Qᴴ·b and R.
func ExampleOrmqr() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{1, 1, 1, 0, 1, 2}, RS: 1, CS: 3} // [1 0; 1 1; 1 2]
	tau := make([]float64, 2)
	lapack.Geqrf(&ws, nil, 3, 2, a, tau)
	b := gemm.Mat[float64]{Data: []float64{1, 2, 4}, RS: 1, CS: 3}
	lapack.Ormqr(&ws, nil, lapack.Left, lapack.ConjTrans, 3, 1, 2, a, tau, b)
	lapack.Trsm(&ws, nil, lapack.Left, lapack.Upper, lapack.NoTrans, lapack.NonUnit, 2, 1, 1, a, b)
	fmt.Printf("x=%.4f\n", b.Data[:2])
	// Output: x=[0.8333 1.5000]
}

// Q·(Qᴴ·c) = c for a complex QR.
func ExampleUnmqr() {
	var ws lapack.Workspace
	a := gemm.Mat[complex128]{Data: []complex128{1i, 1, 2, 1 - 1i}, RS: 1, CS: 2}
	tau := make([]complex128, 2)
	lapack.Geqrf(&ws, nil, 2, 2, a, tau)
	c := gemm.Mat[complex128]{Data: []complex128{1, 2i}, RS: 1, CS: 2}
	lapack.Unmqr(&ws, nil, lapack.Left, lapack.ConjTrans, 2, 1, 2, a, tau, c)
	lapack.Unmqr(&ws, nil, lapack.Left, lapack.NoTrans, 2, 1, 2, a, tau, c)
	fmt.Println(r4(c.Data))
	// Output: [(1+0i) (0+2i)]
}

// Factor the wide A = [3 4 0; 1 2 2] as L·Q; L is on and below the
// diagonal.
func ExampleGelqf() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{3, 1, 4, 2, 0, 2}, RS: 1, CS: 2}
	tau := make([]float64, 2)
	lapack.Gelqf(&ws, nil, 2, 3, a, tau)
	fmt.Printf("L=[%.4f 0; %.4f %.4f]\n", a.Data[0], a.Data[1], a.Data[3])
	// Output: L=[-5.0000 0; -2.2000 -2.0396]
}

// The rows of Q of an LQ factorization, with L's diagonal made positive.
func ExampleOrglq() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{3, 1, 4, 2, 0, 2}, RS: 1, CS: 2}
	tau := make([]float64, 2)
	lapack.Gelqf(&ws, nil, 2, 3, a, tau)
	l := gemm.Mat[float64]{Data: []float64{a.Data[0], a.Data[1], 0, a.Data[3]}, RS: 1, CS: 2}
	lapack.Orglq(&ws, nil, 2, 3, 2, a, tau)
	tr := func(m gemm.Mat[float64]) gemm.Mat[float64] { m.RS, m.CS = m.CS, m.RS; return m }
	lapack.PositiveDiag(3, 2, 2, tr(a), tr(l))
	fmt.Println("Q", r4(a.Data), "L", r4(l.Data))
	// Output: Q [0.6 -0.1569 0.8 0.1177 0 0.9806] L [5 2.2 0 2.0396]
}

// The full 2×2 unitary Q of a complex LQ.
func ExampleUnglq() {
	var ws lapack.Workspace
	a := gemm.Mat[complex128]{Data: []complex128{1i, 0, 1, 0}, RS: 1, CS: 2} // first row [i 1]
	tau := make([]complex128, 1)
	lapack.Gelqf(&ws, nil, 1, 2, a, tau)
	lapack.Unglq(&ws, nil, 2, 2, 1, a, tau)
	fmt.Println("Q", r4(a.Data))
	// Output: Q [(0-0.7071i) (-0.2357-0.6667i) (-0.7071+0i) (0.6667-0.2357i)]
}

// Apply Q of an LQ factorization from the right: A·Qᴴ = L.
func ExampleOrmlq() {
	var ws lapack.Workspace
	src := []float64{3, 1, 4, 2, 0, 2}
	a := gemm.Mat[float64]{Data: append([]float64(nil), src...), RS: 1, CS: 2}
	tau := make([]float64, 2)
	lapack.Gelqf(&ws, nil, 2, 3, a, tau)
	c := gemm.Mat[float64]{Data: append([]float64(nil), src...), RS: 1, CS: 2}
	lapack.Ormlq(&ws, nil, lapack.Right, lapack.ConjTrans, 2, 3, 2, a, tau, c)
	fmt.Println(r4(c.Data))
	// Output: [-5 -2.2 0 -2.0396 0 0]
}

// Qᴴ·(Q·c) = c for a complex LQ.
func ExampleUnmlq() {
	var ws lapack.Workspace
	a := gemm.Mat[complex128]{Data: []complex128{1i, 1, 2, 1 - 1i}, RS: 1, CS: 2}
	tau := make([]complex128, 2)
	lapack.Gelqf(&ws, nil, 2, 2, a, tau)
	c := gemm.Mat[complex128]{Data: []complex128{1, 2i}, RS: 1, CS: 2}
	lapack.Unmlq(&ws, nil, lapack.Left, lapack.NoTrans, 2, 1, 2, a, tau, c)
	lapack.Unmlq(&ws, nil, lapack.Left, lapack.ConjTrans, 2, 1, 2, a, tau, c)
	fmt.Println(r4(c.Data))
	// Output: [(1+0i) (0+2i)]
}

// Make diag(R) of a complex QR real and positive.
func ExamplePositiveDiag() {
	q := gemm.Mat[complex128]{Data: []complex128{1}, RS: 1, CS: 1}
	r := gemm.Mat[complex128]{Data: []complex128{-2i, 1}, RS: 1, CS: 1} // R = [-2i 1]
	lapack.PositiveDiag(1, 2, 1, q, r)
	fmt.Println(q.Data[0], r.Data[0], r.Data[1])
	// Output: (0-1i) (2+0i) (0+1i)
}

// r4 rounds to four decimals, with -0 printed as 0.
func r4[T float64 | complex128](x []T) []T {
	out := make([]T, len(x))
	for i, v := range x {
		switch p := any(&out[i]).(type) {
		case *float64:
			*p = math.Round(any(v).(float64)*1e4)/1e4 + 0
		case *complex128:
			z := any(v).(complex128)
			*p = complex(math.Round(real(z)*1e4)/1e4+0, math.Round(imag(z)*1e4)/1e4+0)
		}
	}
	return out
}
