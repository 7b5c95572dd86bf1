package llm

import (
	"context"
	"errors"
	"time"

	"vika/backend/message"
)

// Retry says when a model that failed before its first token is asked
// again, after a wait, before the runner marks it down and moves on. A
// provider's advised wait (Retry-After, Gemini's retryDelay) replaces the
// policy's when it is known; one longer than MaxAdvised is not waited
// for (the model is marked down, the next one tried). The zero value
// never retries.
type Retry struct {
	// Waits are the waits before each new try; their number is the most
	// retries.
	Waits []time.Duration
	// MaxAdvised is the longest advised wait honoured; 0 ignores advised
	// waits (Waits only).
	MaxAdvised time.Duration
	// On reports whether a failure is retried.
	On func(error) bool
}

// DescribeRetry is the policy of describe jobs (Service.AskWith): a
// rate-limited or overloaded request is asked again after 5, 10 and 15 s,
// or the wait the provider advises up to a minute, before the model is
// marked down: a job of many figures meets per-minute limits, and a
// marked model stops the job.
var DescribeRetry = Retry{
	Waits:      []time.Duration{5 * time.Second, 10 * time.Second, 15 * time.Second},
	MaxAdvised: time.Minute,
	On:         func(err error) bool { return errors.Is(err, ErrRateLimited) || serverError(err) },
}

// AnswerRetry is the policy of answers: a server error (HTTP 5xx) is
// asked once more of the same model, a second later, before the next
// model is tried; any other failure falls back at once (the student is
// waiting, and the next model is as good an answer).
var AnswerRetry = Retry{Waits: []time.Duration{time.Second}, On: serverError}

// serverError reports whether err is a provider's HTTP 5xx.
func serverError(err error) bool {
	pe, ok := asProviderError(err)
	return ok && pe.Status >= 500 && pe.Status <= 599
}

// wait returns how long to wait before try number try+1 (0-based) after
// o, and whether to try again at all.
func (p Retry) wait(try int, o outcome) (time.Duration, bool) {
	if o.err == nil || o.text != "" || o.sinkErr != nil || o.capped || p.On == nil || try >= len(p.Waits) || !p.On(o.err) {
		return 0, false
	}
	d := p.Waits[try]
	if pe, ok := asProviderError(o.err); ok && pe.RetryAfter > 0 && p.MaxAdvised > 0 {
		if pe.RetryAfter > p.MaxAdvised {
			return 0, false
		}
		d = pe.RetryAfter
	}
	return d, true
}

// Sleep waits d, or until ctx ends (its error then).
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// attemptRetried asks m as attempt does, again after each wait r.Retry
// allows; the failed tries join res.Chain, each with a notice.
func (r *Runner) attemptRetried(ctx context.Context, m Model, req Request, sink Sink, start time.Time, res *Result, notify func(Notice)) outcome {
	sleep := r.Sleep
	if sleep == nil {
		sleep = Sleep
	}
	for try := 0; ; try++ {
		o := r.attempt(ctx, m, req, sink, start, res)
		d, again := r.Retry.wait(try, o)
		if !again {
			return o
		}
		res.Chain = append(res.Chain, o.attempt)
		n := Notice{Kind: NoticeRetry, Model: m.Key(), Reason: reasonOf(o.err), ErrorKind: o.attempt.ErrorKind}
		notify(n.Say(message.NoticeRetry, append([]any{"model", m.Name, "reason", n.ErrorKind, "seconds", int(d.Round(time.Second) / time.Second)}, statusOf(o.err)...)...))
		if err := sleep(ctx, d); err != nil {
			res.Chain = res.Chain[:len(res.Chain)-1] // the caller records this try
			return o
		}
	}
}
