package study

import (
	"context"
	"errors"
	"strings"
	"time"

	"vika/backend/llm"
)

// Pacing: when every model is resting after a rate limit, the job waits
// for the first Retry-After to pass (at most MaxWait each time, at most
// maxWaits times a request) instead of failing.
const (
	MaxWait  = 90 * time.Second
	maxWaits = 3
)

// asked is one request's outcome.
type asked struct {
	text  string
	model string // "provider/id" that answered
	name  string // its display name
	usage llm.Usage
}

// ask runs req through the router and its fallback, as answers do, and
// waits out rate limits that leave no model to ask. accept (may be nil)
// judges a whole reply: one it refuses moves on to the next model, as a
// failure does (llm.Sink.Accept, llm.ErrUnformatted).
func (s *Studier) ask(ctx context.Context, req llm.Request, o Options, accept func(string) error, notice func(llm.Notice), wait func(time.Duration)) (asked, error) {
	q := llm.Query{Question: "study guide", Model: o.Model}
	for waits := 0; ; waits++ {
		var b strings.Builder
		sink := llm.Sink{Delta: func(d llm.Delta) error {
			if !d.Footer {
				b.WriteString(d.Text)
			}
			return nil
		}, Notice: notice, Accept: accept}
		res, err := s.svc.AskFor(ctx, q, llm.Fixed(req), sink)
		a := asked{text: res.Answer, model: res.ModelUsed, name: res.ModelName, usage: res.Usage}
		if a.text == "" {
			a.text = b.String()
		}
		var se *llm.StreamError
		switch {
		case err == nil, errors.As(err, &se) && a.text != "":
			return a, nil
		case ctx.Err() != nil:
			return a, ctx.Err()
		}
		d := s.nextFree(ctx)
		if d <= 0 || d > MaxWait || waits >= maxWaits {
			return a, err
		}
		if wait != nil {
			wait(d)
		}
		select {
		case <-ctx.Done():
			return a, ctx.Err()
		case <-time.After(d):
		}
	}
}

// nextFree is how long until the first model resting after a rate limit
// may be asked again; 0 when none rests with a known end.
func (s *Studier) nextFree(ctx context.Context) time.Duration {
	var first int64
	for _, m := range s.svc.Models(ctx) {
		if !m.Available && m.Until > 0 && (first == 0 || m.Until < first) {
			first = m.Until
		}
	}
	if first == 0 {
		return 0
	}
	return max(time.Until(time.UnixMilli(first)), time.Millisecond)
}
