package enginecheck_test

import (
	"flag"
	"fmt"

	"github.com/tenferro-go/tenferro/analysis/enginecheck"
	"golang.org/x/tools/go/analysis"
)

// The analyzer plugs into any go/analysis driver: cmd/tenferrovet runs it
// with singlechecker.Main, and a program that bundles several analyzers
// lists it next to the others, as in multichecker.Main(enginecheck.Analyzer, ...).
func ExampleAnalyzer() {
	if err := analysis.Validate([]*analysis.Analyzer{enginecheck.Analyzer}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(enginecheck.Analyzer.Name)
	enginecheck.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		fmt.Printf("-%s (default %s): %s\n", f.Name, f.DefValue, f.Usage)
	})
	// Output:
	// enginecheck
	// -testfiles (default false): also report in _test.go files
}
