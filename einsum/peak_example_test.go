package einsum_test

import (
	"fmt"

	"github.com/tenferro-go/tenferro/einsum"
)

// A 2×3×4 column-major tensor over labels 0, 1, 2 has label strides 1, 2
// and 6: labels 0 and 1 fuse into one axis of 6 elements, labels 0 and 2
// do not.
func ExampleFuseGroup() {
	ext := []int{2, 3, 4}
	strides := []int{1, 2, 6}
	n, stride, ok := einsum.FuseGroup(ext, []int{0, 1}, strides)
	fmt.Println(n, stride, ok)
	_, _, ok = einsum.FuseGroup(ext, []int{0, 2}, strides)
	fmt.Println(ok)
	// Output:
	// 6 1 true
	// false
}

// A 6×4 matrix with row stride 1 is read along cache lines; one whose
// rows and columns are both strided (a batch axis fastest) is not.
func ExampleUnitStride() {
	fmt.Println(einsum.UnitStride(6, 4, 1, 6))
	fmt.Println(einsum.UnitStride(6, 4, 5, 30))
	// Output:
	// true
	// false
}
