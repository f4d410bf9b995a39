package enginecheck

import (
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	driver "golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// knownFindings are the diagnostics the analyzer gives on the module's own
// code, by file (relative to the module root) and message prefix; anything
// else fails TestModule.
var knownFindings = []struct{ file, prefix string }{}

// loadModule loads the module's packages (test files excluded, as the
// analyzer skips them by default) from the source tree this test sits in.
func loadModule(t *testing.T) []*packages.Package {
	t.Helper()
	if testing.Short() {
		t.Skip("loads and type-checks the whole module")
	}
	cfg := &packages.Config{Mode: packages.LoadSyntax, Dir: filepath.Join("..", "..")}
	pkgs, err := packages.Load(cfg, modulePath+"/...")
	if err != nil {
		t.Fatal(err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("%d errors loading the module", n)
	}
	return pkgs
}

// TestModule runs the analyzer over every package of the module, commands
// and examples included, and expects no diagnostics beyond knownFindings.
func TestModule(t *testing.T) {
	pkgs := loadModule(t)
	g, err := driver.Analyze([]*analysis.Analyzer{Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	seen := make([]bool, len(knownFindings))
	for act := range g.All() {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		if act.Analyzer != Analyzer {
			continue
		}
	diags:
		for _, d := range act.Diagnostics {
			p := act.Package.Fset.Position(d.Pos)
			rel, _ := filepath.Rel(root, p.Filename)
			for i, k := range knownFindings {
				if filepath.ToSlash(rel) == k.file && strings.HasPrefix(d.Message, k.prefix) {
					seen[i] = true
					continue diags
				}
			}
			t.Errorf("%s:%d: %s", rel, p.Line, d.Message)
		}
	}
	for i, k := range knownFindings {
		if !seen[i] {
			t.Logf("known finding gone (remove it from knownFindings): %s: %s", k.file, k.prefix)
		}
	}
}

// TestLibraryAPI checks that the library still has the functions, methods
// and signatures the analyzer (and the stubs under testdata) assume.
func TestLibraryAPI(t *testing.T) {
	pkgs := loadModule(t)
	byPath := map[string]*types.Package{}
	for _, p := range pkgs {
		byPath[p.PkgPath] = p.Types
	}
	lookup := func(path, name string) types.Object {
		t.Helper()
		p := byPath[path]
		if p == nil {
			t.Fatalf("package %s not loaded", path)
		}
		obj := p.Scope().Lookup(name)
		if obj == nil {
			t.Fatalf("%s.%s is gone", path, name)
		}
		return obj
	}
	fn := func(path, name string) *types.Func {
		t.Helper()
		f, ok := lookup(path, name).(*types.Func)
		if !ok {
			t.Fatalf("%s.%s is not a function", path, name)
		}
		return f
	}

	for _, name := range []string{"Serial", "New"} {
		if !isEngineCtor(fn(modulePath+"/cpu", name)) {
			t.Errorf("cpu.%s is not recognized as an engine constructor", name)
		}
	}
	if res := fn(teamPath, "New").Signature().Results().At(0).Type(); !isTeam(res) || !hasMethod(res, "Close") {
		t.Error("team.New does not return a *team.Team with Close")
	}
	for _, name := range []string{"Threads", "OnStart", "Labels", "LockOSThread", "Spin"} {
		fn(teamPath, name)
	}
	if _, ok := lookup(teamPath, "DefaultSpin").(*types.Const); !ok {
		t.Error("team.DefaultSpin is not a constant")
	}

	matmul := fn(modulePath, "Matmul")
	if !returnsTensor(matmul) {
		t.Error("tenferro.Matmul does not return a *tenferro.Tensor")
	}
	fn(modulePath, "MatmulInto")
	fn(linalgPath, "SolveInto")
	tensor := types.NewPointer(lookup(modulePath, "Tensor").Type())
	for name := range readOnly {
		if !hasMethod(tensor, name) {
			t.Errorf("Tensor.%s (listed as read-only) is gone", name)
		}
	}
	if !hasMethod(tensor, "Release") {
		t.Error("Tensor.Release is gone")
	}
	if iface := lookup(modulePath, "Engine").Type(); !isEngine(iface) {
		t.Error("tenferro.Engine is not recognized as an engine")
	}
}
