package einsum_test

import (
	"fmt"

	"github.com/tenferro-go/tenferro/einsum"
)

// Subscripts numbers the bonds of a network built in code: a chain of
// three matrices, with its inner bonds 1 and 2 summed.
func ExampleSubscripts() {
	s, err := einsum.Subscripts([][]int{{0, 1}, {1, 2}, {2, 3}}, []int{0, 3})
	fmt.Println(s, err)
	// Output: ab,bc,cd->ad <nil>
}

// Symbol gives the letter of one integer label.
func ExampleSymbol() {
	for _, v := range []int{0, 25, 26, 51, 52} {
		r, _ := einsum.Symbol(v)
		fmt.Printf("%d:%c ", v, r)
	}
	fmt.Println()
	// Output: 0:a 25:z 26:A 51:Z 52:一
}
