package main

import (
	"encoding/json"
	"slices"
	"testing"
)

// decodeBenchRows decodes the --json output of a bench command into rows of R,
// checking that every row has exactly the keys (sorted) given.
func decodeBenchRows[R any](t *testing.T, out string, keys []string) ([]R, []map[string]any) {
	t.Helper()
	var raw []map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, r := range raw {
		var got []string
		for k := range r {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, keys) {
			t.Fatalf("row keys %v, want %v", got, keys)
		}
	}
	var rows []R
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	return rows, raw
}
