package backend_test

import (
	"fmt"

	"github.com/tenferro-go/tenferro/backend"
)

// Len is the element count last requested, which may be below Cap.
func ExampleStorage_Len() {
	s := backend.NewStorage(make([]float64, 3, 8), nil)
	fmt.Println(s.Len(), s.Cap())
	// Output: 3 8
}
