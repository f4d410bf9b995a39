package enginecheck

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// A site is a construction that a function body performs on every call.
type site struct {
	call *ast.CallExpr
	kind *ctor
	via  string // the function of the package whose body holds call
	// configured reports that the arguments of call come from the
	// parameters of the function the site was found for.
	configured bool
}

// checkConstruction reports engines and teams built in a loop body.
func (c *checker) checkConstruction() {
	for _, fc := range c.files {
		for cur := range fc.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			kind, ok := c.construction(call)
			if !ok {
				continue
			}
			loop, ok := repeatingLoop(cur)
			if !ok || c.varies(loop.Node(), call.Args) || c.lazy(cur, loop.Node()) {
				continue
			}
			c.reported[call.Pos()] = true
			c.pass.Reportf(call.Pos(), "%s builds %s on every iteration of this loop; %s", kind.name, kind.what(), advice(kind))
		}
	}
}

// advice says what to do instead of building per iteration or per call.
func advice(k *ctor) string {
	switch {
	case k.dedicated != "":
		return "its workers are started fresh and stopped on Close every time (a dedicated team never uses the process cache): build it once outside the loop and reuse it"
	case k.team:
		return "build the team (and the engine over it) once outside the loop and reuse it"
	}
	return "build it once outside the loop and pass it in: a reused engine keeps its buffer pool, plan cache and GEMM scratch warm"
}

// varies reports whether any of args reads a variable that changes from
// one iteration of loop to the next: a range or for-clause variable, or a
// variable of the body computed from one. A construction configured per
// iteration (a team per width in a sweep) is deliberate.
func (c *checker) varies(loop ast.Node, args []ast.Expr) bool {
	vs := c.loopVariables(loop)
	for _, a := range args {
		if c.reads(a, vs) {
			return true
		}
	}
	return false
}

// reads reports whether n mentions any object of vs.
func (c *checker) reads(n ast.Node, vs map[types.Object]bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && vs[c.info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// loopVariables returns the per-iteration variables of loop: its range
// key and value or the variables its init statement declares, and the
// variables of the body computed from them.
func (c *checker) loopVariables(loop ast.Node) map[types.Object]bool {
	if vs, ok := c.varying[loop]; ok {
		return vs
	}
	vs := map[types.Object]bool{}
	switch l := loop.(type) {
	case *ast.RangeStmt:
		c.addVar(vs, l.Key)
		c.addVar(vs, l.Value)
	case *ast.ForStmt:
		if as, ok := l.Init.(*ast.AssignStmt); ok {
			for _, e := range as.Lhs {
				c.addVar(vs, e)
			}
		}
	}
	c.propagate(vs, loopBody(loop))
	c.varying[loop] = vs
	return vs
}

// addVar adds the variable e names, if any, to vs.
func (c *checker) addVar(vs map[types.Object]bool, e ast.Expr) {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if obj := c.info.ObjectOf(id); obj != nil {
			vs[obj] = true
		}
	}
}

// propagate adds to vs, in source order, every variable of body assigned
// from an expression that reads a variable of vs.
func (c *checker) propagate(vs map[types.Object]bool, body ast.Node) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for _, r := range s.Rhs {
				if c.reads(r, vs) {
					for _, e := range s.Lhs {
						c.addVar(vs, e)
					}
					break
				}
			}
		case *ast.ValueSpec:
			for _, r := range s.Values {
				if c.reads(r, vs) {
					for _, id := range s.Names {
						c.addVar(vs, id)
					}
					break
				}
			}
		}
		return true
	})
}

// lazy reports whether the construction at cur is a conditional
// assignment, inside loop, to variables declared outside it: the lazy
// "build once on first use" or "rebuild when needed" pattern.
func (c *checker) lazy(cur inspector.Cursor, loop ast.Node) bool {
	p, k := up(cur)
	as, ok := p.Node().(*ast.AssignStmt)
	if !ok || k != edge.AssignStmt_Rhs || as.Tok != token.ASSIGN {
		return false
	}
	for _, e := range as.Lhs {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if obj := c.info.Uses[id]; obj != nil && inside(obj, loop) {
				return false
			}
		}
	}
	for q := p; q.Valid() && q.Node() != loop; q = q.Parent() {
		switch q.Node().(type) {
		case *ast.IfStmt, *ast.CaseClause, *ast.CommClause:
			return true
		}
	}
	return false
}

// A function is a body the per-call check can follow.
type function struct {
	name string
	typ  *ast.FuncType
	body *ast.BlockStmt
	// params holds the parameters and the variables of the body computed
	// from them, made on first use.
	params map[types.Object]bool
}

// collectFuncs records the package's functions by object: declared
// functions and methods, and function literals bound by := or var to a
// local variable that is never assigned again.
func (c *checker) collectFuncs() {
	assigned := map[types.Object]int{}
	bind := func(id *ast.Ident, obj types.Object, e ast.Expr) {
		if lit, ok := e.(*ast.FuncLit); ok && obj != nil {
			c.funcs[obj] = &function{name: id.Name, typ: lit.Type, body: lit.Body}
		}
	}
	for _, fc := range c.files {
		for cur := range fc.Preorder((*ast.FuncDecl)(nil), (*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)) {
			switch n := cur.Node().(type) {
			case *ast.FuncDecl:
				if n.Body != nil {
					c.funcs[c.info.Defs[n.Name]] = &function{name: n.Name.Name, typ: n.Type, body: n.Body}
				}
			case *ast.AssignStmt:
				for i, e := range n.Lhs {
					id, ok := e.(*ast.Ident)
					if !ok {
						continue
					}
					obj := c.info.ObjectOf(id)
					assigned[obj]++
					if len(n.Rhs) == len(n.Lhs) && n.Tok == token.DEFINE {
						bind(id, obj, n.Rhs[i])
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					obj := c.info.Defs[id]
					assigned[obj]++
					if len(n.Values) == len(n.Names) {
						bind(id, obj, n.Values[i])
					}
				}
			}
		}
	}
	for obj := range c.funcs {
		if _, ok := obj.(*types.Var); ok && assigned[obj] > 1 {
			delete(c.funcs, obj)
		}
	}
}

// callTarget returns the package function or local function literal that
// call invokes, or nil.
func (c *checker) callTarget(call *ast.CallExpr) *function {
	var obj types.Object
	if fn := typeutil.StaticCallee(c.info, call); fn != nil {
		obj = fn.Origin()
	} else if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		obj = c.info.Uses[id]
	}
	if obj == nil {
		return nil
	}
	return c.funcs[obj]
}

// configures reports whether any of args reads a parameter of f, or a
// variable computed from one: the caller chooses what is built.
func (c *checker) configures(f *function, args []ast.Expr) bool {
	if f.params == nil {
		f.params = map[types.Object]bool{}
		for _, fl := range f.typ.Params.List {
			for _, id := range fl.Names {
				c.addVar(f.params, id)
			}
		}
		c.propagate(f.params, f.body)
	}
	for _, a := range args {
		if c.reads(a, f.params) {
			return true
		}
	}
	return false
}

// sitesOf returns the constructions f performs on every call: those in
// its top-level statements up to the first statement that may return
// early (an error check does not count), and, transitively, those of the
// package functions such statements call. A site whose arguments come
// from f's parameters is marked configured.
func (c *checker) sitesOf(f *function) []site {
	if s, ok := c.perCall[f]; ok {
		return s
	}
	c.perCall[f] = nil // a recursive call adds nothing
	var out []site
	for _, st := range f.body.List {
		for _, n := range unconditionalParts(st) {
			ast.Inspect(n, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit, *ast.GoStmt:
					return false
				case *ast.CallExpr:
					if kind, ok := c.construction(n); ok {
						out = append(out, site{call: n, kind: kind, via: f.name, configured: c.configures(f, n.Args)})
					} else if g := c.callTarget(n); g != nil {
						passes := c.configures(f, n.Args)
						for _, s := range c.sitesOf(g) {
							s.configured = s.configured && passes
							out = append(out, s)
						}
					}
				}
				return true
			})
		}
		if c.mayLeave(st) {
			break
		}
	}
	c.perCall[f] = out
	return out
}

// unconditionalParts returns the parts of a top-level statement that run
// whenever the statement runs.
func unconditionalParts(st ast.Stmt) []ast.Node {
	switch s := st.(type) {
	case *ast.AssignStmt, *ast.ExprStmt, *ast.DeclStmt, *ast.ReturnStmt:
		return []ast.Node{s}
	case *ast.IfStmt:
		var out []ast.Node
		if s.Init != nil {
			out = append(out, s.Init)
		}
		return append(out, s.Cond)
	}
	return nil
}

// mayLeave reports whether the statement may end the function before the
// statements after it, other than by an error check
// (if err != nil { return ... }).
func (c *checker) mayLeave(st ast.Stmt) bool {
	switch s := st.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.IfStmt:
		if c.errorCheck(s.Cond) && s.Else == nil {
			return false
		}
	case *ast.AssignStmt, *ast.ExprStmt, *ast.DeclStmt, *ast.DeferStmt, *ast.GoStmt, *ast.IncDecStmt, *ast.SendStmt, *ast.EmptyStmt:
		return false
	}
	leaves := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			leaves = true
		case *ast.BranchStmt:
			leaves = leaves || n.Tok == token.GOTO
		}
		return !leaves
	})
	return leaves
}

// errorCheck reports whether cond compares a value of type error with
// nil (err != nil).
func (c *checker) errorCheck(cond ast.Expr) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return false
	}
	x, y := b.X, b.Y
	if c.isNil(x) {
		x, y = y, x
	}
	t := c.info.TypeOf(x)
	return c.isNil(y) && t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// checkPerCall reports constructions that a package function performs on
// every call when the function is called in a loop. Each construction is
// reported once, at the construction, naming the first such loop call.
func (c *checker) checkPerCall() {
	for _, fc := range c.files {
		for cur := range fc.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			f := c.callTarget(call)
			if f == nil {
				continue
			}
			if _, k := up(cur); k == edge.GoStmt_Call {
				continue
			}
			loop, ok := repeatingLoop(cur)
			if !ok {
				continue
			}
			varies := c.varies(loop.Node(), call.Args)
			for _, s := range c.sitesOf(f) {
				if c.reported[s.call.Pos()] || (s.configured && varies) {
					continue
				}
				c.reported[s.call.Pos()] = true
				through := ""
				if s.via != f.name {
					through = " (through " + s.via + ")"
				}
				c.pass.Reportf(s.call.Pos(), "%s builds %s on every call of %s%s, which is called in a loop at %s (engine per call); %s",
					s.kind.name, s.kind.what(), f.name, through, c.where(call.Pos()), perCallAdvice(s.kind))
			}
		}
	}
}

func perCallAdvice(k *ctor) string {
	if k.dedicated != "" {
		return "its workers are started fresh and stopped on Close on every call (a dedicated team never uses the process cache): build it once and pass it in"
	}
	return "build it once before the loop and pass it in"
}
