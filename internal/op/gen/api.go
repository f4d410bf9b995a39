package main

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/tenferro-go/tenferro/internal/op"
)

// api is the exported surface of the packages the operations reference
// names, read from their sources: package tenferro (prefix tf), linalg
// and trace.
type api struct {
	pkgs map[string]*pkgAPI // by prefix: "tf", "linalg", "trace"
	// records lists, for every method of trace.Trace, the operations it
	// records: directly (t.record(op.K, ...)) or through the other methods
	// of the trace it calls.
	records map[string][]op.Kind
}

// pkgAPI is one package's exported functions and methods.
type pkgAPI struct {
	prefix  string
	doc     *doc.Package
	funcs   map[string]*doc.Func            // top-level functions, constructors included
	methods map[string]map[string]*doc.Func // exported type -> method
}

// loadAPI parses the non-test sources of the packages under root.
func loadAPI(root string) (*api, error) {
	a := &api{pkgs: map[string]*pkgAPI{}}
	for _, p := range []struct{ prefix, dir, path string }{
		{"tf", ".", "github.com/tenferro-go/tenferro"},
		{"linalg", "linalg", "github.com/tenferro-go/tenferro/linalg"},
		{"trace", "trace", "github.com/tenferro-go/tenferro/trace"},
	} {
		pa, records, err := loadPkg(filepath.Join(root, p.dir), p.path, p.prefix)
		if err != nil {
			return nil, err
		}
		a.pkgs[p.prefix] = pa
		if p.prefix == "trace" {
			a.records = records
		}
	}
	return a, nil
}

// loadPkg parses the package in dir and, for package trace, finds what
// its methods record (before go/doc drops the unexported ones).
func loadPkg(dir, importPath, prefix string) (*pkgAPI, map[string][]op.Kind, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	// One fixed build context, so that the page does not depend on the
	// machine that generates it.
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH = "linux", "amd64"
	fset := token.NewFileSet()
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		if ok, err := ctx.MatchFile(dir, filepath.Base(n)); err != nil || !ok {
			if err != nil {
				return nil, nil, err
			}
			continue
		}
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, nil, err
		}
		f, err := parser.ParseFile(fset, n, src, parser.ParseComments)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("gen: no Go files in %s", dir)
	}
	records := recorded(files)
	d, err := doc.NewFromFiles(fset, files, importPath, doc.PreserveAST)
	if err != nil {
		return nil, nil, err
	}
	p := &pkgAPI{prefix: prefix, doc: d, funcs: map[string]*doc.Func{}, methods: map[string]map[string]*doc.Func{}}
	for _, f := range d.Funcs {
		p.funcs[f.Name] = f
	}
	for _, t := range d.Types {
		for _, f := range t.Funcs {
			p.funcs[f.Name] = f
		}
		ms := map[string]*doc.Func{}
		for _, m := range t.Methods {
			ms[m.Name] = m
		}
		p.methods[t.Name] = ms
	}
	return p, records, nil
}

// lookup finds a function by its reference name: "tf.Add" (a function),
// "tf.Tensor.Permute" or "trace.Trace.Add" (a method).
func (a *api) lookup(ref string) (*pkgAPI, *doc.Func, bool) {
	parts := strings.Split(ref, ".")
	p := a.pkgs[parts[0]]
	if p == nil {
		return nil, nil, false
	}
	switch len(parts) {
	case 2:
		f, ok := p.funcs[parts[1]]
		return p, f, ok
	case 3:
		f, ok := p.methods[parts[1]][parts[2]]
		return p, f, ok
	}
	return nil, nil, false
}

// call renders the function of ref as a call with its parameter names:
// tf.SumInto(e, dst, a, axes...), linalg.SVD[R](e, a, opts...), t.Permute(perm...)
// for a method of tenferro.Tensor, tr.Sum(a, axes...) for one of
// trace.Trace. Type parameters that no parameter mentions cannot be
// inferred and are shown.
func (a *api) call(ref string) string {
	p, f, ok := a.lookup(ref)
	if !ok {
		return ref
	}
	name := p.prefix + "." + f.Name
	if f.Recv != "" {
		typ := strings.TrimPrefix(strings.Split(f.Recv, "[")[0], "*")
		switch typ {
		case "Tensor":
			name = "t." + f.Name
		case "Trace":
			name = "tr." + f.Name
		default:
			name = "(*" + p.prefix + "." + typ + ")." + f.Name
		}
	}
	ft := f.Decl.Type
	used := map[string]bool{}
	var params []string
	for _, fld := range ft.Params.List {
		ast.Inspect(fld.Type, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				used[id.Name] = true
			}
			return true
		})
		_, variadic := fld.Type.(*ast.Ellipsis)
		for _, n := range fld.Names {
			if variadic {
				params = append(params, n.Name+"...")
			} else {
				params = append(params, n.Name)
			}
		}
	}
	var explicit []string
	if ft.TypeParams != nil {
		for _, fld := range ft.TypeParams.List {
			for _, n := range fld.Names {
				if !used[n.Name] {
					explicit = append(explicit, n.Name)
				}
			}
		}
	}
	if len(explicit) > 0 {
		name += "[" + strings.Join(explicit, ", ") + "]"
	}
	return name + "(" + strings.Join(params, ", ") + ")"
}

// synopsis is the first sentence of ref's doc comment: up to the first
// period that ends a sentence outside parentheses (so that "(Saad, SIAM
// J. Numer. Anal. ...)" does not end it), within the first paragraph, with
// doc links as plain names. A sentence of more than 300 bytes ends at its
// first colon outside parentheses.
func (a *api) synopsis(ref string) string {
	_, f, ok := a.lookup(ref)
	if !ok {
		return ""
	}
	para, _, _ := strings.Cut(strings.TrimSpace(f.Doc), "\n\n")
	text := docLink.ReplaceAllString(strings.Join(strings.Fields(para), " "), "$1")
	depth, colon := 0, -1
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ':':
			if depth == 0 && colon < 0 && i+1 < len(text) && text[i+1] == ' ' {
				colon = i
			}
		case '.':
			end := i+1 == len(text) || text[i+1] == ' '
			ellipsis := i > 0 && text[i-1] == '.'
			if depth == 0 && end && !ellipsis {
				text = text[:i+1]
				i = len(text)
			}
		}
	}
	if len(text) > 300 && colon > 0 {
		text = text[:colon]
	}
	return strings.TrimSuffix(strings.TrimSuffix(text, "."), ":") + "."
}

// docLink matches a doc link, [Name] or [pkg.Name].
var docLink = regexp.MustCompile(`\[(\*?[A-Za-z][A-Za-z0-9_.]*)\]`)

// recorded maps every method of trace.Trace to the catalog operations it
// records, following calls to the trace's other methods.
func recorded(files []*ast.File) map[string][]op.Kind {
	kinds := map[string]op.Kind{}
	for _, k := range op.Kinds() {
		kinds[k.String()] = k
	}
	direct := map[string][]op.Kind{}
	calls := map[string][]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Body == nil || len(fd.Recv.List[0].Names) == 0 {
				continue
			}
			if star, ok := fd.Recv.List[0].Type.(*ast.StarExpr); !ok || fmt.Sprint(star.X) != "Trace" {
				continue
			}
			recv, m := fd.Recv.List[0].Names[0].Name, fd.Name.Name
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := c.Fun.(*ast.SelectorExpr)
				if !ok || fmt.Sprint(sel.X) != recv {
					return true
				}
				if sel.Sel.Name != "record" {
					calls[m] = append(calls[m], sel.Sel.Name)
					return true
				}
				if len(c.Args) > 0 {
					if ks, ok := c.Args[0].(*ast.SelectorExpr); ok && fmt.Sprint(ks.X) == "op" {
						if k, ok := kinds[ks.Sel.Name]; ok {
							direct[m] = append(direct[m], k)
						}
					}
				}
				return true
			})
		}
	}
	out := map[string][]op.Kind{}
	var visit func(m string, seen map[string]bool, acc *[]op.Kind)
	visit = func(m string, seen map[string]bool, acc *[]op.Kind) {
		if seen[m] {
			return
		}
		seen[m] = true
		*acc = append(*acc, direct[m]...)
		for _, c := range calls[m] {
			visit(c, seen, acc)
		}
	}
	methods := map[string]bool{}
	for m := range direct {
		methods[m] = true
	}
	for m := range calls {
		methods[m] = true
	}
	for m := range methods {
		var acc []op.Kind
		visit(m, map[string]bool{}, &acc)
		slices.Sort(acc)
		out[m] = slices.Compact(acc)
	}
	return out
}
