package enginecheck

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// The import paths the analyzer knows. Every decision is made on the
// types.Object of a called function and the package it belongs to, never on
// the name a file imports it under.
const (
	modulePath  = "github.com/tenferro-go/tenferro"
	backendPath = modulePath + "/backend"
	teamPath    = modulePath + "/team"
	linalgPath  = modulePath + "/linalg"
)

// Analyzer reports engine and team construction per loop iteration or per
// call from a loop, pool-backed results dropped in loops, and engines or
// teams that are never closed. See the package documentation.
var Analyzer = &analysis.Analyzer{
	Name:     "enginecheck",
	Doc:      analyzerDoc,
	URL:      "https://pkg.go.dev/github.com/tenferro-go/tenferro/analysis/enginecheck",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

const analyzerDoc = `report misuse of tenferro engines, teams and pool-backed results

enginecheck reports: an engine (cpu.New, cpu.Serial, any tenferro
constructor of a tenferro.Engine) or a worker team (team.New) built inside
a loop, or in a function of the same package that builds it on every call
and is called from a loop; a dedicated team (OnStart, Labels, LockOSThread,
a non-default Spin) built that way; the result of an allocating operation
that has an ...Into form, made in a loop and neither released nor kept; and
an engine or team held in a local variable that is never closed.

Files ending in _test.go are skipped unless -testfiles is set: tests build
engines per case for isolation and benchmarks build them per iteration to
measure what that costs.`

// testFiles is the -testfiles flag.
var testFiles bool

func init() {
	Analyzer.Flags.BoolVar(&testFiles, "testfiles", false, "also report in _test.go files")
}

// checker holds what one pass needs across the four checks.
type checker struct {
	pass *analysis.Pass
	info *types.Info
	// The files the checks look at and the root cursor of each.
	files []inspector.Cursor
	// The package's functions and the function literals bound once to a
	// local variable, for the per-call check.
	funcs map[types.Object]*function
	// perCall memoizes the constructions a function performs on every
	// call; a nil entry marks one being computed (recursion).
	perCall map[*function][]site
	// varying memoizes the per-iteration variables of each loop.
	varying map[ast.Node]map[types.Object]bool
	// reported keeps one diagnostic per construction site.
	reported map[token.Pos]bool
}

func run(pass *analysis.Pass) (any, error) {
	filterIgnored(pass)
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	c := &checker{
		pass:     pass,
		info:     pass.TypesInfo,
		funcs:    map[types.Object]*function{},
		perCall:  map[*function][]site{},
		varying:  map[ast.Node]map[types.Object]bool{},
		reported: map[token.Pos]bool{},
	}
	for fc := range in.Root().Preorder((*ast.File)(nil)) {
		f := fc.Node().(*ast.File)
		name := pass.Fset.File(f.Pos()).Name()
		if ast.IsGenerated(f) || (!testFiles && strings.HasSuffix(name, "_test.go")) {
			continue
		}
		c.files = append(c.files, fc)
	}
	c.collectFuncs()
	c.checkConstruction()
	c.checkPerCall()
	c.checkResults()
	c.checkClose()
	return nil, nil
}

// ctor describes a call that builds an engine or a team.
type ctor struct {
	name      string // "cpu.Serial", "team.New"
	team      bool
	dedicated string // the option that makes a team dedicated, or ""
}

// what names the thing a construction builds, for messages.
func (k *ctor) what() string {
	switch {
	case k.dedicated != "":
		return "a dedicated worker team (" + k.dedicated + ")"
	case k.team:
		return "a worker team"
	}
	return "an engine"
}

// construction reports whether call builds an engine or a team.
func (c *checker) construction(call *ast.CallExpr) (*ctor, bool) {
	fn, ok := typeutil.Callee(c.info, call).(*types.Func)
	if !ok || !inModule(fn.Pkg()) || fn.Signature().Recv() != nil {
		return nil, false
	}
	if fn.Pkg().Path() == teamPath && fn.Name() == "New" {
		return &ctor{name: qualified(fn), team: true, dedicated: c.dedicatedOption(call, fn.Pkg())}, true
	}
	if fn.Pkg() != c.pass.Pkg && isEngineCtor(fn) {
		return &ctor{name: qualified(fn)}, true
	}
	return nil, false
}

// isEngineCtor reports whether fn is a package-level function of one of the
// module's library packages that returns a tenferro.Engine with a Close
// method. Helpers of the package under analysis are not constructors
// (they are followed by the per-call check instead), nor are functions of
// commands and test packages.
func isEngineCtor(fn *types.Func) bool {
	p := fn.Pkg()
	if !inModule(p) || fn.Signature().Recv() != nil || p.Name() == "main" || strings.HasSuffix(p.Path(), "_test") {
		return false
	}
	res := fn.Signature().Results()
	for i := range res.Len() {
		if t := res.At(i).Type(); isEngine(t) && hasMethod(t, "Close") {
			return true
		}
	}
	return false
}

// isEngine reports whether t has the method set of tenferro.Engine:
// Backend() returning backend.Engine. Checking the method rather than
// looking up the interface keeps the check independent of which packages a
// pass happens to see.
func isEngine(t types.Type) bool {
	if _, ok := t.Underlying().(*types.Interface); ok {
		if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == modulePath && n.Obj().Name() == "Engine" {
			return true
		}
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Backend")
	m, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := m.Signature()
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	n, ok := sig.Results().At(0).Type().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == backendPath && n.Obj().Name() == "Engine"
}

func hasMethod(t types.Type, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	_, ok := obj.(*types.Func)
	return ok
}

// dedicatedOption names the first option of a team.New call that makes the
// team dedicated, or returns "". Options passed through a variable or a
// spread slice are not followed.
func (c *checker) dedicatedOption(call *ast.CallExpr, teamPkg *types.Package) string {
	for _, arg := range call.Args {
		oc, ok := ast.Unparen(arg).(*ast.CallExpr)
		if !ok {
			continue
		}
		fn, ok := typeutil.Callee(c.info, oc).(*types.Func)
		if !ok || fn.Pkg() != teamPkg {
			continue
		}
		switch fn.Name() {
		case "OnStart":
			if len(oc.Args) == 1 && c.isNil(oc.Args[0]) {
				continue
			}
			return "team.OnStart"
		case "Labels", "LockOSThread":
			return "team." + fn.Name()
		case "Spin":
			if len(oc.Args) == 1 && c.isDefaultSpin(oc.Args[0], teamPkg) {
				continue
			}
			return "team.Spin"
		}
	}
	return ""
}

func (c *checker) isNil(e ast.Expr) bool {
	tv, ok := c.info.Types[e]
	return ok && tv.IsNil()
}

// isDefaultSpin reports whether e is a constant equal to team.DefaultSpin.
func (c *checker) isDefaultSpin(e ast.Expr, teamPkg *types.Package) bool {
	tv, ok := c.info.Types[e]
	def, ok2 := teamPkg.Scope().Lookup("DefaultSpin").(*types.Const)
	return ok && ok2 && tv.Value != nil && constant.Compare(tv.Value, token.EQL, def.Val())
}

func inModule(p *types.Package) bool {
	return p != nil && (p.Path() == modulePath || strings.HasPrefix(p.Path(), modulePath+"/"))
}

// qualified names fn as a reader of the calling code would write it:
// tenferro.Matmul, cpu.Serial, linalg.KrylovExp.ExpmV.
func qualified(fn *types.Func) string {
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			return fn.Pkg().Name() + "." + n.Obj().Name() + "." + fn.Name()
		}
	}
	return fn.Pkg().Name() + "." + fn.Name()
}

// where formats a position as file:line, for messages that point at a
// second place.
func (c *checker) where(pos token.Pos) string {
	p := c.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// up returns the parent of cur and the edge from it, looking through
// parentheses.
func up(cur inspector.Cursor) (inspector.Cursor, edge.Kind) {
	for {
		k, _ := cur.ParentEdge()
		p := cur.Parent()
		if k != edge.ParenExpr_X {
			return p, k
		}
		cur = p
	}
}

// enclosingLoop returns the innermost for or range statement whose body
// contains cur within the same function, or false. A function literal
// called on the spot (not by a go statement) is looked through: its body
// runs once per evaluation of the call. Any other function literal ends
// the search, as does a function declaration.
func enclosingLoop(cur inspector.Cursor) (inspector.Cursor, bool) {
	for {
		if _, ok := cur.Node().(*ast.File); ok {
			return cur, false
		}
		k, _ := cur.ParentEdge()
		p := cur.Parent()
		switch p.Node().(type) {
		case *ast.ForStmt:
			if k == edge.ForStmt_Body {
				return p, true
			}
		case *ast.RangeStmt:
			if k == edge.RangeStmt_Body {
				return p, true
			}
		case *ast.FuncDecl:
			return p, false
		case *ast.FuncLit:
			if !calledOnTheSpot(p) {
				return p, false
			}
		}
		cur = p
	}
}

// repeatingLoop is enclosingLoop without the loops that range over a
// composite literal: a table written in the source runs a fixed, small
// number of iterations, like the statements it stands for (one case per
// configuration), so what it builds per iteration is not reported.
func repeatingLoop(cur inspector.Cursor) (inspector.Cursor, bool) {
	for {
		loop, ok := enclosingLoop(cur)
		if !ok {
			return loop, false
		}
		r, isRange := loop.Node().(*ast.RangeStmt)
		if !isRange {
			return loop, true
		}
		if _, table := ast.Unparen(r.X).(*ast.CompositeLit); !table {
			return loop, true
		}
		cur = loop
	}
}

// calledOnTheSpot reports whether the function literal at lit is the callee
// of a call that is not the operand of a go statement.
func calledOnTheSpot(lit inspector.Cursor) bool {
	call, k := up(lit)
	if k != edge.CallExpr_Fun {
		return false
	}
	_, k = up(call)
	return k != edge.GoStmt_Call
}

// loopBody returns the body of a for or range statement.
func loopBody(loop ast.Node) *ast.BlockStmt {
	switch l := loop.(type) {
	case *ast.ForStmt:
		return l.Body
	case *ast.RangeStmt:
		return l.Body
	}
	return nil
}

// inside reports whether obj is declared within n.
func inside(obj types.Object, n ast.Node) bool {
	return obj.Pos() >= n.Pos() && obj.Pos() < n.End()
}

// usesOf calls f with the cursor of every use of obj under root.
func (c *checker) usesOf(root inspector.Cursor, obj types.Object, f func(id inspector.Cursor)) {
	for cur := range root.Preorder((*ast.Ident)(nil)) {
		if c.info.Uses[cur.Node().(*ast.Ident)] == obj {
			f(cur)
		}
	}
}

// comparedWithNil reports whether the use at id is an operand of == or !=
// against nil.
func (c *checker) comparedWithNil(id inspector.Cursor) bool {
	p, k := up(id)
	b, ok := p.Node().(*ast.BinaryExpr)
	if !ok || (b.Op != token.EQL && b.Op != token.NEQ) {
		return false
	}
	if k == edge.BinaryExpr_X {
		return c.isNil(b.Y)
	}
	return c.isNil(b.X)
}

// indent returns the tabs gofmt puts before a statement that starts at
// pos.
func (c *checker) indent(pos token.Pos) string {
	return strings.Repeat("\t", max(c.pass.Fset.Position(pos).Column-1, 0))
}
