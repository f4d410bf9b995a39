package par

import "testing"

type record struct{ seen []int }

func (r *record) RunPart(part, parts int) { r.seen = append(r.seen, part*100+parts) }

func TestRunNilRunsInOrder(t *testing.T) {
	r := &record{}
	Run(nil, r, 3)
	if len(r.seen) != 3 || r.seen[0] != 3 || r.seen[1] != 103 || r.seen[2] != 203 {
		t.Fatalf("parts %v", r.seen)
	}
	r.seen = nil
	Run(nil, r, 0)
	if len(r.seen) != 1 || r.seen[0] != 1 {
		t.Fatalf("parts=0 ran %v, want one part of one", r.seen)
	}
	if Width(nil) != 1 {
		t.Fatal("nil runner width")
	}
}

func TestSplitCoversExactly(t *testing.T) {
	for n := 0; n < 50; n++ {
		for parts := 1; parts <= 9; parts++ {
			next := 0
			for p := 0; p < parts; p++ {
				lo, hi := Split(n, p, parts)
				if lo != next || hi < lo || hi-lo > n/parts+1 || hi-lo < n/parts {
					t.Fatalf("Split(%d, %d, %d) = [%d, %d), want start %d and a near-equal share", n, p, parts, lo, hi, next)
				}
				next = hi
			}
			if next != n {
				t.Fatalf("Split(%d, *, %d) covers %d items", n, parts, next)
			}
		}
	}
}
