package program

import (
	tf "github.com/tenferro-go/tenferro"
)

// assignSlots gives every slot-backed value a slot by liveness. A value is
// live from the command that writes it to the last command that reads it
// (directly or through a view). Commands are visited in order; the
// destination takes a free slot of its dtype (the smallest that is large
// enough, else the largest, which grows) before the slots of values read
// for the last time are freed, so a command never writes over its own
// inputs. A slot's size is the largest value it ever holds.
func (c *compiler) assignSlots() {
	p := c.p
	last := make([]int, len(p.vals))
	for i := range last {
		last[i] = -1
	}
	for i, cmd := range p.cmds {
		for _, a := range cmd.args {
			if v := &p.vals[a]; v.kind == valSlot || v.kind == valView {
				last[v.root] = i
			}
		}
	}
	var free []int // indices of free slots
	for i, cmd := range p.cmds {
		if v := &p.vals[cmd.dst]; v.kind == valSlot {
			need := tf.Numel(v.shape)
			p.stats.ValueBytes += int64(need * v.dt.Size())
			pick := -1
			for k, s := range free {
				sl := &p.slots[s]
				if sl.dt != v.dt {
					continue
				}
				if pick < 0 {
					pick = k
					continue
				}
				cur := &p.slots[free[pick]]
				fitsNew, fitsCur := sl.elems >= need, cur.elems >= need
				switch {
				case fitsNew && (!fitsCur || sl.elems < cur.elems):
					pick = k
				case !fitsNew && !fitsCur && sl.elems > cur.elems:
					pick = k
				}
			}
			if pick >= 0 {
				v.slot = free[pick]
				free = append(free[:pick], free[pick+1:]...)
				p.slots[v.slot].elems = max(p.slots[v.slot].elems, need)
			} else {
				v.slot = len(p.slots)
				p.slots = append(p.slots, slot{dt: v.dt, elems: need})
			}
			if last[cmd.dst] < i {
				free = append(free, v.slot) // never read
			}
		}
		for _, a := range cmd.args {
			if v := &p.vals[a]; (v.kind == valSlot || v.kind == valView) && last[v.root] == i {
				r := &p.vals[v.root]
				if !containsInt(free, r.slot) {
					free = append(free, r.slot)
				}
			}
		}
	}
	for _, s := range p.slots {
		p.stats.SlotBytes += int64(s.elems * s.dt.Size())
	}
	p.stats.Slots = len(p.slots)
	for _, cmd := range p.cmds {
		if cmd.op == cmdEinsum {
			dt := p.vals[cmd.dst].dt
			p.scratch = max(p.scratch, int64(cmd.plan.Peak)*int64(dt.Size()))
		}
	}
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
