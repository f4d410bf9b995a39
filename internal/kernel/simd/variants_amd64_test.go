//go:build amd64 && !purego

package simd

import "testing"

// variants lists the implementations this CPU runs, best first; use
// selects one for the rest of the test.
func variants() []string {
	v := []string{}
	if hasAVX512 {
		v = append(v, "avx512")
	}
	if hasAVX2 {
		v = append(v, "avx2")
	}
	return append(v, "go")
}

func use(t testing.TB, name string) {
	a, b := hasAVX512, hasAVX2
	t.Cleanup(func() { hasAVX512, hasAVX2 = a, b })
	hasAVX512 = a && name == "avx512"
	hasAVX2 = b && (name == "avx2" || name == "avx512")
	if name == "avx2" {
		hasAVX512 = false
	}
}
