package report

import "math"

// Z95 is the standard normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// Wilson returns the Wilson score interval of a binomial proportion: k
// successes in n trials at normal quantile z (Z95 for 95%). Unlike the
// textbook p ± z·√(p(1-p)/n), it stays inside [0,1] and does not collapse
// to a point at 0/n or n/n — "no duplicate in 200 runs" still leaves a rate
// of up to 1.9% possible, and the interval says so. With no trials it is
// [0,1]: nothing is known.
func Wilson(k, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	k = min(max(k, 0), n)
	nf, p := float64(n), float64(k)/float64(n)
	z2 := z * z
	denom := 1 + z2/nf
	center := (p + z2/(2*nf)) / denom
	half := z / denom * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = max(0, center-half), min(1, center+half)
	// The bounds are exact at the edges; keep rounding noise out.
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

// Wilson95 is Wilson at 95%.
func Wilson95(k, n int) (lo, hi float64) { return Wilson(k, n, Z95) }
