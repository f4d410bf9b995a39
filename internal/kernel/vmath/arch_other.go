//go:build !amd64 || purego

package vmath

// archVariants lists no assembly variants on this build.
func archVariants() []*variant { return nil }
