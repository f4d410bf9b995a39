package lapack

import "math"

// las2 returns the singular values σmin ≤ σmax of the 2×2 upper
// triangular [f g; 0 h], computed without overflow and, when σmin > 0,
// to high relative accuracy (LAPACK's las2).
func las2(f, g, h float64) (smin, smax float64) {
	fa, ga, ha := math.Abs(f), math.Abs(g), math.Abs(h)
	fhmn, fhmx := min(fa, ha), max(fa, ha)
	if fhmn == 0 {
		if fhmx == 0 {
			return 0, ga
		}
		lo, hi := min(fhmx, ga), max(fhmx, ga)
		return 0, hi * math.Sqrt(1+(lo/hi)*(lo/hi))
	}
	if ga < fhmx {
		as := 1 + fhmn/fhmx
		at := (fhmx - fhmn) / fhmx
		au := (ga / fhmx) * (ga / fhmx)
		c := 2 / (math.Sqrt(as*as+au) + math.Sqrt(at*at+au))
		return fhmn * c, fhmx / c
	}
	au := fhmx / ga
	if au == 0 {
		// fhmx/ga underflows: σmin = fhmn·fhmx/ga, σmax = ga.
		return fhmn * fhmx / ga, ga
	}
	as := 1 + fhmn/fhmx
	at := (fhmx - fhmn) / fhmx
	c := 1 / (math.Sqrt(1+(as*au)*(as*au)) + math.Sqrt(1+(at*au)*(at*au)))
	return 2 * (fhmn * c) * au, ga / (c + c)
}

// lasv2 returns the singular value decomposition of the 2×2 upper
// triangular [f g; 0 h]:
//
//	[ cosl sinl] [f g] [cosr −sinr]   [smax    0]
//	[−sinl cosl] [0 h] [sinr  cosr] = [   0 smin],
//
// |smax| ≥ |smin|, the signed singular values, accurate to a few ulps
// and to high relative accuracy (LAPACK's lasv2, after Demmel and Kahan).
func lasv2(f, g, h float64) (smin, smax, sinr, cosr, sinl, cosl float64) {
	const eps = 0x1p-53
	ft, fa, ht, ha := f, math.Abs(f), h, math.Abs(h)
	// pmax names the entry of largest magnitude: 1 f, 2 g, 3 h.
	pmax := 1
	swap := ha > fa
	if swap {
		pmax = 3
		ft, ht = ht, ft
		fa, ha = ha, fa
	}
	gt, ga := g, math.Abs(g)
	var clt, crt, slt, srt float64
	if ga == 0 {
		smin, smax = ha, fa
		clt, crt, slt, srt = 1, 1, 0, 0
	} else {
		small := true
		if ga > fa {
			pmax = 2
			if fa/ga < eps {
				// g dominates: the values are ga and fa·ha/ga.
				small = false
				smax = ga
				if ha > 1 {
					smin = fa / (ga / ha)
				} else {
					smin = (fa / ga) * ha
				}
				clt = 1
				slt = ht / gt
				srt = 1
				crt = ft / gt
			}
		}
		if small {
			dd := fa - ha
			l := 1.0
			if dd != fa {
				l = dd / fa
			}
			mq := gt / ft
			t := 2 - l
			mm, tt := mq*mq, t*t
			s := math.Sqrt(tt + mm)
			r := math.Abs(mq)
			if l != 0 {
				r = math.Sqrt(l*l + mm)
			}
			a := 0.5 * (s + r)
			smin, smax = ha/a, fa*a
			switch {
			case mm == 0 && l == 0:
				t = math.Copysign(2, ft) * math.Copysign(1, gt)
			case mm == 0:
				t = gt/math.Copysign(dd, ft) + mq/t
			default:
				t = (mq/(s+t) + mq/(r+l)) * (1 + a)
			}
			l = math.Sqrt(t*t + 4)
			crt = 2 / l
			srt = t / l
			clt = (crt + srt*mq) / a
			slt = (ht / ft) * srt / a
		}
	}
	if swap {
		cosl, sinl, cosr, sinr = srt, crt, slt, clt
	} else {
		cosl, sinl, cosr, sinr = clt, slt, crt, srt
	}
	// The signs of the values follow from det = f·h and the rotations.
	var tsign float64
	switch pmax {
	case 1:
		tsign = math.Copysign(1, cosr) * math.Copysign(1, cosl) * math.Copysign(1, f)
	case 2:
		tsign = math.Copysign(1, sinr) * math.Copysign(1, cosl) * math.Copysign(1, g)
	default:
		tsign = math.Copysign(1, sinr) * math.Copysign(1, sinl) * math.Copysign(1, h)
	}
	smax = math.Copysign(smax, tsign)
	smin = math.Copysign(smin, tsign*math.Copysign(1, f)*math.Copysign(1, h))
	return smin, smax, sinr, cosr, sinl, cosl
}
