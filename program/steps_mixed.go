package program

import (
	"unsafe"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The steps of the commands whose operands have different dtypes.

type predicateStep[T backend.Number] struct {
	k    backend.Elementwise[T]
	kind op.Kind
	dst  *backend.View[bool]
	a    *backend.View[T]
}

func (s *predicateStep[T]) run() error { return s.k.Predicate(s.kind, s.dst, s.a) }

type compareStep[T backend.Number] struct {
	k    backend.Elementwise[T]
	kind op.Kind
	dst  *backend.View[bool]
	a, b *backend.View[T]
}

func (s *compareStep[T]) run() error { return s.k.Compare(s.kind, s.dst, s.a, s.b) }

type whereStep[T backend.Elem] struct {
	k    backend.Elementwise[T]
	dst  *backend.View[T]
	mask *backend.View[bool]
	a, b *backend.View[T]
}

func (s *whereStep[T]) run() error { return s.k.Where(s.dst, s.mask, s.a, s.b) }

// logicalStep runs a logical operation of bool tensors (b nil for
// LogicalNot).
type logicalStep[T backend.Elem] struct {
	k         backend.Elementwise[T]
	kind      op.Kind
	dst, a, b *backend.View[T]
}

func (s *logicalStep[T]) run() error {
	var z T
	if s.b == nil {
		return s.k.Unary(s.kind, z, z, s.dst, s.a)
	}
	return s.k.Binary(s.kind, s.dst, s.a, s.b)
}

// realStep makes the step of a command with a real result (Abs, Real,
// Imag, Angle) of an input of dtype T.
func realStep[T backend.Number](b *preparer, c *command) (step, error) {
	var z T
	switch any(z).(type) {
	case float32:
		return realOfReal[float32](b, c)
	case float64:
		return realOfReal[float64](b, c)
	case complex64:
		return realOfComplex[complex64, float32](b, c)
	}
	return realOfComplex[complex128, float64](b, c)
}

// realOfReal is realStep for a real input: a copy (Real), zeros (Imag) or
// the unary kernel (Abs, Angle).
func realOfReal[R backend.Number](b *preparer, c *command) (step, error) {
	ks, err := kernels(b, "elementwise kernels", func(ks *backend.Kernels[R]) *backend.Kernels[R] {
		if ks.Elementwise == nil {
			return nil
		}
		return ks
	})
	if err != nil {
		return nil, err
	}
	r := regs[R](b)
	dst, a := r.at(c.dst), r.at(c.args[0])
	switch c.kind {
	case op.Real:
		return &copyStep[R]{ks.Core, dst, a}, nil
	case op.Imag:
		return &fillStep[R]{ks.Core, dst}, nil
	}
	return &unaryStep[R]{ks.Elementwise, c.kind, 0, 0, dst, a}, nil
}

type fillStep[T backend.Elem] struct {
	k   backend.Core[T]
	dst *backend.View[T]
}

func (s *fillStep[T]) run() error {
	var z T
	return s.k.Fill(s.dst, z)
}

// realOfComplex is realStep for a complex input of element type C whose
// parts have type R: the kernels of R on two real views of the input's
// storage (real parts at even, imaginary parts at odd positions), rebuilt
// at every run because binding the program's inputs rewrites the input's
// register.
func realOfComplex[C backend.Number, R backend.Number](b *preparer, c *command) (step, error) {
	ks, err := kernels(b, "elementwise kernels", func(ks *backend.Kernels[R]) *backend.Kernels[R] {
		if ks.Elementwise == nil {
			return nil
		}
		return ks
	})
	if err != nil {
		return nil, err
	}
	return &partsStep[C, R]{ks: ks, kind: c.kind, dst: regs[R](b).at(c.dst), a: regs[C](b).at(c.args[0])}, nil
}

type partsStep[C, R backend.Number] struct {
	ks      *backend.Kernels[R]
	kind    op.Kind
	dst     *backend.View[R]
	a       *backend.View[C]
	re, im  backend.View[R]
	strides [op.MaxRank]int
}

func (s *partsStep[C, R]) run() error {
	a := s.a
	data := unsafe.Slice((*R)(unsafe.Pointer(unsafe.SliceData(a.Data))), 2*len(a.Data))
	n := len(a.Shape)
	for d, st := range a.Strides {
		s.strides[d] = 2 * st
	}
	s.re = backend.View[R]{Data: data, Off: 2 * a.Off, Shape: a.Shape, Strides: s.strides[:n:n]}
	s.im = s.re
	s.im.Off++
	switch s.kind {
	case op.Real:
		return s.ks.Core.Copy(s.dst, &s.re)
	case op.Imag:
		return s.ks.Core.Copy(s.dst, &s.im)
	case op.Abs:
		return s.ks.Elementwise.Binary(op.Hypot, s.dst, &s.re, &s.im)
	case op.Angle:
		return s.ks.Elementwise.Binary(op.Atan2, s.dst, &s.im, &s.re)
	}
	return tf.Errorf(tf.ErrArgument, "Run", "command", "Abs, Real, Imag or Angle", "%v", s.kind)
}

// complexStep makes the step of Complex of real inputs of dtype T: copies
// of the inputs into the two real views of the complex result.
func complexStep[T backend.Number](b *preparer, c *command) (step, error) {
	var z T
	switch any(z).(type) {
	case float32:
		return complexOfParts[complex64, float32](b, c)
	case float64:
		return complexOfParts[complex128, float64](b, c)
	}
	return nil, tf.Errorf(tf.ErrArgument, "Prepare", "command", "Complex of float32 or float64 inputs", "inputs of %v", tf.DTypeOf[T]())
}

// complexOfParts is complexStep for a result of element type C whose parts
// have type R.
func complexOfParts[C backend.Number, R backend.Number](b *preparer, c *command) (step, error) {
	core, err := kernels(b, "storage", func(ks *backend.Kernels[R]) backend.Core[R] { return ks.Core })
	if err != nil {
		return nil, err
	}
	r := regs[R](b)
	return &complexPartsStep[C, R]{k: core, dst: regs[C](b).at(c.dst), re: r.at(c.args[0]), im: r.at(c.args[1])}, nil
}

// complexPartsStep writes re and im, read at the result's shape with
// NumPy's broadcasting, into the real and imaginary parts of dst: two real
// views of its storage (real parts at even, imaginary parts at odd
// positions). The views are rebuilt at every run because binding the
// program's inputs and outputs rewrites their registers.
type complexPartsStep[C, R backend.Number] struct {
	k           backend.Core[R]
	dst         *backend.View[C]
	re, im      *backend.View[R]
	parts       [2]backend.View[R] // dst's real and imaginary parts
	from        [2]backend.View[R] // re and im at dst's shape
	strides     [op.MaxRank]int
	fromStrides [2][op.MaxRank]int
}

func (s *complexPartsStep[C, R]) run() error {
	d := s.dst
	data := unsafe.Slice((*R)(unsafe.Pointer(unsafe.SliceData(d.Data))), 2*len(d.Data))
	n := len(d.Shape)
	for i, st := range d.Strides {
		s.strides[i] = 2 * st
	}
	s.parts[0] = backend.View[R]{Data: data, Off: 2 * d.Off, Shape: d.Shape, Strides: s.strides[:n:n]}
	s.parts[1] = s.parts[0]
	s.parts[1].Off++
	for i, a := range [2]*backend.View[R]{s.re, s.im} {
		s.from[i] = backend.View[R]{Data: a.Data, Off: a.Off, Shape: d.Shape, Strides: op.BroadcastStrides(d.Shape, a.Shape, a.Strides, s.fromStrides[i][:])}
		if err := s.k.Copy(&s.parts[i], &s.from[i]); err != nil {
			return err
		}
	}
	return nil
}
