package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/distributed"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/npy"
	"github.com/tenferro-go/tenferro/slicing"
)

func init() {
	register("contract", "evaluate a sliced einsum on the workers of a NATS server", runContractCmd)
}

// defaultNATS is the server the distributed commands use without --nats:
// $NATS_URL, else the local default.
func defaultNATS() string {
	if u := os.Getenv("NATS_URL"); u != "" {
		return u
	}
	return nats.DefaultURL
}

func runContractCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("contract", stderr)
	url := fs.String("nats", defaultNATS(), "NATS server URL (default $NATS_URL, else "+nats.DefaultURL+")")
	limitFlag := fs.String("memory-limit", "0", "bytes one slice's intermediates may take (suffixes KiB, MiB, GiB, ...; 0: no slicing)")
	perTask := fs.Int("slices-per-task", 0, "consecutive slices in one task (0: at most 256 tasks)")
	timeout := fs.Duration("timeout", 0, "give up after this long (0: wait for the workers without limit)")
	connectTimeout := fs.Duration("connect-timeout", 5*time.Second, "bound on connecting to the server")
	quiet := fs.Bool("quiet", false, "print no plan summary and no progress")
	sliceOutput := fs.Bool("slice-output", false, "let slicing cut output labels too: each slice then computes its own part of the output")
	outFile := fs.String("o", "", "output .npy file (required)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tenferro contract --nats URL [--memory-limit BYTES] [--slice-output] [--slices-per-task N] [--timeout D] -o OUT.npy SUBSCRIPTS IN.npy...")
		fmt.Fprintln(stderr, "  plans a sliced contraction, hands its slices to `tenferro worker` processes through NATS JetStream and sums their results")
		fs.PrintDefaults()
	}
	rest, code, done := commandArgs(fs, args)
	if done {
		return code
	}
	switch {
	case len(rest) < 2:
		return fail(stderr, "contract", fmt.Errorf("expected SUBSCRIPTS and at least one IN.npy, got %d argument(s)", len(rest)))
	case *outFile == "":
		return fail(stderr, "contract", errors.New("missing -o OUT.npy"))
	case *perTask < 0:
		return fail(stderr, "contract", fmt.Errorf("--slices-per-task must be >= 0, got %d", *perTask))
	case *timeout < 0:
		return fail(stderr, "contract", fmt.Errorf("--timeout must be >= 0, got %v", *timeout))
	}
	limit, err := parseBytes(*limitFlag)
	if err != nil {
		return fail(stderr, "contract", fmt.Errorf("--memory-limit: %v", err))
	}
	vals := make([]tf.Value, len(rest)-1)
	left := tf.DefaultMemoryBudget() // the inputs together
	for i, name := range rest[1:] {
		if vals[i], err = loadValue(name, left); err != nil {
			return fail(stderr, "contract", fmt.Errorf("operand %d: %v", i, err))
		}
		left -= int64(tf.Numel(vals[i].Shape()) * vals[i].DType().Size())
	}
	if vals, err = promoteAll(vals); err != nil {
		return fail(stderr, "contract", err)
	}
	shapes := make([][]int, len(vals))
	for i, v := range vals {
		shapes[i] = v.Shape()
	}
	plan, err := slicing.NewWith(vals[0].DType(), rest[0], shapes, limit, einsum.Options{SliceOutput: *sliceOutput})
	if err != nil {
		return fail(stderr, "contract", err)
	}
	if !*quiet {
		fmt.Fprintf(stderr, "tenferro contract: %s\n", planSummary(plan))
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, *timeout, fmt.Errorf("--timeout %v exceeded", *timeout))
		defer cancel()
	}
	nc, js, err := distributed.Connect(ctx, *url, "tenferro contract", *connectTimeout)
	if err != nil {
		fmt.Fprintf(stderr, "tenferro contract: %v\n", err)
		return 1
	}
	defer nc.Close()
	var progress func(distributed.Progress)
	if !*quiet {
		progress = newProgressPrinter(stderr)
	}
	res, _, err := distributed.Contract(ctx, js, plan, vals, distributed.Options{SlicesPerTask: *perTask, Progress: progress})
	if err != nil {
		fmt.Fprintf(stderr, "tenferro contract: %v\n", err)
		return 1
	}
	if err := npy.WriteValueFile(*outFile, res); err != nil {
		fmt.Fprintf(stderr, "tenferro contract: %v %s: %v\n", errOutput, *outFile, err)
		return 1
	}
	return 0
}

// planSummary describes a sliced plan in one line.
func planSummary(p *slicing.Plan) string {
	if p.Slices == 1 {
		return fmt.Sprintf("1 slice (unsliced), peak %s", formatBytes(p.SlicePeakBytes))
	}
	labels := make([]string, len(p.SlicedLabels))
	for i, l := range p.SlicedLabels {
		labels[i] = l + "=" + strconv.Itoa(p.SlicedExtents[i])
		if p.SlicedWidths != nil && p.SlicedWidths[i] > 1 {
			labels[i] += "/" + strconv.Itoa(p.SlicedWidths[i])
		}
	}
	return fmt.Sprintf("%d slices over %s, flop overhead %.3g, slice peak %s",
		p.Slices, strings.Join(labels, " "), p.FlopOverhead, formatBytes(p.SlicePeakBytes))
}

// formatBytes prints n with a binary unit.
func formatBytes(n int64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, i := float64(n)/1024, 0
	for v >= 1024 && i < len(units)-1 {
		v, i = v/1024, i+1
	}
	return fmt.Sprintf("%.1f %ciB", v, units[i])
}

// newProgressPrinter returns a progress callback writing to w: one line
// rewritten in place when w is a terminal, else a line every 5 s and a
// final one.
func newProgressPrinter(w io.Writer) func(distributed.Progress) {
	tty := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	var mu sync.Mutex
	var last time.Time
	finished := false
	return func(p distributed.Progress) {
		mu.Lock()
		defer mu.Unlock()
		final := p.Done == p.Total
		if finished {
			return
		}
		finished = final
		switch {
		case tty:
			end := ""
			if final {
				end = "\n"
			}
			fmt.Fprintf(w, "\r%s\x1b[K%s", p, end)
		case final || time.Since(last) >= 5*time.Second:
			fmt.Fprintf(w, "tenferro contract: %s\n", p)
			last = time.Now()
		}
	}
}
