package enginecheck

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// checkClose reports engines and teams held in a local variable of a
// function that neither closes them, nor hands them on (returns them,
// stores them, passes them to code outside the library's operations), nor
// gives a team to an engine constructor, which then owns it.
func (c *checker) checkClose() {
	for _, fc := range c.files {
		for cur := range fc.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			kind, ok := c.construction(call)
			if !ok {
				continue
			}
			fun, ok := enclosingFunc(cur)
			if !ok {
				continue // a package-level variable lives as long as the program
			}
			for _, id := range c.heldBy(cur, call) {
				if id.Name == "_" {
					c.pass.Reportf(call.Pos(), "%s built by %s is discarded and never closed; keep it and Close it when done", kind.what(), kind.name)
					continue
				}
				obj := c.info.Defs[id]
				if obj == nil || !c.neverClosed(fun, obj) {
					continue
				}
				d := analysis.Diagnostic{
					Pos:     call.Pos(),
					Message: closeMessage(kind, id.Name),
				}
				if fix, ok := c.closeFix(cur, id.Name); ok {
					d.SuggestedFixes = []analysis.SuggestedFix{fix}
				}
				c.pass.Report(d)
			}
		}
	}
}

func closeMessage(k *ctor, v string) string {
	if k.team {
		return k.what() + " " + v + " built by " + k.name + " is never closed; add defer " + v + ".Close(), or hand it to cpu.New, whose engine closes it"
	}
	return k.what() + " " + v + " built by " + k.name + " is never closed; add defer " + v + ".Close() (Close drops the buffer pool and returns the team's workers)"
}

// enclosingFunc returns the body of the innermost function declaration or
// literal around cur.
func enclosingFunc(cur inspector.Cursor) (inspector.Cursor, bool) {
	for p := cur.Parent(); ; p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.File:
			return cur, false
		case *ast.FuncDecl:
			if n.Body == nil {
				return cur, false
			}
			return p.Child(n.Body), true
		case *ast.FuncLit:
			return p.Child(n.Body), true
		}
	}
}

// heldBy returns the identifiers that a declaration (:= or var) binds to
// the engine or team results of the construction call at cur.
func (c *checker) heldBy(cur inspector.Cursor, call *ast.CallExpr) []*ast.Ident {
	fn := typeutil.Callee(c.info, call).(*types.Func)
	res := fn.Signature().Results()
	var lhs []*ast.Ident
	p, k := up(cur)
	switch n := p.Node().(type) {
	case *ast.AssignStmt:
		if k != edge.AssignStmt_Rhs || n.Tok != token.DEFINE || len(n.Rhs) != 1 || len(n.Lhs) != res.Len() {
			return nil
		}
		for _, e := range n.Lhs {
			id, _ := e.(*ast.Ident)
			lhs = append(lhs, id)
		}
	case *ast.ValueSpec:
		if len(n.Values) != 1 || len(n.Names) != res.Len() {
			return nil
		}
		lhs = n.Names
	default:
		return nil
	}
	var out []*ast.Ident
	for i, id := range lhs {
		t := res.At(i).Type()
		if id != nil && hasMethod(t, "Close") && (isEngine(t) || isTeam(t)) {
			if obj := c.info.Defs[id]; obj != nil || id.Name == "_" {
				out = append(out, id)
			}
		}
	}
	return out
}

// isTeam reports whether t is *team.Team.
func isTeam(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Name() == "Team" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == teamPath
}

// neverClosed reports whether, within fun, obj is never closed and never
// leaves the library's hands: every use is a method call other than
// Close, an argument of a root or linalg function, or a comparison with
// nil. Close in any form (called, deferred, passed as a method value) and
// passing a team to an engine constructor count as closing.
func (c *checker) neverClosed(fun inspector.Cursor, obj types.Object) bool {
	open := true
	c.usesOf(fun, obj, func(id inspector.Cursor) {
		if !open {
			return
		}
		p, k := up(id)
		switch n := p.Node().(type) {
		case *ast.SelectorExpr:
			if _, ck := up(p); n.Sel.Name == "Close" || ck != edge.CallExpr_Fun {
				open = false
			}
			return
		case *ast.CallExpr:
			if k == edge.CallExpr_Args {
				if fn, ok := typeutil.Callee(c.info, n).(*types.Func); ok && fn.Signature().Recv() == nil && fn.Pkg() != nil &&
					(fn.Pkg().Path() == modulePath || fn.Pkg().Path() == linalgPath) {
					return
				}
			}
		case *ast.BinaryExpr:
			if c.comparedWithNil(id) {
				return
			}
		}
		open = false // closed by an engine, returned, stored, passed on, ...
	})
	return open
}

// closeFix offers defer v.Close() after the declaration at cur, or after
// the error check that follows it, when the declaration is a statement of
// a block outside any loop.
func (c *checker) closeFix(cur inspector.Cursor, v string) (analysis.SuggestedFix, bool) {
	if _, inLoop := enclosingLoop(cur); inLoop {
		return analysis.SuggestedFix{}, false
	}
	decl := cur
	for {
		p := decl.Parent()
		if _, ok := p.Node().(*ast.BlockStmt); ok {
			break
		}
		if _, ok := p.Node().(*ast.File); ok {
			return analysis.SuggestedFix{}, false
		}
		if _, ok := decl.Node().(ast.Stmt); ok {
			if _, ok := p.Node().(*ast.DeclStmt); !ok {
				return analysis.SuggestedFix{}, false // the init of an if, for, switch
			}
		}
		decl = p
	}
	block := decl.Parent().Node().(*ast.BlockStmt)
	at := decl.Node().(ast.Stmt)
	for i, st := range block.List {
		if st == at && i+1 < len(block.List) {
			if next, ok := block.List[i+1].(*ast.IfStmt); ok && next.Init == nil && c.errorCheck(next.Cond) {
				at = next
			}
		}
	}
	// Insert on the line after the statement, below any comment that
	// ends its line.
	tf := c.pass.Fset.File(at.End())
	line := tf.Line(at.End())
	if line >= tf.LineCount() {
		return analysis.SuggestedFix{}, false
	}
	next := tf.LineStart(line + 1)
	return analysis.SuggestedFix{
		Message: "Close " + v + " when the function returns",
		TextEdits: []analysis.TextEdit{{
			Pos:     next,
			End:     next,
			NewText: []byte(c.indent(decl.Node().Pos()) + "defer " + v + ".Close()\n"),
		}},
	}, true
}
