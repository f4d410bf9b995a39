package lapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// withBdsdcLeaf runs f with BdsdcLeaf set, then restores it.
func withBdsdcLeaf(leaf int, f func()) {
	l0 := BdsdcLeaf
	BdsdcLeaf = leaf
	defer func() { BdsdcLeaf = l0 }()
	f()
}

func testBdsdc(t *testing.T, sizes []int) {
	rng := rand.New(rand.NewPCG(8, uint64(len(sizes)+BdsdcLeaf)))
	var ws Workspace
	const ep = 0x1p-53
	for _, n := range sizes {
		cases := bidiagCases(rng, n)
		// Clusters of exactly repeated values across the split.
		rep := bidiagCase{name: "repeated-blocks", d: make([]float64, n), e: make([]float64, max(n-1, 0))}
		for i := range rep.d {
			rep.d[i] = float64(1 + i%2)
			if i%5 != 4 && i+1 < n {
				rep.e[i] = 0.5
			}
		}
		cases = append(cases, rep)
		// Near-deflation: values a few ulps apart, couplings near the
		// tolerance.
		near := bidiagCase{name: "near-deflation", d: make([]float64, n), e: make([]float64, max(n-1, 0))}
		for i := range near.d {
			near.d[i] = 1 + float64(rng.IntN(4))*0x1p-52
			if i+1 < n {
				near.e[i] = math.Ldexp(rng.NormFloat64(), -50-rng.IntN(8))
			}
		}
		cases = append(cases, near)
		for _, bc := range cases {
			name := fmt.Sprintf("n=%d %s leaf=%d", n, bc.name, BdsdcLeaf)
			d := append([]float64(nil), bc.d...)
			e := append(append([]float64(nil), bc.e...), 0)
			l := layout(n % int(nLayouts))
			nan := func(int, int) complex128 { return complex(math.NaN(), 0) }
			u := newMat[float64](n, n, l, nan)
			v := newMat[float64](n, n, (l+1)%nLayouts, nan)
			work := make([]float64, bdsdcWork(n))
			if info := bdsdc(&ws, nil, n, d, e, u.Mat, v.Mat, work); info != 0 {
				t.Fatalf("%s: info %d", name, info)
			}
			checkGuards(t, u)
			checkGuards(t, v)
			bmax := 0.0
			b := newDense(n, n)
			for i := 0; i < n; i++ {
				b.set(i, i, complex(bc.d[i], 0))
				bmax = max(bmax, math.Abs(bc.d[i]))
				if i+1 < n {
					b.set(i, i+1, complex(bc.e[i], 0))
					bmax = max(bmax, math.Abs(bc.e[i]))
				}
			}
			for i := 0; i < n; i++ {
				if !(d[i] >= 0) || i > 0 && d[i] > d[i-1] {
					t.Fatalf("%s: values not descending and non-negative: %v", name, d)
				}
			}
			tol := 32 * float64(n) * ep
			ud, vd := toDense(u), toDense(v)
			if bmax > 0 {
				us := newDense(n, n)
				for j := 0; j < n; j++ {
					for i := 0; i < n; i++ {
						us.set(i, j, ud.at(i, j)*complex(d[j], 0))
					}
				}
				if res := scaledNorm(sub(b, mul(us, vd.op(Trans))), bmax); !(res <= tol*math.Sqrt(float64(n))) {
					t.Fatalf("%s: ‖B − UΣVᵀ‖/max|B| = %.3g > %.3g", name, res, tol)
				}
			}
			if res := orthErr(ud); !(res <= tol) {
				t.Fatalf("%s: ‖UᵀU − I‖ = %.3g > %.3g", name, res, tol)
			}
			if res := orthErr(vd); !(res <= tol) {
				t.Fatalf("%s: ‖VᵀV − I‖ = %.3g > %.3g", name, res, tol)
			}
			ref := dqdsValues(t, bc.d, bc.e)
			for i := 0; i < n; i++ {
				if dd := math.Abs(d[i] - ref[i]); dd > tol*ref[0] {
					t.Fatalf("%s: σ%d = %.17g, dqds %.17g", name, i, d[i], ref[i])
				}
			}
		}
	}
}

func TestBdsdc(t *testing.T) {
	for _, leaf := range []int{3, 5, 24} {
		withBdsdcLeaf(leaf, func() {
			testBdsdc(t, []int{1, 2, 3, 4, 5, 6, 7, 9, 12, 17, 26, 33, 64})
		})
	}
	if !testing.Short() {
		testBdsdc(t, []int{200})
	}
}
