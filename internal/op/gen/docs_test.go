package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenferro-go/tenferro/internal/op"
)

const moduleRoot = "../../.."

func loadTestAPI(t *testing.T) *api {
	t.Helper()
	a, err := loadAPI(moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The committed reference is what the generator writes now.
func TestOperationsDocIsCurrent(t *testing.T) {
	a := loadTestAPI(t)
	want, err := operationsDoc(a)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(moduleRoot, "docs", "guide", "operations.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("docs/guide/operations.md is stale: run go generate ./...")
	}
	again, err := operationsDoc(loadTestAPI(t))
	if err != nil || !bytes.Equal(again, want) {
		t.Fatalf("a second rendering differs (err %v): the page is not deterministic", err)
	}
}

// Every catalog operation has exactly one row, in its category's section,
// and every row names only functions that exist.
func TestOperationsDocCoversCatalog(t *testing.T) {
	a := loadTestAPI(t)
	md, err := operationsDoc(a)
	if err != nil {
		t.Fatal(err)
	}
	page := string(md)
	for _, k := range op.Kinds() {
		row := "| **" + k.String() + "** |"
		if n := strings.Count(page, row); n != 1 {
			t.Errorf("%v: %d rows, want 1", k, n)
			continue
		}
		var title string
		for _, s := range sections {
			if s.cat == k.Category() {
				title = s.title
			}
		}
		at := strings.Index(page, row)
		head := strings.LastIndex(page[:at], "\n## ")
		if title == "" || !strings.HasPrefix(page[head+4:], title+"\n") {
			t.Errorf("%v: its row is not under the section of category %v (%q)", k, k.Category(), title)
		}
		if in := k.Info(); in.Generated {
			line := page[at : at+strings.Index(page[at:], "\n")]
			for _, f := range []string{"`tf." + in.Name, "`tf." + in.Into, "`tr." + in.Name} {
				// A call, or a call with explicit type arguments.
				if !strings.Contains(line, f+"(") && !strings.Contains(line, f+"[") {
					t.Errorf("%v: its row does not name %s", k, f[1:])
				}
			}
		}
	}
	if n := len(sections); n != len(slices.CompactFunc(slices.Clone(sections), func(x, y section) bool { return x.cat == y.cat })) {
		t.Errorf("%d sections with a repeated category", n)
	}
}

// checkExposures catches each kind of disagreement between the table and
// the sources.
func TestCheckExposuresCatchesMistakes(t *testing.T) {
	a := loadTestAPI(t)
	if err := checkExposures(a); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		edit   func(map[op.Kind][]string)
		reason string
	}{
		{"a function that does not exist", func(m map[op.Kind][]string) {
			m[op.Matmul] = append(m[op.Matmul], "tf.MatmulTwice")
		}, "tf.MatmulTwice does not exist"},
		{"a trace method that records another operation", func(m map[op.Kind][]string) {
			m[op.Inv] = append(m[op.Inv], "trace.Trace.Det")
		}, "trace.Trace.Det does not record it"},
		{"a recording method no entry names", func(m map[op.Kind][]string) {
			m[op.EighValues] = slices.DeleteFunc(slices.Clone(m[op.EighValues]), func(r string) bool { return r == "trace.Trace.Eigvalsh" })
		}, "trace.Trace.Eigvalsh records"},
		{"an operation without an entry", func(m map[op.Kind][]string) { delete(m, op.Pinv) }, "Pinv: no entry"},
		{"an entry for a generated operation", func(m map[op.Kind][]string) { m[op.Add] = []string{"tf.Add"} }, "Add has generated wrappers"},
		{"an operation with neither functions nor a note", func(m map[op.Kind][]string) { m[op.Det] = nil }, "Det: no public function"},
	} {
		saved := exposures
		exposures = map[op.Kind][]string{}
		for k, v := range saved {
			exposures[k] = slices.Clone(v)
		}
		c.edit(exposures)
		err := checkExposures(a)
		exposures = saved
		if err == nil || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.reason)
		}
	}
}

func TestCall(t *testing.T) {
	a := loadTestAPI(t)
	for ref, want := range map[string]string{
		"tf.Add":                  "tf.Add(e, a, b)",
		"tf.SumInto":              "tf.SumInto(e, dst, a, axes...)",
		"tf.Abs":                  "tf.Abs[R](e, a)",
		"tf.Complex":              "tf.Complex[C](e, re, im)",
		"tf.Zeros":                "tf.Zeros[T](shape...)",
		"tf.Tensor.Permute":       "t.Permute(perm...)",
		"trace.Trace.SVD":         "tr.SVD(a)",
		"linalg.SVD":              "linalg.SVD[R](e, a, opts...)",
		"linalg.Lanczos.Solve":    "(*linalg.Lanczos).Solve(e, apply, x0, opts, res)",
		"tf.NoSuchFunction":       "tf.NoSuchFunction",
		"trace.Trace.NoSuchThing": "trace.Trace.NoSuchThing",
	} {
		if got := a.call(ref); got != want {
			t.Errorf("call(%s) = %q, want %q", ref, got, want)
		}
	}
}

func TestSynopsis(t *testing.T) {
	a := loadTestAPI(t)
	for ref, want := range map[string]string{
		"tf.Numel":         "Numel returns the number of elements of shape (1 for rank 0).",
		"tf.Tensor.Shape":  "Shape returns the extents.",
		"linalg.ExpmVInto": "ExpmVInto sets dst = exp(t·A)·v (see ExpmV).",
	} {
		if got := a.synopsis(ref); got != want {
			t.Errorf("synopsis(%s) = %q, want %q", ref, got, want)
		}
	}
	// A period inside parentheses does not end the sentence.
	if got := a.synopsis("linalg.Eigsh"); !strings.HasSuffix(got, "with full reorthogonalization.") {
		t.Errorf("synopsis(linalg.Eigsh) = %q", got)
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"|a|":        `\|a\|`,
		"a**b":       `a\*\*b`,
		"Σ_{j<=k}":   `Σ\_{j&lt;=k}`,
		"`x` and \\": "\\`x\\` and \\\\",
	} {
		if got := escape(in); got != want {
			t.Errorf("escape(%q) = %q, want %q", in, got, want)
		}
	}
}
