package linalg_test

import (
	"fmt"

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
