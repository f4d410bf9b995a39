package permute

import "fmt"

// ColMajor returns the compact column-major strides of shape: stride[0] = 1,
// stride[d+1] = stride[d]*shape[d].
func ColMajor(shape []int) []int {
	s := make([]int, len(shape))
	k := 1
	for d, e := range shape {
		s[d] = k
		k *= max(e, 1)
	}
	return s
}

// Permuted describes the permutation of a compact column-major array of
// shape srcShape: axis k of the result is axis perm[k] of the source (the
// NumPy transpose convention). It returns the result's shape and the
// source's strides reordered to match, so that
//
//	Copy(r, dstShape, Ref{dst, 0, ColMajor(dstShape)}, Ref{src, 0, srcStrides})
//
// writes the permuted array into a compact dst. It fails when perm is not a
// permutation of 0..len(srcShape)-1.
func Permuted(srcShape, perm []int) (dstShape, srcStrides []int, err error) {
	if len(perm) != len(srcShape) {
		return nil, nil, fmt.Errorf("permute.Permuted: permutation %v has %d axes, expected %d", perm, len(perm), len(srcShape))
	}
	seen := make([]bool, len(perm))
	for _, p := range perm {
		if p < 0 || p >= len(perm) || seen[p] {
			return nil, nil, fmt.Errorf("permute.Permuted: %v is not a permutation of 0..%d", perm, len(perm)-1)
		}
		seen[p] = true
	}
	cs := ColMajor(srcShape)
	dstShape = make([]int, len(perm))
	srcStrides = make([]int, len(perm))
	for k, p := range perm {
		dstShape[k] = srcShape[p]
		srcStrides[k] = cs[p]
	}
	return dstShape, srcStrides, nil
}
