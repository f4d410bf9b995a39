package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenferro-go/tenferro/npy"
)

// fuzzArgs splits a fuzzed command line into arguments at '|'.
func fuzzArgs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "|")
}

// checkExit fails unless code is an exit status the CLI documents (0
// success, 1 output failure, 2 bad input) and a failure printed one line.
func checkExit(t *testing.T, args []string, code int, stderr *bytes.Buffer) {
	t.Helper()
	if code < 0 || code > 2 {
		t.Fatalf("%q: exit status %d", args, code)
	}
	if code != 0 && stderr.Len() == 0 {
		t.Fatalf("%q: exit status %d without a message", args, code)
	}
}

// FuzzPathArgs runs `tenferro path` on arbitrary arguments: subscripts,
// shapes (extreme extents included), flags and their values. It must exit
// 0 or 2 with a message, never panic.
func FuzzPathArgs(f *testing.F) {
	for _, s := range []string{
		"ij,jk->ik|2x3|3x4", "--json|a,a,a->a|5|5|5", "--memory-limit|NaN|ij->|2x2",
		"--memory-limit|+Inf|i,i|3|3", "abcdef,a,b,c,d,e,f->|1x1x1x1x1x1|8192|8192|8192|8192|8192|8192",
		"i,j->ij|1048576|1048576", "--optimize|given|ij|2x2", "ij|9223372036854775807x2", "...ij,...jk|2x3x4|5x4x6",
		"ii->i|3x4", "i$j|2", "", "--json", "ij,jk|-1x2|2x2", "|",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := append([]string{"path"}, fuzzArgs(s)...)
		var out, errb bytes.Buffer
		checkExit(t, args, run(args, &out, &errb), &errb)
	})
}

// FuzzEinsumArgs runs `tenferro einsum` with arbitrary flags, subscripts
// and operands (small .npy files, a missing file, a file that is not
// .npy, /dev/zero as a path file) under a 1 MiB memory budget (appended
// last, so it wins over a fuzzed one). It must exit 0, 1 or 2 with a
// message, never panic.
func FuzzEinsumArgs(f *testing.F) {
	dir := f.TempDir()
	for name, shape := range map[string][]int{"v.npy": {4}, "m.npy": {2, 3}, "s.npy": {}, "b.npy": {1, 1, 1}} {
		var buf bytes.Buffer
		n := 1
		for _, x := range shape {
			n *= x
		}
		if err := npy.Write(&buf, shape, make([]float64, n)); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "bad.npy"), []byte("not npy"), 0o644)
	for _, s := range []string{
		"ij,j->i|m.npy|v.npy", "i,i->|v.npy|v.npy", "--path|greedy|ij->ji|m.npy", "--path|/dev/zero|i->|v.npy",
		"--threads|0|i->|v.npy", "--memory-budget|1TB|i,j,k->ijk|v.npy|v.npy|v.npy", "ij|missing.npy", "i|bad.npy",
		"abc->|b.npy", "->|s.npy", "--path|p.json|ij,jk|m.npy|m.npy", "i,j,k,l,m,n,o->ijklmno|v.npy|v.npy|v.npy|v.npy|v.npy|v.npy|v.npy",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := []string{"einsum", "-o", filepath.Join(t.TempDir(), "out.npy")}
		for _, a := range fuzzArgs(s) {
			if strings.HasSuffix(a, ".npy") || strings.HasSuffix(a, ".json") {
				a = filepath.Join(dir, a)
			}
			args = append(args, a)
		}
		args = append(args, "--memory-budget", "1MiB")
		var out, errb bytes.Buffer
		checkExit(t, args, run(args, &out, &errb), &errb)
	})
}
