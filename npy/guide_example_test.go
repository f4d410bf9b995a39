package npy_test

// The .npy example of docs/guide/getting-started.md (TestGuideSnippets in
// the module root checks that the guide shows it verbatim).

import (
	"fmt"
	"os"
	"path/filepath"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/npy"
)

// A tensor written to a .npy file and read back: np.load sees the same
// array, whatever the storage order.
func Example_guideFiles() {
	dir, _ := os.MkdirTemp("", "guide")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "a.npy")

	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	if err := npy.WriteTensorFile(path, a); err != nil { // np.load(path) is [[1 2 3] [4 5 6]]
		panic(err)
	}
	b, err := npy.ReadTensorFile[float64](path) // C or Fortran order: b(i, j) is the file's a[i, j]
	if err != nil {
		panic(err)
	}
	x, _ := b.At(0, 2)
	fmt.Println(b.Shape(), x)
	_, err = npy.ReadTensorFile[float32](path) // the dtype must match exactly
	fmt.Println(err)
	// Output:
	// [2 3] 3
	// npy: read: ReadTensor[float32]: the file holds float64 ('<f8'), expected '<f4': dtype mismatch
}
