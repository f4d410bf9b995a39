package enginecheck_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenferro-go/tenferro/analysis/enginecheck"
	"golang.org/x/tools/go/analysis/analysistest"
)

// The testdata packages import stubs of the library under
// testdata/src/github.com/tenferro-go/tenferro with the signatures the
// analyzer matches, so the tests run offline in GOPATH mode.

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), enginecheck.Analyzer, "loops", "percall", "results", "closing", "ignored")
}

func TestSuggestedFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), enginecheck.Analyzer, "fixes")
}

func TestTestFiles(t *testing.T) {
	setFlag(t, "testfiles", "true")
	analysistest.Run(t, analysistest.TestData(), enginecheck.Analyzer, "withtests")
}

// TestEnginePerCallLine checks that a function building an engine on every
// call, called in a loop, is reported once, at the line of the
// construction, naming the loop's call.
func TestEnginePerCallLine(t *testing.T) {
	dir := analysistest.TestData()
	src, err := os.ReadFile(filepath.Join(dir, "src", "perline", "perline.go"))
	if err != nil {
		t.Fatal(err)
	}
	want, call := 0, 0
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, "cpu.Serial()") {
			want = i + 1
		}
		if strings.Contains(line, ":= exp(x)") {
			call = i + 1
		}
	}
	if want == 0 || call == 0 {
		t.Fatal("perline.go lost its markers")
	}
	var got []string
	for _, r := range analysistest.Run(t, dir, enginecheck.Analyzer, "perline") {
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			got = append(got, fmt.Sprintf("%s:%d: %s", filepath.Base(p.Filename), p.Line, d.Message))
		}
	}
	prefix := fmt.Sprintf("perline.go:%d: cpu.Serial builds an engine on every call of exp, which is called in a loop at perline.go:%d ", want, call)
	if len(got) != 1 || !strings.HasPrefix(got[0], prefix) {
		t.Fatalf("diagnostics = %q, want one starting %q", got, prefix)
	}
}

func setFlag(t *testing.T, name, value string) {
	f := enginecheck.Analyzer.Flags.Lookup(name)
	old := f.Value.String()
	if err := enginecheck.Analyzer.Flags.Set(name, value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { enginecheck.Analyzer.Flags.Set(name, old) })
}
