// Package srs schedules flashcard reviews with FSRS-6 (the Free Spaced
// Repetition Scheduler), as the npm package ts-fsrs 5.4.2 does with its
// defaults: its 21 default weights, a requested retention of 0.9, a
// maximum interval of 36,500 days, short-term learning steps of 1 and 10
// minutes, a relearning step of 10 minutes, and no fuzz (the same reviews
// always give the same dates). A test runs ts-fsrs itself on the same
// review logs and compares due dates, stability and difficulty.
//
// Call sites read: srs.Schedule(card, srs.Good, now).
package srs

import (
	"fmt"
	"math"
	"time"
)

// State is where a card is in its learning.
type State int

// States, numbered as ts-fsrs numbers them.
const (
	New State = iota
	Learning
	Review
	Relearning
)

// Grade is the student's answer to a card.
type Grade int

// Grades, numbered as ts-fsrs numbers them.
const (
	Again Grade = 1 + iota
	Hard
	Good
	Easy
)

// Grades lists the four grades in order.
var Grades = [4]Grade{Again, Hard, Good, Easy}

// Valid reports whether g is one of the four grades.
func (g Grade) Valid() bool { return g >= Again && g <= Easy }

// Valid reports whether s is one of the four states.
func (s State) Valid() bool { return s >= New && s <= Relearning }

// Card is a card's memory state: when it is due, and FSRS's stability
// (days for recall to fall to 90%) and difficulty (1 to 10).
type Card struct {
	Due           time.Time `json:"due"`
	Stability     float64   `json:"stability"`
	Difficulty    float64   `json:"difficulty"`
	ElapsedDays   int       `json:"elapsed_days"`   // days between the last two reviews
	ScheduledDays int       `json:"scheduled_days"` // the interval last given, in days (0: minutes)
	Reps          int       `json:"reps"`
	Lapses        int       `json:"lapses"` // times forgotten once learnt
	Step          int       `json:"step"`   // the (re)learning step reached
	State         State     `json:"state"`
	// LastReview is the time of the last review, zero for a new card.
	LastReview time.Time `json:"last_review"`
}

// NewCard is a card never reviewed, due at now.
func NewCard(now time.Time) Card { return Card{Due: now, State: New} }

// Parameters of FSRS-6: ts-fsrs 5.4.2's defaults.
var (
	// W are the default weights (ts-fsrs default_w).
	W = [21]float64{0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666,
		0.796, 1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542}
	learningSteps   = []int{1, 10} // minutes
	relearningSteps = []int{10}
)

const (
	// Retention is the requested probability of recall at the due date.
	Retention = 0.9
	// MaxInterval is the longest interval, in days.
	MaxInterval = 36500
	sMin        = 0.001
	sMax        = 36500.0
	day         = 24 * time.Hour
)

var (
	decay    = -W[20]
	factor   = roundTo(math.Exp(math.Log(0.9)/decay)-1, 8)
	modifier = roundTo((math.Pow(Retention, 1/decay)-1)/factor, 8)
)

// Schedule returns c after a review graded g at now. A grade outside the
// four, or a review before the last one, is an error.
func Schedule(c Card, g Grade, now time.Time) (Card, error) {
	if !g.Valid() {
		return c, fmt.Errorf("srs: grade %d is not 1 to 4", g)
	}
	if !c.State.Valid() {
		return c, fmt.Errorf("srs: state %d is not 0 to 3", c.State)
	}
	if c.State != New && !c.LastReview.IsZero() && now.Before(c.LastReview) {
		return c, fmt.Errorf("srs: a review at %s before the last one (%s)", now.UTC().Format(time.RFC3339), c.LastReview.UTC().Format(time.RFC3339))
	}
	if c.State != New && (c.Difficulty < 1 || c.Stability < sMin) {
		return c, fmt.Errorf("srs: memory state (difficulty %g, stability %g) out of range", c.Difficulty, c.Stability)
	}
	elapsed := 0
	if c.State != New && !c.LastReview.IsZero() {
		elapsed = daysBetween(c.LastReview, now)
	}
	switch c.State {
	case New, Learning, Relearning:
		next := c.advance(elapsed, g, math.NaN(), now)
		to := c.State
		if to == New {
			to = Learning
		}
		next.learningSteps(c, g, to, elapsed, now)
		return next, nil
	}
	return c.review(elapsed, g, now), nil
}

// Preview returns the card each grade would give, Again first.
func Preview(c Card, now time.Time) ([4]Card, error) {
	var out [4]Card
	for i, g := range Grades {
		n, err := Schedule(c, g, now)
		if err != nil {
			return out, err
		}
		out[i] = n
	}
	return out, nil
}

// Retrievability is the probability of recalling c at now (0 for a new
// card).
func Retrievability(c Card, now time.Time) float64 {
	if c.State == New || c.Stability <= 0 {
		return 0
	}
	t := max(int(math.Floor(now.Sub(c.LastReview).Hours()/24)), 0)
	return forgetting(float64(t), c.Stability)
}

// advance is c with its counters and memory state moved to a review
// graded g after elapsed days (r: its retrievability, NaN to compute).
func (c Card) advance(elapsed int, g Grade, r float64, now time.Time) Card {
	n := c
	n.LastReview = now
	n.ElapsedDays = elapsed
	n.Reps++
	n.Difficulty, n.Stability = nextState(c.Difficulty, c.Stability, elapsed, g, r)
	return n
}

// review is the review of a card in the Review state.
func (c Card) review(elapsed int, g Grade, now time.Time) Card {
	r := forgetting(float64(elapsed), c.Stability)
	var next [5]Card
	for _, gg := range Grades {
		next[gg] = c.advance(elapsed, gg, r, now)
	}
	hard := min(interval(next[Hard].Stability), interval(next[Good].Stability))
	good := max(interval(next[Good].Stability), hard+1)
	easy := max(interval(next[Easy].Stability), good+1)
	for gg, days := range map[Grade]int{Hard: hard, Good: good, Easy: easy} {
		next[gg].ScheduledDays = days
		next[gg].Due = now.Add(time.Duration(days) * day)
		next[gg].State = Review
		next[gg].Step = 0
	}
	again := next[Again]
	again.learningSteps(c, Again, Relearning, elapsed, now)
	again.Lapses++
	next[Again] = again
	return next[g]
}

// learningSteps sets the state, step and due date of n, the card prev
// becomes after a review graded g: the next (re)learning step, or the
// Review state with FSRS's interval once the steps are through.
func (n *Card) learningSteps(prev Card, g Grade, to State, elapsed int, now time.Time) {
	minutes, step := stepFor(prev.State, prev.Step, g)
	switch {
	case minutes > 0 && minutes < 1440:
		n.Step, n.ScheduledDays, n.State = step, 0, to
		n.Due = now.Add(time.Duration(minutes) * time.Minute)
	case minutes >= 1440:
		n.State, n.Step = Review, step
		n.Due = now.Add(time.Duration(minutes) * time.Minute)
		n.ScheduledDays = minutes / 1440
	default:
		n.State, n.Step = Review, 0
		days := interval(n.Stability)
		n.ScheduledDays = days
		n.Due = now.Add(time.Duration(days) * day)
	}
}

// stepFor is ts-fsrs's BasicLearningStepsStrategy: the minutes to the
// next step of a card in state s at step cur graded g, and that step; 0
// minutes when the steps are through (the card is reviewed in days).
func stepFor(s State, cur int, g Grade) (minutes, next int) {
	steps := learningSteps
	if s == Relearning || s == Review {
		steps = relearningSteps
	}
	if len(steps) == 0 || cur >= len(steps) {
		return 0, 0
	}
	cur = max(cur, 0)
	if s == Review {
		if g == Again {
			return steps[cur], 0
		}
		return 0, 0
	}
	switch g {
	case Again:
		return steps[0], 0
	case Hard:
		if len(steps) == 1 {
			return int(jsRound(float64(steps[0]) * 1.5)), cur
		}
		return int(jsRound(float64(steps[0]+steps[1]) / 2)), cur
	case Good:
		if cur+1 < len(steps) && steps[cur+1] > 0 {
			return steps[cur+1], cur + 1
		}
	}
	return 0, 0
}

// nextState is FSRS's memory state after a review graded g, elapsed days
// after the last (r: the retrievability then, NaN to compute it).
func nextState(d, s float64, elapsed int, g Grade, r float64) (float64, float64) {
	if d == 0 && s == 0 {
		return clamp(initDifficulty(g), 1, 10), math.Max(W[g-1], 0.1)
	}
	t := float64(elapsed)
	if math.IsNaN(r) {
		r = forgetting(t, s)
	}
	var ns float64
	switch {
	case elapsed == 0: // short-term: a review the same day
		sinc := math.Pow(s, -W[19]) * math.Exp(W[17]*(float64(g)-3+W[18]))
		if g >= Hard {
			sinc = math.Max(sinc, 1)
		}
		ns = roundTo(clamp(s*sinc, sMin, sMax), 8)
	case g == Again:
		fail := roundTo(clamp(W[11]*math.Pow(d, -W[12])*(math.Pow(s+1, W[13])-1)*math.Exp((1-r)*W[14]), sMin, sMax), 8)
		floor := roundTo(s/math.Exp(W[17]*W[18]), 8)
		ns = clamp(floor, sMin, fail)
	default:
		hard, easy := 1.0, 1.0
		if g == Hard {
			hard = W[15]
		}
		if g == Easy {
			easy = W[16]
		}
		ns = roundTo(clamp(s*(1+math.Exp(W[8])*(11-d)*math.Pow(s, -W[9])*(math.Exp((1-r)*W[10])-1)*hard*easy), sMin, sMax), 8)
	}
	return nextDifficulty(d, g), ns
}

func initDifficulty(g Grade) float64 {
	return roundTo(W[4]-math.Exp(float64(g-1)*W[5])+1, 8)
}

func nextDifficulty(d float64, g Grade) float64 {
	delta := -W[6] * float64(g-3)
	next := d + roundTo(delta*(10-d)/9, 8)
	return clamp(roundTo(W[7]*initDifficulty(Easy)+(1-W[7])*next, 8), 1, 10)
}

// forgetting is the probability of recall t days after a review, at
// stability s.
func forgetting(t, s float64) float64 {
	return roundTo(math.Pow(1+factor*t/s, decay), 8)
}

// interval is the days until recall falls to Retention, at least one.
func interval(s float64) int {
	return int(min(max(1, jsRound(s*modifier)), MaxInterval))
}

// daysBetween counts calendar days (UTC) from last to now.
func daysBetween(last, now time.Time) int {
	a := time.Date(last.UTC().Year(), last.UTC().Month(), last.UTC().Day(), 0, 0, 0, 0, time.UTC)
	b := time.Date(now.UTC().Year(), now.UTC().Month(), now.UTC().Day(), 0, 0, 0, 0, time.UTC)
	return int(math.Floor(b.Sub(a).Hours() / 24))
}

func clamp(v, lo, hi float64) float64 { return math.Min(math.Max(v, lo), hi) }

// jsRound rounds as JavaScript's Math.round: halves towards +Inf.
func jsRound(x float64) float64 { return math.Floor(x + 0.5) }

func roundTo(x float64, decimals int) float64 {
	f := math.Pow(10, float64(decimals))
	return jsRound(x*f) / f
}
