package tenferro_test

// The user guide (docs/guide) and the README show only code that runs:
// these tests hold them to the example files that compile and check it.
//
//   - every ```go block of the guide appears, line for line (indentation
//     aside), in a guide*_example_test.go file of some package;
//   - every inline code span of the guide that is a Go call of a package
//     (`tf.Sum(e, a, 0)`) or of a method (`a.Permute(1, 0)`) appears
//     verbatim in one of those files;
//   - every pkg.Name the guide mentions is exported by that package;
//   - every relative link of the guide and the README leads to a file;
//   - the README's program is the package's Example, line for line.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// guidePages returns the guide's Markdown files.
func guidePages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("docs", "guide", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no guide pages under docs/guide (%v)", err)
	}
	return pages
}

// guideExamples returns the sources of the guide's example files.
func guideExamples(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, pattern := range []string{"guide*_example_test.go", "*/guide*_example_test.go"} {
		names, _ := filepath.Glob(pattern)
		for _, n := range names {
			src, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			out[n] = string(src)
		}
	}
	if len(out) == 0 {
		t.Fatal("no guide example files")
	}
	return out
}

// codeLines splits code into its lines without indentation, dropping
// blank lines; the spaces before a trailing // comment collapse to one,
// since gofmt aligns such comments with their neighbours.
func codeLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, beforeComment.ReplaceAllString(l, " //"))
		}
	}
	return out
}

var beforeComment = regexp.MustCompile(`\s+//`)

// containsRun reports whether needle occurs in hay as consecutive lines.
func containsRun(hay, needle []string) bool {
	for i := 0; i+len(needle) <= len(hay); i++ {
		match := true
		for j := range needle {
			if hay[i+j] != needle[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// markdown is a page split into its fenced blocks and its prose.
type markdown struct {
	blocks []mdBlock
	prose  []mdLine
}

type mdBlock struct {
	lang string
	line int
	text string
}

type mdLine struct {
	line int
	text string
}

func parseMarkdown(src string) markdown {
	var md markdown
	var cur *mdBlock
	for i, l := range strings.Split(src, "\n") {
		if fence, ok := strings.CutPrefix(strings.TrimSpace(l), "```"); ok {
			if cur == nil {
				cur = &mdBlock{lang: fence, line: i + 1}
			} else {
				md.blocks = append(md.blocks, *cur)
				cur = nil
			}
			continue
		}
		if cur != nil {
			cur.text += l + "\n"
		} else {
			md.prose = append(md.prose, mdLine{i + 1, l})
		}
	}
	return md
}

var (
	inlineCode = regexp.MustCompile("`([^`]+)`")
	// A call of a package function or of a method: the guide's calls
	// that must appear in an example.
	goCall = regexp.MustCompile(`^(?:(?:tf|linalg|trace|program|ad|npy|cpu|team|einsum)\.[A-Z]\w*|[a-z]\w*\.[A-Z]\w*)(?:\[[^\]]*\])?\(`)
	// pkg.Name references, not preceded by an identifier or a dot
	// (np.linalg.svd is NumPy's).
	pkgName  = regexp.MustCompile(`(?:^|[^\w.])(tf|tenferro|linalg|trace|program|ad|npy|cpu|team|einsum)\.([A-Z]\w*)(?:\.([A-Z]\w*))?`)
	linkRef  = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	pkgDirOf = map[string]string{"tf": ".", "tenferro": ".", "linalg": "linalg", "trace": "trace",
		"program": "program", "ad": "ad", "npy": "npy", "cpu": "cpu", "team": "team", "einsum": "einsum"}
)

func TestGuideSnippets(t *testing.T) {
	examples := guideExamples(t)
	exampleLines := map[string][]string{}
	for n, src := range examples {
		exampleLines[n] = codeLines(src)
	}
	exports := map[string]map[string]bool{}
	exported := func(pkg, name string) bool {
		dir := pkgDirOf[pkg]
		if exports[dir] == nil {
			exports[dir] = exportedNames(t, dir)
		}
		return exports[dir][name]
	}
	checkNames := func(where, text string) {
		for _, m := range pkgName.FindAllStringSubmatch(text, -1) {
			name := m[2]
			if m[3] != "" && exported(m[1], m[2]+"."+m[3]) {
				continue // pkg.Type.Method
			}
			if !exported(m[1], name) {
				t.Errorf("%s: %s.%s is not an exported name of package %s", where, m[1], name, pkgDirOf[m[1]])
			}
		}
	}
	for _, page := range guidePages(t) {
		if filepath.Base(page) == "operations.md" {
			continue // generated from the sources (internal/op/gen checks it)
		}
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		md := parseMarkdown(string(src))
		for _, b := range md.blocks {
			if b.lang != "go" {
				continue
			}
			where := page + ":" + strconv.Itoa(b.line)
			checkNames(where, b.text)
			found := false
			for _, lines := range exampleLines {
				if containsRun(lines, codeLines(b.text)) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s: this go block is not in any guide example file (guide*_example_test.go):\n%s", where, b.text)
			}
		}
		for _, l := range md.prose {
			where := page + ":" + strconv.Itoa(l.line)
			for _, m := range inlineCode.FindAllStringSubmatch(l.text, -1) {
				span := m[1]
				checkNames(where, span)
				if !goCall.MatchString(span) {
					continue
				}
				found := false
				for _, ex := range examples {
					if strings.Contains(ex, span) {
						found = true
						break
					}
				}
				if !found {
					t.Errorf("%s: the call `%s` is not in any guide example file", where, span)
				}
			}
		}
	}
}

func TestGuideLinks(t *testing.T) {
	for _, page := range append(guidePages(t), "README.md", filepath.Join("docs", "architecture.md")) {
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range parseMarkdown(string(src)).prose {
			text := inlineCode.ReplaceAllString(l.text, "``") // code is not a link
			for _, m := range linkRef.FindAllStringSubmatch(text, -1) {
				target := m[1]
				if strings.Contains(target, "://") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				path := page
				if file != "" {
					path = filepath.Join(filepath.Dir(page), file)
				}
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: link to %s: %v", page, l.line, m[1], err)
					continue
				}
				if anchor != "" && !headingAnchors(t, path)[anchor] {
					t.Errorf("%s:%d: link to %s: %s has no heading with anchor #%s", page, l.line, m[1], path, anchor)
				}
			}
		}
	}
}

// headingAnchors lists the anchors GitHub gives the headings of the
// Markdown file at path: lower case, punctuation dropped, spaces as hyphens.
func headingAnchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	for _, l := range parseMarkdown(string(src)).prose {
		h, ok := strings.CutPrefix(l.text, "#")
		if !ok {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(strings.TrimLeft(h, "#"))) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		anchors[b.String()] = true
	}
	return anchors
}

// The README's Usage program is Example (example_test.go), line for line.
func TestReadmeExample(t *testing.T) {
	src, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, usage, ok := strings.Cut(string(src), "\n## Usage\n")
	if !ok {
		t.Fatal("README.md has no Usage section")
	}
	usage, _, _ = strings.Cut(usage, "\n## ")
	if !strings.Contains(usage, "](docs/guide/README.md)") {
		t.Error("the README's Usage section does not link the guide (docs/guide/README.md)")
	}
	var program string
	for _, b := range parseMarkdown(usage).blocks {
		if b.lang == "go" {
			program = b.text
			break
		}
	}
	readme := codeLines(funcBody(t, "README.md", program, "main"))
	ex, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	example := codeLines(funcBody(t, "example_test.go", string(ex), "Example"))
	if strings.Join(readme, "\n") != strings.Join(example, "\n") {
		t.Errorf("the README's main differs from Example in example_test.go:\nREADME:\n%s\nExample:\n%s",
			strings.Join(readme, "\n"), strings.Join(example, "\n"))
	}
}

// funcBody returns the text between the braces of function name in src.
func funcBody(t *testing.T, file, src, name string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
			return src[fset.Position(fd.Body.Lbrace).Offset+1 : fset.Position(fd.Body.Rbrace).Offset]
		}
	}
	t.Fatalf("%s: no func %s", file, name)
	return ""
}

// exportedNames lists the exported functions, types, variables and
// constants of the package in dir, and its methods as Type.Method.
func exportedNames(t *testing.T, dir string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	fset := token.NewFileSet()
	for _, n := range files {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = true
					continue
				}
				typ := d.Recv.List[0].Type
				if s, ok := typ.(*ast.StarExpr); ok {
					typ = s.X
				}
				switch x := typ.(type) {
				case *ast.IndexExpr:
					typ = x.X
				case *ast.IndexListExpr:
					typ = x.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					names[id.Name+"."+d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, id := range s.Names {
							names[id.Name] = true
						}
					}
				}
			}
		}
	}
	return names
}
