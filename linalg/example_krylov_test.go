package linalg_test

import (
	"fmt"
	"math"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
)

// The two lowest eigenvalues of the path-graph Laplacian-like operator
// (A·x)ᵢ = 2xᵢ − xᵢ₋₁ − xᵢ₊₁ on 50 sites, applied matrix-free:
// λⱼ = 2 − 2·cos(jπ/51). The start vector of ones is even under the
// reflection i ↦ 49 − i, so its Krylov space misses the odd eigenvector of
// λ₂: Deflate searches on orthogonally to the first pairs and finds it.
func ExampleEigsh() {
	e := cpu.Serial()
	defer e.Close()
	apply := func(dst, x *tf.Tensor[float64]) error {
		d, _ := dst.Data()
		v, _ := x.Data()
		for i := range v {
			d[i] = 2 * v[i]
			if i > 0 {
				d[i] -= v[i-1]
			}
			if i+1 < len(v) {
				d[i] -= v[i+1]
			}
		}
		return nil
	}
	x0, _ := tf.Ones[float64](50)
	res, err := linalg.Eigsh(e, apply, x0, linalg.EigshOptions{K: 2, Deflate: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.10f %.10f %v\n", res.Values[0], res.Values[1], res.Converged)
	// Output: 0.0037933425 0.0151589807 true
}

// Real-time evolution exp(−i·H·t)·v of a two-level system H = [0 1; 1 0]
// for t = π/2 flips the state |0⟩ to −i·|1⟩.
func ExampleExpmV() {
	e := cpu.Serial()
	defer e.Close()
	apply := func(dst, x *tf.Tensor[complex128]) error {
		d, _ := dst.Data()
		v, _ := x.Data()
		d[0], d[1] = v[1], v[0]
		return nil
	}
	v, _ := tf.FromSlice([]complex128{1, 0}, 2)
	x, info, err := linalg.ExpmV(e, apply, complex(0, -math.Pi/2), v, linalg.ExpmVOptions{Hermitian: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	d, _ := x.Data()
	fmt.Printf("%.6f %.6f %d step(s)\n", d[0], d[1], info.Steps)
	// Output: (0.000000+0.000000i) (0.000000-1.000000i) 1 step(s)
}

// A reusable Lanczos and result, as in the local solves of a DMRG sweep:
// after the first call, solves for vectors of the same shape allocate
// nothing. Here the operator diag(1, 2, …, 8) seen as a 2×4 tensor.
func ExampleLanczos_Solve() {
	e := cpu.Serial()
	defer e.Close()
	apply := func(dst, x *tf.Tensor[float64]) error {
		d, _ := dst.Data()
		v, _ := x.Data()
		for i := range v {
			d[i] = float64(i+1) * v[i]
		}
		return nil
	}
	var l linalg.Lanczos[float64]
	var res linalg.EigshResult[float64]
	x0, _ := tf.Ones[float64](2, 4)
	for _, which := range []linalg.Which{linalg.Smallest, linalg.Largest} {
		if err := l.Solve(e, apply, x0, linalg.EigshOptions{K: 2, Which: which}, &res); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%.6f %v\n", res.Values, res.Vectors[0].Shape())
	}
	// Output:
	// [1.000000 2.000000] [2 4]
	// [8.000000 7.000000] [2 4]
}

// exp(t·A)·v into a caller's destination for the decay A = −diag(0, 1, 2)
// with t = ln 2, by a reusable KrylovExp.
func ExampleKrylovExp_ExpmVInto() {
	e := cpu.Serial()
	defer e.Close()
	apply := func(dst, x *tf.Tensor[float64]) error {
		d, _ := dst.Data()
		v, _ := x.Data()
		for i := range v {
			d[i] = -float64(i) * v[i]
		}
		return nil
	}
	var k linalg.KrylovExp[float64]
	v, _ := tf.Ones[float64](3)
	dst, _ := tf.Zeros[float64](3)
	if _, err := k.ExpmVInto(e, dst, apply, complex(math.Ln2, 0), v, linalg.ExpmVOptions{Hermitian: true}); err != nil {
		fmt.Println(err)
		return
	}
	d, _ := dst.Data()
	fmt.Printf("%.6f\n", d)
	// Output: [1.000000 0.500000 0.250000]
}

// ExpmVInto with the pooled state: the same decay for t = 2·ln 2.
func ExampleExpmVInto() {
	e := cpu.Serial()
	defer e.Close()
	apply := func(dst, x *tf.Tensor[float64]) error {
		d, _ := dst.Data()
		v, _ := x.Data()
		for i := range v {
			d[i] = -float64(i) * v[i]
		}
		return nil
	}
	v, _ := tf.Ones[float64](3)
	dst, _ := tf.Zeros[float64](3)
	if _, err := linalg.ExpmVInto(e, dst, apply, complex(2*math.Ln2, 0), v, linalg.ExpmVOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	d, _ := dst.Data()
	fmt.Printf("%.6f\n", d)
	// Output: [1.000000 0.250000 0.062500]
}
