//go:build !amd64 || purego

package simd

import "testing"

func variants() []string { return []string{"go"} }

func use(testing.TB, string) {}
