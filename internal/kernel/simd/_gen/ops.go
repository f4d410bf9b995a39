package main

// kernels lists every generated kernel. The binary operations come in
// the three shapes VV, VS and SV; Op and UnaryOp name their constants in
// package simd.
var kernels = buildKernels()

// arith is a binary body of one instruction: r = p stem q.
func arith(stem string) func(g *gen, l lane, c *consts, p, q string) string {
	return func(g *gen, l lane, c *consts, p, q string) string {
		g.f("%s %s, %s, %s", g.ins(stem), q, p, l.Y)
		return l.Y
	}
}

func maxmin(stem string) func(g *gen, l lane, c *consts, p, q string) string {
	return func(g *gen, l lane, c *consts, p, q string) string {
		g.maxmin(l, stem, p, q, l.Y)
		return l.Y
	}
}

// goMaxMin is Go's built-in max (stem VMAXP, combine VANDP) or min
// (VMINP, VORP): NaN when either argument is NaN, and max(-0, +0) = +0,
// min(-0, +0) = -0 in either order. The instruction in both argument
// orders gives the same larger (smaller) value unless the arguments tie or
// one is NaN; for ties the bitwise AND (OR) of the two picks +0 (-0) and
// is the identity otherwise, and the unordered lanes take p + q, a NaN.
func goMaxMin(stem, combine string) func(g *gen, l lane, c *consts, p, q string) string {
	return func(g *gen, l lane, c *consts, p, q string) string {
		g.f("%s %s, %s, %s", g.ins(stem), q, p, l.U)
		g.f("%s %s, %s, %s", g.ins(stem), p, q, l.T)
		g.f("%s %s, %s, %s", g.ins(combine), l.T, l.U, l.U)
		if g.is.masks {
			g.f("%s $3, %s, %s, %s", g.ins("VCMPP"), q, p, l.K)
			g.f("%s %s, %s, %s, %s", g.ins("VADDP"), q, p, l.K, l.U)
			return l.U
		}
		g.f("%s $3, %s, %s, %s", g.ins("VCMPP"), q, p, l.T)
		g.f("%s %s, %s, %s", g.ins("VADDP"), q, p, l.Y)
		g.f("%s %s, %s, %s, %s", g.ins("VBLENDVP"), l.T, l.Y, l.U, l.Y)
		return l.Y
	}
}

// round is VRNDSCALE (AVX-512) or VROUND (AVX2) with rounding mode imm
// and the precision exception suppressed.
func round(imm int) func(g *gen, l lane, c *consts, p, q string) string {
	return func(g *gen, l lane, c *consts, p, q string) string {
		stem := "VROUNDP"
		if g.is.masks {
			stem = "VRNDSCALEP"
		}
		g.f("%s $%d, %s, %s", g.ins(stem), 8|imm, p, l.Y)
		return l.Y
	}
}

func buildKernels() []*kernel {
	var ks []*kernel
	for _, b := range []struct {
		name, op string
		body     func(g *gen, l lane, c *consts, p, q string) string
	}{
		{"add", "Add", arith("VADDP")},
		{"sub", "Sub", arith("VSUBP")},
		{"mul", "Mul", arith("VMULP")},
		{"div", "Div", arith("VDIVP")},
		{"max", "Max", maxmin("VMAXP")},
		{"min", "Min", maxmin("VMINP")},
		{"gomax", "GoMax", goMaxMin("VMAXP", "VANDP")},
		{"gomin", "GoMin", goMaxMin("VMINP", "VORP")},
	} {
		for _, sh := range []string{"VV", "VS", "SV"} {
			ks = append(ks, &kernel{name: b.name, op: b.op, shape: sh, body: b.body})
		}
	}
	u := func(name, op string, setup func(g *gen, c *consts), body func(g *gen, l lane, c *consts, p, q string) string) {
		ks = append(ks, &kernel{name: name, op: op, shape: "Unary", setup: setup, body: body})
	}
	u("neg", "Neg", func(g *gen, c *consts) { c.Sign = g.sign() },
		func(g *gen, l lane, c *consts, p, q string) string {
			g.f("%s %s, %s, %s", g.ins("VXORP"), c.Sign, p, l.Y)
			return l.Y
		})
	u("abs", "Abs", func(g *gen, c *consts) { c.Sign = g.sign() },
		func(g *gen, l lane, c *consts, p, q string) string {
			// VANDN clears in its second operand the bits set in its first.
			g.f("%s %s, %s, %s", g.ins("VANDNP"), p, c.Sign, l.Y)
			return l.Y
		})
	u("square", "Square", nil,
		func(g *gen, l lane, c *consts, p, q string) string {
			g.f("%s %s, %s, %s", g.ins("VMULP"), p, p, l.Y)
			return l.Y
		})
	u("recip", "Recip", func(g *gen, c *consts) { c.One = g.one() },
		func(g *gen, l lane, c *consts, p, q string) string {
			g.f("%s %s, %s, %s", g.ins("VDIVP"), p, c.One, l.Y)
			return l.Y
		})
	// Rsqrt is 1/√x with both operations rounded, in float64 for
	// float32 too (the catalog's definition), so float32 kernels widen.
	ks = append(ks, &kernel{name: "rsqrt", op: "Rsqrt", shape: "Unary", widen: true,
		setup: func(g *gen, c *consts) { c.One = g.one() },
		body: func(g *gen, l lane, c *consts, p, q string) string {
			g.f("%s %s, %s", g.ins("VSQRTP"), p, l.T)
			g.f("%s %s, %s, %s", g.ins("VDIVP"), l.T, c.One, l.Y)
			return l.Y
		}})
	u("round", "Round", nil, round(0))
	u("floor", "Floor", nil, round(1))
	u("ceil", "Ceil", nil, round(2))
	u("trunc", "Trunc", nil, round(3))
	// Relu: the instruction max(0, x) gives x for a NaN x and for x = -0;
	// adding +0 turns -0 into +0 and leaves every other value.
	u("relu", "Relu", func(g *gen, c *consts) {
		c.Zero = g.vreg(g.is.consts + g.nc)
		g.nc++
		g.f("%s %s, %s, %s", g.ins("VXORP"), c.Zero, c.Zero, c.Zero)
	}, func(g *gen, l lane, c *consts, p, q string) string {
		g.f("%s %s, %s, %s", g.ins("VMAXP"), p, c.Zero, l.Y)
		g.f("%s %s, %s, %s", g.ins("VADDP"), c.Zero, l.Y, l.Y)
		return l.Y
	})
	// Sign: ±1 with x's sign bit, then x itself where x == 0 or x is NaN
	// (predicate 8, equal or unordered).
	u("sign", "Sign", func(g *gen, c *consts) {
		c.Sign, c.One = g.sign(), g.one()
		c.Zero = g.vreg(g.is.consts + g.nc)
		g.nc++
		g.f("%s %s, %s, %s", g.ins("VXORP"), c.Zero, c.Zero, c.Zero)
	}, func(g *gen, l lane, c *consts, p, q string) string {
		g.f("%s %s, %s, %s", g.ins("VANDP"), c.Sign, p, l.Y)
		g.f("%s %s, %s, %s", g.ins("VORP"), c.One, l.Y, l.Y)
		if g.is.masks {
			g.f("%s $8, %s, %s, %s", g.ins("VCMPP"), c.Zero, p, l.K)
			g.f("%s %s, %s, %s", g.ins("VMOVAP"), p, l.K, l.Y)
		} else {
			g.f("%s $8, %s, %s, %s", g.ins("VCMPP"), c.Zero, p, l.T)
			g.f("%s %s, %s, %s, %s", g.ins("VBLENDVP"), l.T, p, l.Y, l.Y)
		}
		return l.Y
	})
	// Clip: Minimum(Maximum(x, a), b).
	u("clip", "Clip", func(g *gen, c *consts) { c.A, c.B = g.scalar("a"), g.scalar("b") },
		func(g *gen, l lane, c *consts, p, q string) string {
			g.maxmin(l, "VMAXP", p, c.A, l.Y)
			g.maxmin(l, "VMINP", l.Y, c.B, l.U)
			return l.U
		})
	return ks
}
