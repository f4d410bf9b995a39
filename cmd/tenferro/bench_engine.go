package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/team"
)

func init() {
	registerBench("engine", "reused vs. new engines per matmul call, and buffer-pool reuse", benchEngine)
}

// engineRow is one row of `bench engine --json`.
type engineRow struct {
	Size          int    `json:"size,omitempty"`
	Case          string `json:"case"`
	Threads       int    `json:"threads,omitempty"`
	Reps          int    `json:"reps,omitempty"`
	MinNS         int64  `json:"min_ns,omitempty"`
	MedianNS      int64  `json:"median_ns,omitempty"`
	Buffers       *int   `json:"buffers,omitempty"`
	CapacityBytes *int64 `json:"capacity_bytes,omitempty"`
}

// engineCase builds the per-call work of one row: setup runs once, call
// runs per rep and returns an error.
type engineCase struct {
	name    string
	threads int
	call    func() error
	cleanup func()
}

func benchEngine(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("bench engine", io.Discard)
	threads := fs.Int("threads", defaultThreads(), "team width of the team engines")
	asJSON := fs.Bool("json", false, "print JSON rows instead of a table")
	if code, done := parseBenchFlags(fs, "bench engine", args, stderr); done {
		return code
	}
	if *threads < 1 {
		return fail(stderr, "bench engine", fmt.Errorf("--threads must be >= 1, got %d", *threads))
	}
	var rows []engineRow
	for _, sz := range []struct{ n, reps int }{{32, 500}, {256, 100}} {
		a, _ := tf.Rand[float64](1, sz.n, sz.n)
		cases, err := engineCases(a, *threads)
		if err != nil {
			return fail(stderr, "bench engine", err)
		}
		for _, c := range cases {
			var callErr error
			s := measure(20, sz.reps, func() {
				if err := c.call(); err != nil && callErr == nil {
					callErr = err
				}
			})
			if c.cleanup != nil {
				c.cleanup()
			}
			if callErr != nil {
				fmt.Fprintf(stderr, "tenferro bench engine: %s: %v\n", c.name, callErr)
				return 1
			}
			rows = append(rows, engineRow{Size: sz.n, Case: c.name, Threads: c.threads, Reps: sz.reps, MinNS: int64(s.min()), MedianNS: int64(s.median())})
		}
	}
	rows = append(rows, poolEvidence()...)
	if *asJSON {
		return writeJSON(stdout, rows)
	}
	printEngineTable(stdout, rows, *threads)
	return 0
}

// engineCases returns the five timing rows for input a: every call is
// C = A·A followed by C.Release, on a reused or freshly built engine.
func engineCases(a *tf.Tensor[float64], threads int) ([]engineCase, error) {
	mm := func(e *cpu.Engine) error {
		c, err := tf.Matmul(e, a, a)
		if err != nil {
			return err
		}
		return c.Release()
	}
	serial := cpu.Serial()
	tm, err := team.New(team.Threads(threads))
	if err != nil {
		return nil, err
	}
	pooled, err := cpu.New(tm)
	if err != nil {
		return nil, err
	}
	perCall := func(opts ...team.Option) func() error {
		return func() error {
			t, err := team.New(append([]team.Option{team.Threads(threads)}, opts...)...)
			if err != nil {
				return err
			}
			e, err := cpu.New(t)
			if err != nil {
				return err
			}
			if err := mm(e); err != nil {
				return err
			}
			return e.Close()
		}
	}
	return []engineCase{
		{name: "reused-serial", threads: 1, call: func() error { return mm(serial) }},
		{name: "new-serial", threads: 1, call: func() error {
			e := cpu.Serial()
			if err := mm(e); err != nil {
				return err
			}
			return e.Close()
		}},
		{name: "reused-team", threads: threads, call: func() error { return mm(pooled) }, cleanup: func() { pooled.Close() }},
		{name: "new-team", threads: threads, call: perCall()},
		{name: "new-dedicated-team", threads: threads, call: perCall(team.OnStart(func(int) {}))},
	}, nil
}

// poolEvidence returns the pool stats of a reused engine after one released
// 64x64 output and of a fresh engine.
func poolEvidence() []engineRow {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.Rand[float64](2, 64, 64)
	c, _ := tf.Matmul(e, a, a)
	c.Release()
	used := e.BufferPoolStats()
	f := cpu.Serial()
	defer f.Close()
	fresh := f.BufferPoolStats()
	return []engineRow{
		{Case: "pool-after-release", Buffers: &used.Buffers, CapacityBytes: &used.CapacityBytes},
		{Case: "pool-fresh", Buffers: &fresh.Buffers, CapacityBytes: &fresh.CapacityBytes},
	}
}

var engineLabels = map[string]string{
	"reused-serial":      "reused cpu.Serial()",
	"new-serial":         "new cpu.Serial() per call",
	"reused-team":        "reused %d-worker engine",
	"new-team":           "new %d-worker engine per call (cached team)",
	"new-dedicated-team": "new %d-worker engine per call, OnStart hook (dedicated team)",
}

func printEngineTable(w io.Writer, rows []engineRow, threads int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	size := 0
	for _, r := range rows {
		if r.Buffers != nil {
			continue
		}
		if r.Size != size {
			size = r.Size
			fmt.Fprintf(tw, "== %dx%d f64 matmul + Release, %d reps after 20 warm-up, threads=%d\n", r.Size, r.Size, r.Reps, threads)
		}
		label := engineLabels[r.Case]
		if r.Threads > 1 || r.Case == "reused-team" || r.Case == "new-team" || r.Case == "new-dedicated-team" {
			label = fmt.Sprintf(label, r.Threads)
		}
		fmt.Fprintf(tw, "%s\tmin %s\tmedian %s\n", label, fmtDur(timeNS(r.MinNS)), fmtDur(timeNS(r.MedianNS)))
	}
	tw.Flush()
	for _, r := range rows {
		switch r.Case {
		case "pool-after-release":
			fmt.Fprintf(w, "reused engine pool after one released 64x64 output: BufferPoolStats{Buffers: %d, CapacityBytes: %d}\n", *r.Buffers, *r.CapacityBytes)
		case "pool-fresh":
			fmt.Fprintf(w, "fresh engine pool:                                  BufferPoolStats{Buffers: %d, CapacityBytes: %d}\n", *r.Buffers, *r.CapacityBytes)
		}
	}
}
