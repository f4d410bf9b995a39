package tenferro_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
)

// A network built in code names its bonds by number: the norm of a ring
// of n tensors, each with a physical leg and two bond legs, is one einsum
// whose subscripts einsum.Subscripts writes.
func ExampleEinsum_integerLabels() {
	e := cpu.Serial()
	defer e.Close()
	const n = 4
	var labels [][]int
	var ops []*tf.Tensor[float64]
	for k := range n {
		// Tensor k has legs (physical p_k, bond k, bond k+1 mod n); every
		// element is 1, so each summed leg of extent 2 contributes a 2.
		t, _ := tf.Full(1.0, 2, 2, 2)
		ops = append(ops, t)
		labels = append(labels, []int{n + k, k, (k + 1) % n})
	}
	subs, err := einsum.Subscripts(labels, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	z, err := tf.Einsum(e, subs, ops...)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer z.Release()
	v, _ := z.At()
	fmt.Println(subs, v)
	// Output: eab,fbc,gcd,hda-> 256
}
