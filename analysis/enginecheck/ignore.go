package enginecheck

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ignoreDirective silences a diagnostic on its own line or on the line
// below, for code that does what the analyzer reports on purpose (a
// benchmark that measures an engine per call). The reason follows it:
//
//	e := cpu.Serial() //tenferrovet:ignore measures the cost of a fresh engine
const ignoreDirective = "//tenferrovet:ignore"

// filterIgnored wraps pass.Report so that diagnostics at lines carrying
// (or following a line carrying) the ignore directive are dropped. A
// directive without a reason (text before any further "//") is itself
// reported and silences nothing.
func filterIgnored(pass *analysis.Pass) {
	type line struct {
		file string
		n    int
	}
	ignored := map[line]bool{}
	report := pass.Report
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				rest, ok := strings.CutPrefix(c.Text, ignoreDirective)
				if !ok {
					continue
				}
				if reason, _, _ := strings.Cut(rest, "//"); strings.TrimSpace(reason) == "" {
					report(analysis.Diagnostic{Pos: c.Pos(), Message: ignoreDirective + " needs a reason after it"})
					continue
				}
				p := pass.Fset.Position(c.Pos())
				ignored[line{p.Filename, p.Line}] = true
				ignored[line{p.Filename, p.Line + 1}] = true
			}
		}
	}
	if len(ignored) == 0 {
		return
	}
	pass.Report = func(d analysis.Diagnostic) {
		if d.Pos.IsValid() && d.Pos != token.NoPos {
			p := pass.Fset.Position(d.Pos)
			if ignored[line{p.Filename, p.Line}] {
				return
			}
		}
		report(d)
	}
}
