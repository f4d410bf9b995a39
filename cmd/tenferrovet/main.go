// Command tenferrovet runs the enginecheck analyzer (package
// analysis/enginecheck), which reports engines and worker teams built per
// loop iteration or per call from a loop, pool-backed results dropped in
// loops, and engines or teams that are never closed.
//
// It runs on its own over package patterns:
//
//	tenferrovet ./...
//
// and as a vet tool, next to the standard checks:
//
//	go install github.com/tenferro-go/tenferro/cmd/tenferrovet
//	go vet -vettool=$(which tenferrovet) ./...
//
// Flags: -testfiles also reports in _test.go files, and -fix applies the
// suggested fixes (defer e.Close(), x.Release() at the end of a loop
// body). See docs/vet.md.
package main

import (
	"github.com/tenferro-go/tenferro/analysis/enginecheck"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() { singlechecker.Main(enginecheck.Analyzer) }
