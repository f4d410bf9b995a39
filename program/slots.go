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
		for _, s := range cmd.parts() {
			for _, a := range s.args {
				if v := &p.vals[a]; v.kind == valSlot || v.kind == valView {
					last[v.root] = i
				}
			}
		}
	}
	var free []int // indices of free slots
	for i, cmd := range p.cmds {
		// The commands of a tiled command run interleaved, block by
		// block: none may take a slot that another one reads, so the
		// slots they free are freed after all of them.
		var unread []int
		for _, s := range cmd.parts() {
			for _, w := range s.writes() {
				v := &p.vals[w]
				if v.kind != valSlot || v.inner {
					continue
				}
				v.slot = c.pickSlot(&free, v)
				if last[w] < i {
					unread = append(unread, v.slot)
				}
			}
		}
		free = append(free, unread...)
		for _, s := range cmd.parts() {
			for _, a := range s.args {
				if v := &p.vals[a]; (v.kind == valSlot || v.kind == valView) && last[v.root] == i && !p.vals[v.root].inner {
					r := &p.vals[v.root]
					if !containsInt(free, r.slot) {
						free = append(free, r.slot)
					}
				}
			}
		}
	}
	for _, s := range p.slots {
		p.stats.SlotBytes += int64(s.elems * s.dt.Size())
	}
	p.stats.Slots = len(p.slots)
	for _, cmd := range p.cmds {
		switch cmd.op {
		case cmdEinsum:
			dt := p.vals[cmd.dst].dt
			peak := cmd.plan.Peak
			if sp := cmd.sliced; sp != nil {
				// An engine may evaluate as many slices at once as fit
				// the limit together.
				peak = sp.ConcurrentPeak(sp.Concurrency(sp.Slices, sp.Limit))
			}
			p.scratch = max(p.scratch, int64(peak)*int64(dt.Size()))
		case cmdTiled:
			for _, id := range cmd.tile.inner {
				if v := &p.vals[id]; v.kind == valSlot {
					p.stats.SlotBytes += int64(cmd.tile.blockElems(v) * v.dt.Size())
				}
			}
		}
	}
}

// pickSlot returns a free slot of v's dtype, removing it from free (the
// smallest that is large enough, else the largest, grown to fit), or a new
// slot.
func (c *compiler) pickSlot(free *[]int, v *value) int {
	p := c.p
	need := tf.Numel(v.shape)
	p.stats.ValueBytes += int64(need * v.dt.Size())
	pick := -1
	for k, s := range *free {
		sl := &p.slots[s]
		if sl.dt != v.dt {
			continue
		}
		if pick < 0 {
			pick = k
			continue
		}
		cur := &p.slots[(*free)[pick]]
		fitsNew, fitsCur := sl.elems >= need, cur.elems >= need
		switch {
		case fitsNew && (!fitsCur || sl.elems < cur.elems):
			pick = k
		case !fitsNew && !fitsCur && sl.elems > cur.elems:
			pick = k
		}
	}
	if pick < 0 {
		p.slots = append(p.slots, slot{dt: v.dt, elems: need})
		return len(p.slots) - 1
	}
	s := (*free)[pick]
	*free = append((*free)[:pick], (*free)[pick+1:]...)
	p.slots[s].elems = max(p.slots[s].elems, need)
	return s
}

// writes returns the values cmd writes: its result and, for a fused
// reduction that stores its tree's result, that value; every live factor
// of a decomposition.
func (cmd *command) writes() []int {
	if cmd.op == cmdLinalg {
		var w []int
		for _, id := range cmd.outs {
			if id >= 0 {
				w = append(w, id)
			}
		}
		return w
	}
	if cmd.storing {
		return []int{cmd.dst, cmd.store}
	}
	return []int{cmd.dst}
}

// parts returns the commands cmd runs: its sub-commands if it is tiled,
// else cmd itself.
func (cmd *command) parts() []command {
	if cmd.op == cmdTiled {
		return cmd.sub
	}
	return []command{*cmd}
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
