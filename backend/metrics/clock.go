package metrics

import "time"

// Clock returns the current time. Tests inject a fake one; nil means
// time.Now.
type Clock func() time.Time

// Stopwatch times the phases of one question on a Clock. It is not safe
// for concurrent use.
type Stopwatch struct {
	now         Clock
	start, last time.Time
}

// Start starts a stopwatch on now (time.Now when nil).
func Start(now Clock) *Stopwatch {
	if now == nil {
		now = time.Now
	}
	t := now()
	return &Stopwatch{now: now, start: t, last: t}
}

// Lap returns the time since the previous Lap (or Start) and starts the
// next phase.
func (s *Stopwatch) Lap() time.Duration {
	t := s.now()
	d := t.Sub(s.last)
	s.last = t
	return d
}

// Total returns the time since Start.
func (s *Stopwatch) Total() time.Duration { return s.now().Sub(s.start) }
