// Command tenferro runs einsum contractions and linear algebra on .npy
// files, reports contraction paths, runs the einsum instance suite and
// benchmarks the library.
//
// Usage:
//
//	tenferro version
//	tenferro bench engine [--threads N] [--json]
//	tenferro bench gemm [--sizes 32,64,...] [--dtype f64|f32|c64|c128] [--threads N] [--json] [--no-reference] [--plot FILE.png]
//	tenferro bench permute [--patterns FILE] [--json]
//	tenferro bench dispatch [--widths 1,2] [--json]
//	tenferro bench linalg [--ops LIST] [--sizes 256,512,...] [--dtype f64,c128] [--batch N] [--threads N] [--json] [--budget D] [--plot FILE.png]
//	tenferro bench ops [--ops LIST] [--sizes 1e6,...] [--dtype f32,f64] [--threads N] [--json] [--budget D] [--plot FILE.png]
//	tenferro bench grad [--instances DIR] [--threads N] [--json] [--budget D] [--pairwise]
//	tenferro bench gonum [--ops LIST] [--sizes 512,1024] [--threads N] [--json] [--budget D]
//	tenferro einsum [--path greedy|optimal|auto|random|search|FILE.json] [--threads N] [--memory-limit BYTES] -o OUT.npy SUBSCRIPTS IN.npy...
//	tenferro linalg OP [--threads N] [options] -o PREFIX IN.npy...
//	tenferro path [--optimize greedy|optimal|auto|random|search] [--memory-limit BYTES] [--dtype f64] [--json] SUBSCRIPTS SHAPE...
//	tenferro suite [--instances DIR] [--strategy opt_flops|opt_size|auto] [--threads N] [--runs N] [--json] [--plot FILE.png] [NAME...]
//
// Exit status: 0 on success, 2 on bad input (with a one-line error on
// standard error), 1 on other failures.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand. run returns the exit status.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var (
	commands = map[string]command{}
	benches  = map[string]command{}
)

func register(name, summary string, run func([]string, io.Writer, io.Writer) int) {
	commands[name] = command{summary, run}
}

func registerBench(name, summary string, run func([]string, io.Writer, io.Writer) int) {
	benches[name] = command{summary, run}
}

// Version is the library version the CLI reports.
const Version = "0.1.0"

func init() {
	register("version", "print the version", func(_ []string, stdout, _ io.Writer) int {
		fmt.Fprintf(stdout, "tenferro %s\n", Version)
		return 0
	})
	register("bench", "run a benchmark (tenferro bench for the list)", runBench)
}

func names(m map[string]command) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

func usage(w io.Writer, m map[string]command, prefix string) {
	fmt.Fprintf(w, "usage: %s <command> [arguments]\n\ncommands:\n", prefix)
	for _, n := range names(m) {
		fmt.Fprintf(w, "  %-10s %s\n", n, m[n].summary)
	}
}

func runBench(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || isHelp(args[0]) {
		usage(stderr, benches, "tenferro bench")
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := benches[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "tenferro bench: unknown benchmark %q (have %s)\n", args[0], strings.Join(names(benches), ", "))
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || isHelp(args[0]) {
		usage(stderr, commands, "tenferro")
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "tenferro: unknown command %q (have %s)\n", args[0], strings.Join(names(commands), ", "))
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

// isHelp reports whether arg asks for the usage.
func isHelp(arg string) bool { return arg == "-h" || arg == "--help" || arg == "help" }

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }
