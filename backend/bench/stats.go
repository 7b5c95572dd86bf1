package bench

import (
	"math"
	"time"
)

// Round is one interleaved round of a comparison: the seconds our code
// and the reference tool took on the same work, and which ran first
// (rounds alternate the order so that drifting machine load hits both).
type Round struct {
	Ours      float64 `json:"ours_seconds"`
	Reference float64 `json:"reference_seconds"`
	OursFirst bool    `json:"ours_first"`
}

// Ratio is the round's ours/reference speed ratio (reference time over
// ours: above 1, ours is faster); 0 if a side took no time.
func (r Round) Ratio() float64 {
	if r.Ours <= 0 || r.Reference <= 0 {
		return 0
	}
	return r.Reference / r.Ours
}

// Comparison is our speed against a reference tool's over interleaved
// rounds of the same pages.
type Comparison struct {
	Reference string  `json:"reference"`
	Pages     int     `json:"pages_per_round"`
	Rounds    []Round `json:"rounds"`
	// OursRate and ReferenceRate are pages per second over all rounds
	// (total pages / total seconds).
	OursRate      float64 `json:"ours_pages_per_second"`
	ReferenceRate float64 `json:"reference_pages_per_second"`
	// Ratio is OursRate / ReferenceRate; RatioMin and RatioMax are the
	// extremes of the per-round ratios (the spread the shared machine
	// adds).
	Ratio    float64 `json:"ratio"`
	RatioMin float64 `json:"ratio_min"`
	RatioMax float64 `json:"ratio_max"`
	// Aim is the lowest acceptable Ratio; Met reports Ratio >= Aim.
	Aim float64 `json:"aim"`
	Met bool    `json:"aim_met"`
}

// compare aggregates rounds over pages pages each.
func compare(reference string, pages int, rounds []Round, aim float64) Comparison {
	c := Comparison{Reference: reference, Pages: pages, Rounds: rounds, Aim: aim}
	var ours, ref float64
	for i, r := range rounds {
		ours += r.Ours
		ref += r.Reference
		ratio := r.Ratio()
		if i == 0 || ratio < c.RatioMin {
			c.RatioMin = ratio
		}
		if i == 0 || ratio > c.RatioMax {
			c.RatioMax = ratio
		}
	}
	total := float64(pages * len(rounds))
	c.OursRate = rate(total, ours)
	c.ReferenceRate = rate(total, ref)
	if c.ReferenceRate > 0 {
		c.Ratio = c.OursRate / c.ReferenceRate
	}
	c.Met = c.Ratio > 0 && c.Ratio >= aim
	return c
}

// rate is n per second, 0 when no time was measured.
func rate(n, seconds float64) float64 {
	if seconds <= 0 {
		return 0
	}
	return n / seconds
}

// interleave runs ours and reference rounds times, alternating which goes
// first (ours in rounds 1, 3, ...). Each function returns its own
// elapsed time (so that it can leave setup out); the first error stops.
func interleave(rounds int, ours, reference func() (time.Duration, error)) ([]Round, error) {
	out := make([]Round, 0, rounds)
	for i := range rounds {
		r := Round{OursFirst: i%2 == 0}
		first, second := ours, reference
		if !r.OursFirst {
			first, second = reference, ours
		}
		a, err := first()
		if err != nil {
			return out, err
		}
		b, err := second()
		if err != nil {
			return out, err
		}
		if !r.OursFirst {
			a, b = b, a
		}
		r.Ours, r.Reference = a.Seconds(), b.Seconds()
		out = append(out, r)
	}
	return out, nil
}

// megabytes converts bytes to MB (10^6 bytes), rounded to 0.1.
func megabytes(b int64) float64 { return math.Round(float64(b)/1e5) / 10 }
