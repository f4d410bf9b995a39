package simd

//go:generate go run ./_gen
