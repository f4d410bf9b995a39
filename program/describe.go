package program

import (
	"fmt"
	"strings"

	"github.com/tenferro-go/tenferro/internal/op"
)

// String lists the commands, one a line, with value ids, kinds and shapes.
func (p *Program) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "program: %d inputs, %d outputs, %d commands, %d slots (%d bytes), planned peak %d bytes\n",
		len(p.inputs), len(p.outputs), len(p.cmds), len(p.slots), p.stats.SlotBytes, p.PlannedPeakBytes())
	for i, cmd := range p.cmds {
		if cmd.op == cmdTiled {
			fmt.Fprintf(&b, "%3d tiled %d commands, blocks of %d of %d rows\n", i, len(cmd.sub), cmd.tile.rows, cmd.tile.extent)
			for j := range cmd.sub {
				b.WriteString("      ")
				p.describeCmd(&b, j, &cmd.sub[j])
			}
			continue
		}
		p.describeCmd(&b, i, &cmd)
	}
	return b.String()
}

// describeCmd writes command cmd, number i, as one line.
func (p *Program) describeCmd(b *strings.Builder, i int, cmd *command) {
	fmt.Fprintf(b, "%3d %-6s %s <-", i, opcodeNames[cmd.op], p.describeVal(cmd.dst))
	for _, a := range cmd.args {
		fmt.Fprintf(b, " %s", p.describeVal(a))
	}
	switch cmd.op {
	case cmdEinsum:
		fmt.Fprintf(b, " %q", cmd.plan.Problem.Subscripts())
		if sp := cmd.sliced; sp != nil {
			fmt.Fprintf(b, " in %d slices over %s", sp.Slices, strings.Join(sp.LabelNames(), ""))
		}
	case cmdBinary:
		fmt.Fprintf(b, " %v", cmd.kind)
	case cmdUnary:
		fmt.Fprintf(b, " %v", cmd.kind)
		switch cmd.kind.Info().Attr {
		case op.AlphaAttr:
			fmt.Fprintf(b, "(%v)", cmd.alpha)
		case op.BoundsAttr:
			fmt.Fprintf(b, "(%v, %v)", real(cmd.alpha), real(cmd.beta))
		}
	case cmdReduce, cmdReduceReal, cmdArg, cmdScan:
		fmt.Fprintf(b, " %v mask=%#x", cmd.kind, cmd.mask)
		if a := cmd.kind.Info().Attr; a == op.DdofAttr || a == op.OrdAttr {
			fmt.Fprintf(b, " (%v)", real(cmd.alpha))
		}
	case cmdFused:
		fmt.Fprintf(b, " %d ops, %d instructions", cmd.fused, len(cmd.code))
	case cmdFusedReduce:
		fmt.Fprintf(b, " %v mask=%#x of %d fused ops, %d instructions", cmd.kind, cmd.mask, cmd.fused-1, len(cmd.code))
		if cmd.storing {
			fmt.Fprintf(b, ", stored in %s", p.describeVal(cmd.store))
		}
	case cmdStruct:
		fmt.Fprintf(b, " %v %s", cmd.kind, cmd.attrs.Key(cmd.kind))
	}
	b.WriteByte('\n')
}

func (p *Program) describeVal(id int) string {
	v := &p.vals[id]
	switch v.kind {
	case valInput:
		return fmt.Sprintf("in%d%v", v.index, v.shape)
	case valOut:
		return fmt.Sprintf("out%d%v", v.index, v.shape)
	case valConst:
		return fmt.Sprintf("const%d%v", v.index, v.shape)
	case valView:
		if p.vals[v.root].inner {
			return fmt.Sprintf("v%d=view(block)%v", id, v.shape)
		}
		return fmt.Sprintf("v%d=view(s%d)%v", id, p.vals[v.root].slot, v.shape)
	}
	if v.inner {
		return fmt.Sprintf("v%d=block%v", id, v.shape)
	}
	return fmt.Sprintf("v%d=s%d%v", id, v.slot, v.shape)
}
