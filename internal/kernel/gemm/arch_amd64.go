//go:build amd64 && !purego

package gemm

// archVariants lists the assembly families for amd64.
func archVariants() []*variant { return nil }
