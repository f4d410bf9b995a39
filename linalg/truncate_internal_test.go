package linalg

import "testing"

func TestTruncate(t *testing.T) {
	s := []float64{4, 3, 3 * (1 - 1e-12), 2, 1, 1e-3, 0, 0}
	at := func(i int) float64 { return s[i] }
	total := 0.0
	for _, v := range s {
		total += v * v
	}
	cases := []struct {
		name string
		tr   Truncation
		rank int
	}{
		{"none", Truncation{}, 8},
		{"max rank", Truncation{MaxRank: 4}, 4},
		{"a multiplet past max rank shrinks", Truncation{MaxRank: 2, Degeneracy: 1e-9}, 1},
		{"inside a multiplet grows", Truncation{Cutoff: 3 * (1 - 1e-12)}, 3},
		{"inside a multiplet shrinks", Truncation{Cutoff: 3 * (1 - 1e-12), ShrinkMultiplets: true}, 1},
		{"multiplets off", Truncation{Cutoff: 3 * (1 - 1e-12), Degeneracy: -1}, 2},
		{"cutoff", Truncation{Cutoff: 1.5}, 4},
		{"relative cutoff", Truncation{RelCutoff: 0.3}, 4},
		{"zeros dropped", Truncation{Cutoff: 1e-300}, 6},
		{"discarded weight", Truncation{DiscardedWeight: 1.1 / total}, 4},
		{"discarded weight exact", Truncation{DiscardedWeight: (1 + 1e-6) / total}, 4},
		{"discarded weight just below", Truncation{DiscardedWeight: (1 + 1e-7) / total}, 5},
		{"discarded weight tiny", Truncation{DiscardedWeight: 1e-9 / total}, 6},
		{"min rank", Truncation{MaxRank: 1, MinRank: 3}, 3},
		{"min rank inside multiplet kept", Truncation{Cutoff: 3.5, MinRank: 2, ShrinkMultiplets: true}, 2},
	}
	for _, c := range cases {
		info := c.tr.truncate(len(s), at, false)
		if info.Rank != c.rank {
			t.Errorf("%s: rank %d, want %d", c.name, info.Rank, c.rank)
			continue
		}
		disc := 0.0
		for _, v := range s[info.Rank:] {
			disc += v * v
		}
		if info.Discarded != disc || info.Error != disc/total {
			t.Errorf("%s: discarded %g error %g, want %g and %g", c.name, info.Discarded, info.Error, disc, disc/total)
		}
	}
	// A zero matrix keeps MinRank (1) and reports no error.
	z := Truncation{Cutoff: 1}.truncate(3, func(int) float64 { return 0 }, false)
	if z.Rank != 1 || z.Error != 0 {
		t.Errorf("zero matrix: %+v, want rank 1 and error 0", z)
	}
	if e := (Truncation{}).truncate(0, at, false); e.Rank != 0 {
		t.Errorf("empty: rank %d", e.Rank)
	}
	// The single-precision default tolerance joins values 1e-6 apart.
	if r := (Truncation{Cutoff: 1 - 1e-6}).truncate(2, func(i int) float64 { return 1 - float64(i)*1e-6 }, true).Rank; r != 2 {
		t.Errorf("float32 multiplet: rank %d, want 2", r)
	}
}
