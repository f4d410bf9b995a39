package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenferro-go/tenferro/npy"
)

func TestParseArgs(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := fs.String("o", "", "")
	n := fs.Int("n", 0, "")
	got, err := parseArgs(fs, []string{"a", "-o", "f", "->", "b", "--n", "3", "->...", "c", "--", "-x", "--n"})
	if err != nil || *o != "f" || *n != 3 || !slices.Equal(got, []string{"a", "->", "b", "->...", "c", "-x", "--n"}) {
		t.Fatalf("got %v %v o=%q n=%d", got, err, *o, *n)
	}
	if got, err := parseArgs(fs, []string{"-n", "-4", "->"}); err != nil || *n != -4 || !slices.Equal(got, []string{"->"}) {
		t.Errorf("-n -4 ->: %v %v n=%d", got, err, *n)
	}
	for _, bad := range [][]string{{"a", "--nope"}, {"-nope"}, {"a", "-o"}} {
		if _, err := parseArgs(fs, bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, arg := range []string{"->", "->...", "-...->", "-1", "---"} {
		if !positionalDash(fs, arg) {
			t.Errorf("%q is not positional", arg)
		}
	}
	for _, arg := range []string{"-o", "--o=x", "-nope", "--", "-", "a", "-h", "--help"} {
		if positionalDash(fs, arg) {
			t.Errorf("%q is positional", arg)
		}
	}
}

// TestHelpExitsZero asks every command and benchmark for its usage.
func TestHelpExitsZero(t *testing.T) {
	var cmds [][]string
	for _, name := range names(commands) {
		if name != "bench" {
			cmds = append(cmds, []string{name})
		}
	}
	for _, name := range names(benches) {
		cmds = append(cmds, []string{"bench", name})
	}
	cmds = append(cmds, []string{"linalg", "svd"}, []string{"bench"}, nil)
	for _, c := range cmds {
		for _, h := range []string{"-h", "--help"} {
			if code, _, errs := runCLI(t, append(slices.Clone(c), h)...); code != 0 {
				t.Errorf("%v %s: exit %d: %s", c, h, code, errs)
			}
		}
	}
}

// TestDashSubscripts runs subscripts that begin with "-", with and
// without "--".
func TestDashSubscripts(t *testing.T) {
	dir := t.TempDir()
	s := filepath.Join(dir, "s.npy")
	if err := npy.WriteFile(s, []int{}, []float64{3}); err != nil {
		t.Fatal(err)
	}
	v := filepath.Join(dir, "v.npy")
	if err := npy.WriteFile(v, []int{3}, []float64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "o.npy")
	for _, c := range []struct {
		args []string
		want []float64
	}{
		{[]string{"einsum", "-o", out, "->", s}, []float64{3}},
		{[]string{"einsum", "-o", out, "--", "->", s}, []float64{3}},
		{[]string{"einsum", "i->...", v, "-o", out}, []float64{6}},
		{[]string{"einsum", "-o", out, "...->...", v}, []float64{1, 2, 3}},
	} {
		if code, _, errs := runCLI(t, c.args...); code != 0 {
			t.Errorf("%v: exit %d: %s", c.args, code, errs)
			continue
		}
		got, err := npy.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if cm := got.ColumnMajor().([]float64); !slices.Equal(cm, c.want) {
			t.Errorf("%v: %v, want %v", c.args, cm, c.want)
		}
	}
	if code, out, errs := runCLI(t, "path", "->", "scalar"); code != 0 || !strings.Contains(out, "->") {
		t.Errorf("path ->: exit %d: %s%s", code, out, errs)
	}
}

// TestMissingPaths names missing files and folders as missing.
func TestMissingPaths(t *testing.T) {
	dir := t.TempDir()
	gone := filepath.Join(dir, "gone")
	file := filepath.Join(dir, "file.npy")
	if err := npy.WriteFile(file, []int{2}, []float64{1, 2}); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"suite", "--instances", gone}, "no such directory: " + gone},
		{[]string{"suite", "--instances", file}, "not a directory"},
		{[]string{"suite", "--instances", empty}, "no instance files"},
		{[]string{"einsum", "-o", filepath.Join(dir, "o.npy"), "i->i", gone + ".npy"}, "no such file: " + gone + ".npy"},
		{[]string{"einsum", "--path", gone + ".json", "-o", filepath.Join(dir, "o.npy"), "i->i", file}, "no such file: " + gone + ".json"},
		{[]string{"linalg", "qr", "-o", filepath.Join(dir, "p"), gone + ".npy"}, "no such file: " + gone + ".npy"},
		{[]string{"bench", "permute", "--patterns", gone + ".json"}, "no such file: " + gone + ".json"},
	} {
		code, _, errs := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming %q", c.args, code, errs, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "o.npy")); err == nil {
		t.Error("a failed run wrote its output")
	}
}
