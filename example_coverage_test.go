package tenferro_test

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// exampleAllowlist names the exported entry points that need no Example,
// keyed as exampleKey writes them, with the reason.
var exampleAllowlist = map[string]string{
	"tenferro.Error.Error":  "satisfies the error interface; the message format is shown by ExampleErrorf",
	"tenferro.Error.Unwrap": "called by errors.Is and errors.As; ExampleWrapError shows both kinds matched",
	"cpu.Engine.Backend":    "implements tenferro.Engine for the operations of package tenferro; user code never calls it",
	"team.PanicError.Error": "satisfies the error interface; ExamplePanicError_Unwrap shows the error in use",
	"einsum.Error.Error":    "satisfies the error interface; ExampleExpr_Bind prints one",
	"einsum.Error.Unwrap":   "called by errors.Is; ExampleParseStrategy matches a kind",
	"npy.Error.Error":       "satisfies the error interface; ExampleMaxBytes prints one",
	"npy.Error.Unwrap":      "called by errors.Is; ExampleMaxBytes matches a kind",

	"backend.IndexError.Error":    "satisfies the error interface for engines; package tenferro wraps it in its own error",
	"backend.LinalgFailure.Error": "satisfies the error interface for engines; package linalg turns it into a tenferro error",

	"backend/enginetest.Run":         "runs the conformance suite on a *testing.T, from an engine package's test (see the package documentation)",
	"backend/enginetest.Check":       "reports through a testing.TB of a running test",
	"backend/enginetest.Destination": "fails through a testing.TB of a running test",
	"backend/enginetest.Operand":     "fails through a testing.TB of a running test",
}

// TestEveryEntryPointHasExample fails when an exported function, or an
// exported method of an exported type, of a public package (every package
// of the module outside internal/, cmd/ and examples/) has no Example in
// that package's tests (ExampleF, ExampleT_M, with or without a suffix)
// and is not in exampleAllowlist.
func TestEveryEntryPointHasExample(t *testing.T) {
	root := moduleRoot(t)
	entries, examples := map[string]string{}, map[string]bool{}
	for _, dir := range publicPackageDirs(t, root) {
		collectEntryPoints(t, root, dir, entries, examples)
	}
	if len(entries) == 0 {
		t.Skip("no package sources found")
	}
	var missing []string
	for key, file := range entries {
		_, allowed := exampleAllowlist[key]
		switch {
		case examples[key] && allowed:
			t.Errorf("%s has an Example: remove it from exampleAllowlist", key)
		case !examples[key] && !allowed:
			missing = append(missing, key+" ("+file+")")
		}
	}
	for key := range exampleAllowlist {
		if _, ok := entries[key]; !ok {
			t.Errorf("exampleAllowlist entry %s names no exported entry point", key)
		}
	}
	t.Logf("%d entry points, %d allowlisted", len(entries), len(exampleAllowlist))
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("%s has no Example", m)
	}
}

// moduleRoot returns the directory of this module's go.mod: the package
// directory the test runs in. It skips the test when the sources are not
// there.
func moduleRoot(t *testing.T) string {
	t.Helper()
	f, err := os.Open("go.mod")
	if err != nil {
		t.Skip("module sources not found:", err)
	}
	defer f.Close()
	first := bufio.NewScanner(f)
	if !first.Scan() || strings.TrimSpace(first.Text()) != "module github.com/tenferro-go/tenferro" {
		t.Skip("go.mod is not this module's")
	}
	root, err := os.Getwd()
	if err != nil {
		t.Skip(err)
	}
	return root
}

// publicPackageDirs returns the directories, relative to root, that hold
// the non-test Go files of a public package.
func publicPackageDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
				name == "testdata" || name == "vendor" || name == "internal" ||
				rel == "cmd" || rel == "examples" || hasFile(path, "go.mod")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go") {
			if dir := filepath.ToSlash(filepath.Dir(rel)); !seen[dir] {
				seen[dir] = true
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

func hasFile(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

// collectEntryPoints parses the Go files of dir (relative to root): it
// records the exported entry points of its package in entries (key: the
// file that declares it) and the entry points its Examples document in
// examples.
func collectEntryPoints(t *testing.T, root, dir string, entries map[string]string, examples map[string]bool) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(dir), "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		test := strings.HasSuffix(path, "_test.go")
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			name := fn.Name.Name
			switch {
			case test && fn.Recv == nil && strings.HasPrefix(name, "Example"):
				if target := exampleTarget(name); target != "" {
					examples[exampleKey(dir, target)] = true
				}
			case test || !fn.Name.IsExported():
			case fn.Recv == nil:
				entries[exampleKey(dir, name)] = filepath.ToSlash(filepath.Join(dir, filepath.Base(path)))
			default:
				if recv := receiverName(fn); ast.IsExported(recv) {
					entries[exampleKey(dir, recv+"."+name)] = filepath.ToSlash(filepath.Join(dir, filepath.Base(path)))
				}
			}
		}
	}
}

// exampleKey names entry point name ("F" or "T.M") of the package in dir.
func exampleKey(dir, name string) string {
	if dir == "." {
		return "tenferro." + name
	}
	return dir + "." + name
}

// exampleTarget returns what an Example function documents, by the naming
// convention of package testing: "" for Example and Example_suffix, "F"
// (or "T") for ExampleF and ExampleF_suffix, "T.M" for ExampleT_M and
// ExampleT_M_suffix. A suffix starts with a lower-case letter.
func exampleTarget(name string) string {
	parts := strings.SplitN(strings.TrimPrefix(name, "Example"), "_", 3)
	if parts[0] == "" {
		return ""
	}
	if len(parts) >= 2 && !isExampleSuffix(parts[1]) {
		return parts[0] + "." + parts[1]
	}
	return parts[0]
}

func isExampleSuffix(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n > 0 && unicode.IsLower(r)
}

// receiverName returns the name of a method's receiver type, without a
// pointer or type parameters.
func receiverName(fn *ast.FuncDecl) string {
	typ := fn.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	switch g := typ.(type) {
	case *ast.IndexExpr:
		typ = g.X
	case *ast.IndexListExpr:
		typ = g.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
