package vmath

import (
	"fmt"
	"sync/atomic"
)

// op names one function of the package (zscalar.go lists them).
type op int

// op2 names one function of two arguments (zscalar.go lists them).
type op2 int

// variant is one implementation of every function for both element types.
type variant struct {
	name      string
	supported bool
	arch      int // index in archVariants, -1 for the pure-Go variant
}

// variants lists the implementations built into this binary, best first;
// the pure-Go one is last and always supported.
var variants = func() []*variant {
	vs := archVariants()
	for i, v := range vs {
		v.arch = i
	}
	g := genericVariant()
	g.arch = -1
	return append(vs, g)
}()

var active atomic.Pointer[variant]

func init() {
	for _, v := range variants {
		if v.supported {
			active.Store(v)
			break
		}
	}
}

// Variant describes one implementation and whether this CPU runs it.
type Variant struct {
	Name      string
	Supported bool
}

// Variants lists the implementations built into this binary, best first,
// with whether the running CPU supports each: "avx512" and "avx2" on amd64
// (unless built with the purego tag), then "generic" (pure Go).
func Variants() []Variant {
	out := make([]Variant, len(variants))
	for i, v := range variants {
		out[i] = Variant{Name: v.name, Supported: v.supported}
	}
	return out
}

// Vectorized reports whether the active implementation is an assembly
// variant (false for the pure-Go one).
func Vectorized() bool { return active.Load().arch >= 0 }

// ActiveVariant names the implementation the functions use now.
func ActiveVariant() string { return active.Load().name }

// SetVariant makes the functions use the named implementation from now on,
// for testing and benchmarking. It returns the previous name, or an error
// if name is unknown or unsupported on this CPU. It must not be called
// while the functions are running.
func SetVariant(name string) (prev string, err error) {
	for _, v := range variants {
		if v.name != name {
			continue
		}
		if !v.supported {
			return "", fmt.Errorf("vmath.SetVariant: variant %q is not supported by this CPU", name)
		}
		prev = active.Load().name
		active.Store(v)
		return prev, nil
	}
	return "", fmt.Errorf("vmath.SetVariant: unknown variant %q (have %v)", name, Variants())
}

// f32 and f64 return function o of variant v over slices, for the tests
// and benchmarks that run one variant without making it active.
func (v *variant) f32(o op) func(dst, src []float32) {
	return func(dst, src []float32) {
		if !archApply32(v.arch, o, dst, src) {
			genericApply32(o, dst, src)
		}
	}
}

func (v *variant) f64(o op) func(dst, src []float64) {
	return func(dst, src []float64) {
		if !archApply64(v.arch, o, dst, src) {
			genericApply64(o, dst, src)
		}
	}
}

func (v *variant) bin32(o op2) func(dst, x, y []float32) {
	return func(dst, x, y []float32) {
		if !archApply2_32(v.arch, o, dst, x, y) {
			genericApply2_32(o, dst, x, y)
		}
	}
}

func (v *variant) bin64(o op2) func(dst, x, y []float64) {
	return func(dst, x, y []float64) {
		if !archApply2_64(v.arch, o, dst, x, y) {
			genericApply2_64(o, dst, x, y)
		}
	}
}
