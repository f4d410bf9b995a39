package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"
)

// samples holds per-call durations of one measurement.
type samples []time.Duration

// measure runs fn warm times untimed, then reps times, timing each call.
func measure(warm, reps int, fn func()) samples {
	for i := 0; i < warm; i++ {
		fn()
	}
	s := make(samples, reps)
	for i := range s {
		t0 := time.Now()
		fn()
		s[i] = time.Since(t0)
	}
	slices.Sort(s)
	return s
}

func sortDurations(s []time.Duration) { slices.Sort(s) }

// measureBatch times reps batches of inner calls and reports per-call
// durations (for calls too short to time one by one).
func measureBatch(warm, reps, inner int, fn func()) samples {
	return measure(warm, reps, func() {
		for i := 0; i < inner; i++ {
			fn()
		}
	}).scale(inner)
}

func (s samples) scale(n int) samples {
	for i := range s {
		s[i] /= time.Duration(n)
	}
	return s
}

func (s samples) min() time.Duration    { return s[0] }
func (s samples) median() time.Duration { return s.quantile(0.5) }

// iqr is the interquartile range (p75 - p25).
func (s samples) iqr() time.Duration { return s.quantile(0.75) - s.quantile(0.25) }

func (s samples) quantile(q float64) time.Duration {
	if len(s) == 0 {
		return 0
	}
	x := q * float64(len(s)-1)
	i := int(x)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	f := x - float64(i)
	return s[i] + time.Duration(f*float64(s[i+1]-s[i]))
}

// fmtDur prints a duration in microseconds with three significant decimals.
func fmtDur(d time.Duration) string {
	us := float64(d) / 1e3
	switch {
	case us >= 1000:
		return fmt.Sprintf("%.2f ms", us/1e3)
	case us >= 100:
		return fmt.Sprintf("%.1f us", us)
	}
	return fmt.Sprintf("%.2f us", us)
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) int {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return 1
	}
	return 0
}

// newFlags returns a flag set that reports errors to stderr without exiting.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseBenchFlags parses the flags of a command that takes no positional
// arguments (the benchmarks), whose flag set prints nothing itself. done
// reports that the command ends now with exit status code: 0 after
// printing the flags for -h or --help, 2 after a one-line error.
func parseBenchFlags(fs *flag.FlagSet, name string, args []string, stderr io.Writer) (code int, done bool) {
	pos, err := parseArgs(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stderr)
		fs.PrintDefaults()
		return 0, true
	case err != nil:
		return fail(stderr, name, err), true
	case len(pos) > 0:
		return fail(stderr, name, fmt.Errorf("unexpected argument %q", pos[0])), true
	}
	return 0, false
}

// defaultThreads is the team width benchmarks use unless --threads says.
func defaultThreads() int { return runtime.GOMAXPROCS(0) }

// fail prints a one-line error and returns exit status 2 (bad input).
func fail(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "tenferro %s: %v\n", cmd, err)
	return 2
}

func timeNS(ns int64) time.Duration { return time.Duration(ns) }
