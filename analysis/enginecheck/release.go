package enginecheck

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// readOnly lists the methods of tenferro.Tensor that neither keep nor
// expose the tensor's storage: calling them is not a reason to keep the
// result alive beyond the iteration.
var readOnly = map[string]bool{
	"At": true, "Clone": true, "DType": true, "Dim": true, "Format": true, "IsCompact": true,
	"Len": true, "Offset": true, "Rank": true, "Set": true, "Shape": true, "Strides": true,
	"String": true, "Valid": true,
}

// allocating reports whether call is an allocating operation with an Into
// twin, and returns the function and its twin's name.
func (c *checker) allocating(call *ast.CallExpr) (*types.Func, string, bool) {
	fn, ok := typeutil.Callee(c.info, call).(*types.Func)
	if !ok || !inModule(fn.Pkg()) || !returnsTensor(fn) {
		return nil, "", false
	}
	twin := fn.Name() + "Into"
	if recv := fn.Signature().Recv(); recv != nil {
		if !hasMethod(recv.Type(), twin) {
			return nil, "", false
		}
	} else if _, ok := fn.Pkg().Scope().Lookup(twin).(*types.Func); !ok {
		return nil, "", false
	}
	return fn, qualified(fn) + "Into", true
}

// returnsTensor reports whether some result of fn is a *tenferro.Tensor.
func returnsTensor(fn *types.Func) bool {
	res := fn.Signature().Results()
	for i := range res.Len() {
		if isTensor(res.At(i).Type()) {
			return true
		}
	}
	return false
}

// isTensor reports whether t is *tenferro.Tensor[T] for some T.
func isTensor(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Name() == "Tensor" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == modulePath
}

// isOp reports whether fn is a package-level function of the root package
// or of linalg that only reads a tensor passed to it: an operation with an
// Into form, an Into form, or one whose results are plain values.
func isOp(fn *types.Func) bool {
	if fn.Signature().Recv() != nil || fn.Pkg() == nil || (fn.Pkg().Path() != modulePath && fn.Pkg().Path() != linalgPath) {
		return false
	}
	if _, ok := fn.Pkg().Scope().Lookup(fn.Name() + "Into").(*types.Func); ok {
		return true
	}
	if len(fn.Name()) > 4 && fn.Name()[len(fn.Name())-4:] == "Into" {
		return true
	}
	res := fn.Signature().Results()
	for i := range res.Len() {
		t := res.At(i).Type()
		if _, basic := t.Underlying().(*types.Basic); !basic && !types.Identical(t, types.Universe.Lookup("error").Type()) {
			return false
		}
	}
	return true
}

// checkResults reports allocating results made in a loop body that are
// dropped: discarded, or held in a variable of the body that is never
// released and only read by the library's operations and read-only
// methods.
func (c *checker) checkResults() {
	for _, fc := range c.files {
		for cur := range fc.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			fn, twin, ok := c.allocating(call)
			if !ok {
				continue
			}
			loop, ok := repeatingLoop(cur)
			if !ok {
				continue
			}
			c.checkResult(cur, call, fn, twin, loop)
		}
	}
}

func (c *checker) checkResult(cur inspector.Cursor, call *ast.CallExpr, fn *types.Func, twin string, loop inspector.Cursor) {
	res := fn.Signature().Results()
	var lhs []ast.Expr
	p, k := up(cur)
	switch n := p.Node().(type) {
	case *ast.ExprStmt:
		c.pass.Reportf(call.Pos(), "%s result in loop is discarded; use %s with a destination allocated outside the loop", qualified(fn), twin)
		return
	case *ast.AssignStmt:
		if k != edge.AssignStmt_Rhs || len(n.Rhs) != 1 || len(n.Lhs) != res.Len() {
			return
		}
		lhs = n.Lhs
	case *ast.ValueSpec:
		if len(n.Values) != 1 || len(n.Names) != res.Len() {
			return
		}
		for _, id := range n.Names {
			lhs = append(lhs, id)
		}
	default:
		return
	}
	body := loopBody(loop.Node())
	for i := range res.Len() {
		if !isTensor(res.At(i).Type()) {
			continue
		}
		id, ok := ast.Unparen(lhs[i]).(*ast.Ident)
		if !ok {
			continue // stored in a field, element or dereference
		}
		if id.Name == "_" {
			c.pass.Reportf(call.Pos(), "%s result in loop is discarded without Release; use %s with a destination allocated outside the loop, or keep it and Release it", qualified(fn), twin)
			continue
		}
		obj := c.info.ObjectOf(id)
		if obj == nil || !inside(obj, body) {
			continue // declared outside the loop: kept across iterations
		}
		if !c.droppedInLoop(loop, obj) {
			continue
		}
		d := analysis.Diagnostic{
			Pos:     call.Pos(),
			Message: qualified(fn) + " result in loop is never released; use " + twin + " with a destination allocated outside the loop, or Release it",
		}
		if fix, ok := c.releaseFix(p, body, obj); ok {
			d.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
		c.pass.Report(d)
	}
}

// droppedInLoop reports whether the tensor variable obj, declared in the
// loop's body, is never released and only read: every use is a read-only
// method, an argument of a library operation, or a comparison with nil.
func (c *checker) droppedInLoop(loop inspector.Cursor, obj types.Object) bool {
	dropped := true
	c.usesOf(loop, obj, func(id inspector.Cursor) {
		if !dropped {
			return
		}
		p, k := up(id)
		switch n := p.Node().(type) {
		case *ast.SelectorExpr:
			if _, ck := up(p); ck != edge.CallExpr_Fun || !readOnly[n.Sel.Name] {
				dropped = false // Release, a view, a method value, ...
			}
			return
		case *ast.CallExpr:
			if k == edge.CallExpr_Args {
				if fn, ok := typeutil.Callee(c.info, n).(*types.Func); ok && isOp(fn) {
					return
				}
			}
		case *ast.BinaryExpr:
			if c.comparedWithNil(id) {
				return
			}
		}
		dropped = false
	})
	return dropped
}

// releaseFix offers to release obj at the end of the loop body when the
// statement declaring it is a statement of the body and no break,
// continue, goto or return follows it (other than in an error check), so
// that the added Release runs on every path that kept the tensor.
func (c *checker) releaseFix(decl inspector.Cursor, body *ast.BlockStmt, obj types.Object) (analysis.SuggestedFix, bool) {
	if k, _ := decl.ParentEdge(); k != edge.BlockStmt_List || decl.Parent().Node() != body {
		return analysis.SuggestedFix{}, false
	}
	safe := true
	after := decl.Node().End()
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if c.errorCheck(n.Cond) && n.Else == nil {
				return false
			}
		case *ast.BranchStmt, *ast.ReturnStmt:
			safe = n.Pos() < after
		}
		return safe
	})
	if !safe {
		return analysis.SuggestedFix{}, false
	}
	indent := c.indent(body.Rbrace)
	return analysis.SuggestedFix{
		Message: "Release " + obj.Name() + " at the end of the loop body",
		TextEdits: []analysis.TextEdit{{
			Pos:     body.Rbrace,
			End:     body.Rbrace,
			NewText: []byte("\t" + obj.Name() + ".Release()\n" + indent),
		}},
	}, true
}
