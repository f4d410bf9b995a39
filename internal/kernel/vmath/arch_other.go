//go:build !amd64 || purego

package vmath

// archVariants lists no assembly variants on this build.
func archVariants() []*variant { return nil }

func archApply32(int, op, []float32, []float32) bool { return false }
func archApply64(int, op, []float64, []float64) bool { return false }

func archApply2_32(int, op2, []float32, []float32, []float32) bool { return false }
func archApply2_64(int, op2, []float64, []float64, []float64) bool { return false }
