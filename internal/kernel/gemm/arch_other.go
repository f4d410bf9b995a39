//go:build !amd64 || purego

package gemm

// archVariants lists no assembly families on this build.
func archVariants() []*variant { return nil }
