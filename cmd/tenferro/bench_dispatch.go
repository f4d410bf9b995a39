package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/team"
)

func init() {
	registerBench("dispatch", "team entry, direct vs. prepared per-operation cost, compile and prepare time", benchDispatch)
}

// dispatchRow is one row of `bench dispatch --json`.
type dispatchRow struct {
	Case      string  `json:"case"`
	NS        float64 `json:"ns"`
	Threads   int     `json:"threads,omitempty"`
	Allocs    *int    `json:"allocs,omitempty"`
	Commands  int     `json:"commands,omitempty"`
	Primitive string  `json:"primitive,omitempty"`
	Note      string  `json:"note,omitempty"`
}

// The hand-off the team package uses, for the table.
const (
	primitiveHot  = "atomic store + busy-poll (worker spinning)"
	primitiveCold = "buffered channel send/receive (worker parked)"
	primitiveIn   = "none: nested Run runs inline on the caller"
	primitiveW1   = "none: a width-1 team has no workers"
)

func benchDispatch(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("bench dispatch", io.Discard)
	widthsFlag := fs.String("widths", "1,2", "team widths for the entry rows")
	asJSON := fs.Bool("json", false, "print JSON rows instead of tables")
	if code, done := parseBenchFlags(fs, "bench dispatch", args, stderr); done {
		return code
	}
	var widths []int
	for _, f := range strings.Split(*widthsFlag, ",") {
		w, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || w < 1 || w > team.MaxThreads {
			return fail(stderr, "bench dispatch", fmt.Errorf("--widths: want integers in [1, %d], got %q", team.MaxThreads, f))
		}
		widths = append(widths, w)
	}
	rows, err := teamEntryRows(widths)
	if err != nil {
		return fail(stderr, "bench dispatch", err)
	}
	chain, err := chainRows()
	if err != nil {
		fmt.Fprintf(stderr, "tenferro bench dispatch: %v\n", err)
		return 1
	}
	rows = append(rows, chain...)
	prepared, err := preparedRows()
	if err != nil {
		fmt.Fprintf(stderr, "tenferro bench dispatch: %v\n", err)
		return 1
	}
	rows = append(rows, prepared...)
	if *asJSON {
		return writeJSON(stdout, rows)
	}
	printDispatch(stdout, rows)
	return 0
}

// emptyTask does nothing: timing a Run of it measures the team entry alone.
type emptyTask struct{}

func (emptyTask) RunPart(part, parts int) {}

// handoffTask forces a real hand-off: part 0 (the caller) spins until
// every other part has started, so the caller cannot take a part back and
// the time of a Run is the round trip to the workers. It gives up after
// 50 ms so a starved worker cannot hang the benchmark.
type handoffTask struct {
	started  atomic.Int32
	timeouts int
}

func (h *handoffTask) RunPart(part, parts int) {
	if part != 0 {
		h.started.Add(1)
		return
	}
	deadline := time.Now().Add(50 * time.Millisecond)
	for h.started.Load() < int32(parts-1) {
		if time.Now().After(deadline) {
			h.timeouts++
			break
		}
	}
	h.started.Store(0)
}

// nestedTask runs inner Runs of an empty task from inside part 0, which
// the team runs inline (it is already busy).
type nestedTask struct {
	tm    *team.Team
	calls int
	took  time.Duration
}

func (n *nestedTask) RunPart(part, parts int) {
	if part != 0 {
		return
	}
	t0 := time.Now()
	for i := 0; i < n.calls; i++ {
		n.tm.Run(emptyTask{}, n.tm.Width())
	}
	n.took = time.Since(t0)
}

// teamEntryRows times an empty Run from outside the team while workers
// are hot (back to back), after an idle gap that lets them park, and from
// inside a worker's part.
func teamEntryRows(widths []int) ([]dispatchRow, error) {
	var rows []dispatchRow
	for _, w := range widths {
		tm, err := team.New(team.Threads(w))
		if err != nil {
			return nil, err
		}
		hot := measureBatch(1000, 31, 2000, func() { tm.Run(emptyTask{}, w) })
		prim, inside := primitiveHot, primitiveIn
		if w == 1 {
			prim, inside = primitiveW1, primitiveW1
		}
		rows = append(rows, dispatchRow{Case: fmt.Sprintf("team-entry-outside-w%d", w), NS: float64(hot.median()), Threads: w, Primitive: prim,
			Note: "empty task: the caller may run a part no worker has started yet"})
		if w > 1 {
			hand := &handoffTask{}
			hot := measureBatch(100, 31, 200, func() { tm.Run(hand, w) })
			rows = append(rows, dispatchRow{Case: fmt.Sprintf("team-handoff-hot-w%d", w), NS: float64(hot.median()), Threads: w, Primitive: primitiveHot,
				Note: "part 0 waits until every other part has started on a worker"})
			// Idle long enough (many spin windows) for the workers to park.
			var parked samples
			for i := 0; i < 41; i++ {
				time.Sleep(2 * time.Millisecond)
				t0 := time.Now()
				tm.Run(hand, w)
				parked = append(parked, time.Since(t0))
			}
			parked.sort()
			rows = append(rows, dispatchRow{Case: fmt.Sprintf("team-handoff-parked-w%d", w), NS: float64(parked.median()), Threads: w, Primitive: primitiveCold,
				Note: fmt.Sprintf("after a 2 ms idle gap; p90 %s", fmtDur(parked.quantile(0.9)))})
			if hand.timeouts > 0 {
				rows[len(rows)-1].Note += fmt.Sprintf("; %d runs timed out waiting", hand.timeouts)
			}
		}
		nt := &nestedTask{tm: tm, calls: 20000}
		var in samples
		for i := 0; i < 15; i++ {
			tm.Run(nt, w)
			in = append(in, nt.took/time.Duration(nt.calls))
		}
		in.sort()
		rows = append(rows, dispatchRow{Case: fmt.Sprintf("team-entry-inside-w%d", w), NS: float64(in.median()), Threads: w, Primitive: inside})
		tm.Close()
	}
	return rows, nil
}

// chainRows times ten dependent 2x2 matmuls (c = a·c, ten times) on one
// reused serial engine and with a new serial engine per call.
func chainRows() ([]dispatchRow, error) {
	a, _ := tf.Rand[float64](3, 2, 2)
	c0, _ := tf.Rand[float64](4, 2, 2)
	bufs := [2]*tf.Tensor[float64]{}
	bufs[0], _ = tf.Zeros[float64](2, 2)
	bufs[1], _ = tf.Zeros[float64](2, 2)
	var callErr error
	keep := func(err error) {
		if err != nil && callErr == nil {
			callErr = err
		}
	}
	reused := cpu.Serial()
	chainInto := func(e *cpu.Engine) {
		src := c0
		for i := 0; i < 10; i++ {
			dst := bufs[i%2]
			keep(tf.MatmulInto(e, dst, a, src))
			src = dst
		}
	}
	direct := measureBatch(200, 31, 200, func() { chainInto(reused) })
	chainNew := func() {
		src := c0
		for i := 0; i < 10; i++ {
			e := cpu.Serial() //tenferrovet:ignore this row measures an engine per call
			dst := bufs[i%2]
			keep(tf.MatmulInto(e, dst, a, src))
			keep(e.Close())
			src = dst
		}
	}
	fresh := measureBatch(50, 31, 100, chainNew)
	allocating := measureBatch(200, 31, 200, func() {
		src := c0
		var prev *tf.Tensor[float64]
		for i := 0; i < 10; i++ {
			c, err := tf.Matmul(reused, a, src)
			keep(err)
			if prev != nil {
				prev.Release()
			}
			prev, src = c, c
		}
		prev.Release()
	})
	if callErr != nil {
		return nil, callErr
	}
	return []dispatchRow{
		{Case: "chain10-direct-reused", NS: float64(direct.median()), Threads: 1, Commands: 10, Note: "MatmulInto on one reused serial engine"},
		{Case: "chain10-direct-reused-alloc", NS: float64(allocating.median()), Threads: 1, Commands: 10, Note: "Matmul + Release on one reused serial engine"},
		{Case: "chain10-direct-new-engine", NS: float64(fresh.median()), Threads: 1, Commands: 10, Note: "MatmulInto with a new serial engine per call"},
	}, nil
}

func (s samples) sort() { sortDurations(s) }

func printDispatch(w io.Writer, rows []dispatchRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "case\tns per call\tthreads\tprimitive / note")
	for _, r := range rows {
		note := r.Primitive
		if r.Note != "" {
			if note != "" {
				note += "; "
			}
			note += r.Note
		}
		ns := fmt.Sprintf("%.1f", r.NS)
		if r.Allocs != nil {
			ns = fmt.Sprintf("%d allocs", *r.Allocs)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", r.Case, ns, r.Threads, note)
	}
	tw.Flush()
}
