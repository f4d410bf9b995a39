package program

import (
	"fmt"
	"math"
	"slices"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/lafail"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The steps of the linear-algebra commands. A decomposition's factors
// are separate graph nodes (SVDU, SVDS, SVDVh); the compiler gives the
// live factors of one matrix one command (command.outs, by factor
// position), and the step runs the engine's decomposition once, writing
// every live factor. A dead factor the engine needs anyway gets a buffer
// of the step's own.

// linalgStep makes the step of a Linalg command whose input has element
// type T.
func linalgStep[T backend.Number](b *preparer, c *command) (step, error) {
	var z T
	switch any(z).(type) {
	case float32:
		return linalgStepOf[float32, float32](b, c)
	case float64:
		return linalgStepOf[float64, float64](b, c)
	case complex64:
		return linalgStepOf[complex64, float32](b, c)
	}
	return linalgStepOf[complex128, float64](b, c)
}

type laStep[T, R backend.Number] struct {
	k     backend.Linalg[T]
	kind  op.Kind // the group's kind
	attrs op.Attrs
	a, b  *backend.View[T]
	outs  [3]*backend.View[T] // the factors of dtype T, by position
	real  *backend.View[R]    // the real factor (singular values, eigenvalues, log|det|)
	batch []int
}

func linalgStepOf[T, R backend.Number](b *preparer, c *command) (step, error) {
	lead, _ := c.kind.Group()
	if lead == op.GaugeCheck {
		return gaugeStepOf[T, R](b, c)
	}
	k, err := kernels(b, "linear algebra", func(ks *backend.Kernels[T]) backend.Linalg[T] { return ks.Linalg })
	if err != nil {
		return nil, err
	}
	r := regs[T](b)
	s := &laStep[T, R]{k: k, kind: lead, attrs: c.attrs, a: r.at(c.args[0])}
	if len(c.args) > 1 {
		s.b = r.at(c.args[1])
	}
	in := b.p.vals[c.args[0]].shape
	s.batch = in[2:]
	// The shapes of the factors, to give dead ones the engine needs a
	// buffer of their own.
	m, n := in[0], in[1]
	mn := min(m, n)
	batch := in[2:]
	own := func(shape ...int) *backend.View[T] {
		shape = append(shape, batch...)
		st := make([]int, len(shape))
		acc := 1
		for d, e := range shape {
			st[d] = acc
			acc *= e
		}
		return &backend.View[T]{Data: make([]T, acc), Shape: shape, Strides: st}
	}
	ownReal := func(shape ...int) *backend.View[R] {
		v := own(shape...)
		return &backend.View[R]{Data: make([]R, len(v.Data)), Shape: v.Shape, Strides: v.Strides}
	}
	for pos, id := range c.outs {
		switch {
		case id < 0:
		case pos == realFactor(lead):
			s.real = regs[R](b).at(id)
		default:
			s.outs[pos] = r.at(id)
		}
	}
	switch lead {
	case op.SVDU: // values alone when neither vector factor is live
		if (s.outs[0] == nil) != (s.outs[2] == nil) {
			if s.outs[0] == nil {
				s.outs[0] = own(m, mn)
			} else {
				s.outs[2] = own(mn, n)
			}
		}
		if s.real == nil {
			s.real = ownReal(mn)
		}
	case op.EighValues:
		if s.real == nil {
			s.real = ownReal(n)
		}
	case op.QRQ: // R is always written
		if s.outs[1] == nil {
			s.outs[1] = own(mn, n)
		}
	case op.SlogDetSign:
		if s.outs[0] == nil {
			s.outs[0] = own()
		}
		if s.real == nil {
			s.real = ownReal()
		}
	}
	return s, nil
}

func (s *laStep[T, R]) run() error {
	var err error
	f := s.attrs.Ints
	flag := func(i int) bool { return i < len(f) && f[i] == 1 }
	dst := s.outs[0]
	switch s.kind {
	case op.Cholesky:
		err = s.k.Cholesky(dst, s.a, flag(0))
	case op.Solve:
		err = s.k.Solve(dst, s.a, s.b)
	case op.SolveTriangular:
		err = s.k.SolveTriangular(dst, s.a, s.b, flag(0), flag(1), flag(2))
	case op.Inv:
		err = s.k.Inv(dst, s.a)
	case op.Det:
		err = s.k.Det(dst, s.a)
	case op.SlogDetSign:
		err = s.k.SlogDet(dst, s.real, s.a)
	case op.Expm:
		err = s.k.Expm(dst, s.a)
	case op.EighValues:
		err = s.k.Eigh(s.real, s.outs[1], s.a, flag(0))
	case op.SVDU:
		err = s.k.SVD(s.outs[0], s.real, s.outs[2], s.a)
	case op.QRQ:
		err = s.k.QR(s.outs[0], s.outs[1], nil, s.a, flag(0))
	case op.Pinv:
		err = s.k.Pinv(dst, s.a, real(s.attrs.Alpha))
	default:
		return tf.Errorf(tf.ErrArgument, "Run", "command", "a linear-algebra operation", "%v", s.kind)
	}
	return lafail.Error(s.kind.String(), "a", s.batch, err)
}

// linalgCommands gives the live factors of one decomposition one command:
// the key of a factor node is its group, arguments and attributes.
type linalgGroups struct {
	cmds map[string]int // key -> command index
}

// add returns the index of the command computing the group of node nd
// (with value ids args), creating it when the group has none yet, and
// records vid as the factor's value.
func (g *linalgGroups) add(p *Program, nd nodeView, args []int, vid int) {
	lead, pos := nd.kind.Group()
	key := fmt.Sprint(lead, args, nd.attrs.Ints, nd.attrs.Alpha)
	if i, ok := g.cmds[key]; ok {
		p.cmds[i].outs[pos] = vid
		return
	}
	if g.cmds == nil {
		g.cmds = map[string]int{}
	}
	cmd := command{op: cmdLinalg, kind: nd.kind, args: slices.Clone(args), attrs: nd.attrs, dst: vid, fused: 1,
		outs: []int{-1, -1, -1}}
	cmd.outs[pos] = vid
	g.cmds[key] = len(p.cmds)
	p.cmds = append(p.cmds, cmd)
}

// nodeView is what linalgGroups reads of a node.
type nodeView struct {
	kind  op.Kind
	attrs op.Attrs
}

// realFactor is the position of the real factor of decomposition lead
// (-1: none).
func realFactor(lead op.Kind) int {
	switch lead {
	case op.SVDU, op.SlogDetSign:
		return 1
	case op.EighValues:
		return 0
	}
	return -1
}

// gaugeStep copies x to dst after checking |g| <= tol·scale elementwise
// (g and scale have one shape; NaN fails the check).
type gaugeStep[T, R backend.Number] struct {
	core     backend.Core[T]
	dst, x   *backend.View[T]
	g, scale *backend.View[R]
	tol      float64
	idx      []int
}

func gaugeStepOf[T, R backend.Number](b *preparer, c *command) (step, error) {
	core, err := kernels(b, "storage", func(ks *backend.Kernels[T]) backend.Core[T] { return ks.Core })
	if err != nil {
		return nil, err
	}
	rr := regs[R](b)
	g := rr.at(c.args[1])
	return &gaugeStep[T, R]{core: core, dst: regs[T](b).at(c.outs[0]), x: regs[T](b).at(c.args[0]),
		g: g, scale: rr.at(c.args[2]), tol: real(c.attrs.Alpha), idx: make([]int, len(b.p.vals[c.args[1]].shape))}, nil
}

func (s *gaugeStep[T, R]) run() error {
	shape := s.g.Shape
	n := 1
	for _, e := range shape {
		n *= e
	}
	clear(s.idx)
	for range n {
		og, os := s.g.Off, s.scale.Off
		for d, i := range s.idx {
			og += i * s.g.Strides[d]
			os += i * s.scale.Strides[d]
		}
		g, sc := real(backend.ToComplex(s.g.Data[og])), real(backend.ToComplex(s.scale.Data[os]))
		if !(math.Abs(g) <= s.tol*sc+1e-300) {
			return tf.Errorf(tf.ErrGauge, "VJP", "loss", "a loss invariant under the phases of the singular or eigen vectors",
				"gauge-dependent part %.3g at vector %s, against a tolerance of %.3g", g, op.FmtInts(s.idx), s.tol*sc)
		}
		for d := range s.idx {
			if s.idx[d]++; s.idx[d] < shape[d] {
				break
			}
			s.idx[d] = 0
		}
	}
	return s.core.Copy(s.dst, s.x)
}
