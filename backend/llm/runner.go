package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"vika/backend/message"
)

// Sink receives what the runner streams. Delta gets the answer's text, in
// order and never twice, then a final Delta with Footer set carrying the
// "Model used: ..." line; an error from it stops the answer. Notice, when
// set, gets the routing and fallback notices as they happen.
type Sink struct {
	Delta  func(Delta) error
	Notice func(Notice)
	// Accept, when set, judges a reply that arrived whole (or reached
	// the cap on text held) before it is kept: an error refuses it as
	// not in the format the request asked for (ErrUnformatted), and the
	// next model is asked as after a failure before the first token. Its
	// text was already given to Delta: a caller that sets Accept buffers
	// and reads Result.Answer. A reply that broke off is not judged.
	Accept func(text string) error
}

// Attempt is one model tried for an answer.
type Attempt struct {
	Model     string        `json:"model"` // "provider/id"
	Name      string        `json:"name"`
	ErrorKind string        `json:"error_kind,omitempty"` // KindOf the error; "" for the model that answered
	Error     string        `json:"error,omitempty"`      // safe to show
	Duration  time.Duration `json:"duration_ns"`
}

// Result is an answer and how it was obtained.
type Result struct {
	Answer    string        `json:"answer"`     // the model's text (the footer is not part of it)
	ModelUsed string        `json:"model_used"` // "provider/id" of the model that answered ("" if none did)
	ModelName string        `json:"model_name"`
	Footer    string        `json:"footer"` // "Model used: ...", with the fallback chain
	Chain     []Attempt     `json:"chain"`  // every model tried, in order, the one that answered last
	Usage     Usage         `json:"usage"`
	TTFT      time.Duration `json:"ttft_ns"`     // from the start to the first text
	Duration  time.Duration `json:"duration_ns"` // from the start to the end
	Partial   bool          `json:"partial"`     // the answer broke off after it started
	// Truncated: the answer reached the model's output-token cap or the
	// cap on text held (MaxAnswerBytes) and was cut there, with a notice.
	Truncated bool `json:"truncated,omitempty"`
	Plan      Plan `json:"plan"`
}

// Runner streams an answer along a plan, falling back to the next model
// when one fails before its first token with a rate limit, an exhausted
// quota, an outage, a timeout, an unknown model or a rejected key, or
// when the sink's Accept refuses its whole reply (ErrUnformatted). A
// failure after the first token is not retried: the text that arrived is
// kept, a notice says the answer broke off, and the error wraps ErrStream.
//
// Every answer is bounded: each request carries the model's output-token
// cap (Model.MaxOutputTokens), the whole answer has a deadline
// (Timeouts.Total), and the text held is capped (MaxAnswerBytes): past it
// the stream is stopped and the answer ends cleanly with a notice.
type Runner struct {
	// Provider returns the provider of that id, ready to stream.
	Provider func(ctx context.Context, id string) (Provider, error)
	Timeouts Timeouts
	// MaxAnswerBytes is the most text held for one answer; 0 means
	// DefaultMaxAnswerBytes.
	MaxAnswerBytes int
	Down           *Unavailable
	Now            func() time.Time // the clock; nil for time.Now
	// Retry says when a failed model is asked again before the next one
	// (AnswerRetry, DescribeRetry); the zero value never retries. Sleep
	// waits between tries; nil means Sleep (tests inject one that does
	// not wait).
	Retry Retry
	Sleep func(ctx context.Context, d time.Duration) error
}

// fallbackKinds are the failures, before the first token, that move on to
// the next model.
var fallbackKinds = []error{ErrRateLimited, ErrQuota, ErrUnavailable, ErrTimeout, ErrModelNotFound, ErrAuth, ErrNoKey, ErrStream}

// Run streams req along plan.Order (req.Model is set for each attempt).
// On success the error is nil; after a break-off the Result holds the
// partial answer and the error wraps ErrStream; when every model failed the
// error wraps ErrNoModel and the last failure. An error from sink.Delta,
// or the end of ctx, stops the answer where it is (no footer).
func (r *Runner) Run(ctx context.Context, plan Plan, req Request, sink Sink) (Result, error) {
	return r.RunFor(ctx, plan, Fixed(req), sink)
}

// Builder returns the request to send to a model: a prompt can be worded
// for the model that will read it (prompt.StyleFor).
type Builder func(m Model) Request

// Fixed is the Builder that sends req to every model.
func Fixed(req Request) Builder { return func(Model) Request { return req } }

// RunFor is Run with the request of each attempt built for its model.
func (r *Runner) RunFor(ctx context.Context, plan Plan, build Builder, sink Sink) (Result, error) {
	now := r.Now
	if now == nil {
		now = time.Now
	}
	down := r.Down
	if down == nil {
		down = NewUnavailable(now)
	}
	notify := func(n Notice) {
		if sink.Notice != nil {
			sink.Notice(n)
		}
	}
	for _, n := range plan.Notices {
		notify(n)
	}
	total := r.Timeouts.withDefaults().Total
	parent := ctx
	ctx, cancel := context.WithTimeoutCause(ctx, total, errAnswerDeadline)
	defer cancel()
	start := now()
	res := Result{Plan: plan}
	var lastErr error
	for i, m := range plan.Order {
		if down.Why(m) != "" {
			continue // marked by a concurrent answer since planning
		}
		o := r.attemptRetried(ctx, m, build(m), sink, start, &res, notify)
		text, a, err := o.text, o.attempt, o.err
		if err != nil && o.sinkErr == nil && parent.Err() == nil && errors.Is(context.Cause(ctx), errAnswerDeadline) {
			err = &ProviderError{Provider: m.Provider, Model: m.ID, Kind: ErrTimeout,
				Message: "the answer took longer than " + total.String(), cause: errAnswerDeadline}
			a.ErrorKind, a.Error = KindOf(err), err.Error()
			if text == "" {
				res.Chain = append(res.Chain, a)
				res.Duration = now().Sub(start)
				return res, &ExhaustedError{Chain: res.Chain, Last: err}
			}
		}
		if (err == nil || o.capped) && sink.Accept != nil {
			if aerr := sink.Accept(text); aerr != nil {
				err = &ProviderError{Provider: m.Provider, Model: m.ID, Kind: ErrUnformatted, Message: aerr.Error(), cause: aerr}
				a.ErrorKind, a.Error, o.capped = KindOf(err), err.Error(), false
			}
		}
		res.Chain = append(res.Chain, a)
		switch {
		case err == nil || o.capped:
			res.Answer, res.ModelUsed, res.ModelName = text, m.Key(), m.Name
			if n, cut := truncation(m, res.Usage, o.capped, r.maxAnswer()); cut {
				res.Truncated = true
				notify(n)
			}
			return r.finish(res, start, now, sink, nil)
		case o.sinkErr != nil || parent.Err() != nil: // the caller stopped listening
			res.Answer, res.ModelUsed, res.ModelName, res.Partial = text, m.Key(), m.Name, text != ""
			res.Duration = now().Sub(start)
			return res, err
		case errors.Is(err, ErrUnformatted):
			// The model answered, in its own way: it stays available for
			// the next request (no MarkError), the next model gets this one.
			lastErr = err
			notify(fallbackNotice(m, err, remaining(down, plan.Order[i+1:])))
			continue
		case text != "": // broke off after the first token: keep it, no retry
			res.Answer, res.ModelUsed, res.ModelName, res.Partial = text, m.Key(), m.Name, true
			notify(Notice{Kind: NoticeInterrupted, Model: m.Key(), Reason: reasonOf(err), ErrorKind: a.ErrorKind}.
				Say(message.NoticeInterrupted, append([]any{"model", m.Name, "reason", a.ErrorKind}, statusOf(err)...)...))
			return r.finish(res, start, now, sink, &StreamError{Model: m.Key(), Text: text, Err: err})
		case !isFallback(err):
			res.Duration = now().Sub(start)
			return res, err
		}
		down.MarkError(m, err)
		lastErr = err
		notify(fallbackNotice(m, err, remaining(down, plan.Order[i+1:])))
	}
	res.Duration = now().Sub(start)
	if lastErr == nil {
		return res, fmt.Errorf("%w: every model is unavailable this session", ErrNoModel)
	}
	return res, &ExhaustedError{Chain: res.Chain, Last: lastErr}
}

// outcome is how one attempt ended.
type outcome struct {
	text    string // forwarded to the sink
	attempt Attempt
	sinkErr error // the sink's own error, when it stopped the stream
	capped  bool  // the text reached MaxAnswerBytes and the stream was stopped
	err     error
}

// attempt streams from one model, forwarding its text to sink and setting
// res.TTFT at its first text and res.Usage at its end.
func (r *Runner) attempt(ctx context.Context, m Model, req Request, sink Sink, start time.Time, res *Result) outcome {
	now := r.Now
	if now == nil {
		now = time.Now
	}
	t := r.Timeouts.withDefaults()
	began := now()
	var text strings.Builder
	var sinkErr error
	max, capped := r.maxAnswer(), false
	usage, err := r.stream(ctx, m, req, t, func(d Delta) error {
		if text.Len()+len(d.Text) > max {
			d.Text, capped = cutUTF8(d.Text, max-text.Len()), true
		}
		if d.Text != "" {
			if text.Len() == 0 {
				res.TTFT = now().Sub(start)
			}
			text.WriteString(d.Text)
			if sinkErr = sink.Delta(d); sinkErr != nil {
				return sinkErr
			}
		}
		if capped {
			return errTextCap
		}
		return nil
	})
	res.Usage = usage
	a := Attempt{Model: m.Key(), Name: m.Name, Duration: now().Sub(began)}
	capped = capped && errors.Is(err, errTextCap)
	if capped {
		err = nil
	}
	if err != nil {
		a.ErrorKind, a.Error = KindOf(err), err.Error()
	}
	return outcome{text: text.String(), attempt: a, sinkErr: sinkErr, capped: capped, err: err}
}

// fallbackNotice tells that m failed with err and which models remain.
func fallbackNotice(m Model, err error, rest []Model) Notice {
	n := Notice{Kind: NoticeFallback, Model: m.Key(), Reason: reasonOf(err), ErrorKind: KindOf(err), Alternatives: keys(rest)}
	kv := []any{"model", m.Name, "reason", n.ErrorKind, "next", ""}
	if len(rest) > 0 {
		n.Next, kv[5] = rest[0].Key(), rest[0].Name
		if len(rest) > 1 {
			kv = append(kv, "later", nameList(rest[1:]))
		}
	}
	return n.Say(message.NoticeFallback, append(kv, statusOf(err)...)...)
}

// statusOf is what a provider said of err beyond its kind, as message
// parameters: the HTTP status and the wait it asked for.
func statusOf(err error) []any {
	pe, ok := asProviderError(err)
	if !ok {
		return nil
	}
	var kv []any
	if pe.Status != 0 {
		kv = append(kv, "status", pe.Status)
	}
	if pe.RetryAfter > 0 {
		kv = append(kv, "retry", pe.RetryAfter.Round(time.Second).String())
	}
	return kv
}

func (r *Runner) stream(ctx context.Context, m Model, req Request, t Timeouts, fn func(Delta) error) (Usage, error) {
	p, err := r.Provider(ctx, m.Provider)
	if err != nil {
		return Usage{}, err
	}
	req.Model = m.ID
	if m.MaxOutputTokens > 0 && (req.MaxTokens <= 0 || req.MaxTokens > m.MaxOutputTokens) {
		req.MaxTokens = m.MaxOutputTokens
	}
	return StreamTimed(ctx, p, req, m.firstToken(t.FirstToken), t.Idle, fn)
}

// finish closes the answer with its footer.
func (r *Runner) finish(res Result, start time.Time, now func() time.Time, sink Sink, err error) (Result, error) {
	res.Footer = footer(res)
	res.Duration = now().Sub(start)
	prefix := "\n\n"
	if res.Answer == "" || strings.HasSuffix(res.Answer, "\n\n") {
		prefix = ""
	} else if strings.HasSuffix(res.Answer, "\n") {
		prefix = "\n"
	}
	if ferr := sink.Delta(Delta{Text: prefix + res.Footer, Footer: true}); ferr != nil && err == nil {
		err = ferr
	}
	return res, err
}

// remaining are the models of order not marked unavailable.
func remaining(down *Unavailable, order []Model) []Model {
	var out []Model
	for _, m := range order {
		if down.Why(m) == "" {
			out = append(out, m)
		}
	}
	return out
}

// footer is "Model used: <name> (<provider/id>)", followed by the fallback
// chain when earlier models failed, and a mark when the answer broke off.
func footer(res Result) string {
	s := fmt.Sprintf("Model used: %s (%s)", res.ModelName, res.ModelUsed)
	if len(res.Chain) > 1 {
		var steps []string
		for i, a := range res.Chain {
			step := a.Model
			if a.ErrorKind != "" && (a.Model != res.ModelUsed || i < len(res.Chain)-1) { // a retried try failed too
				step += " (" + strings.ReplaceAll(a.ErrorKind, "_", " ") + ")"
			}
			steps = append(steps, step)
		}
		s += "; fallback chain: " + strings.Join(steps, " → ")
	}
	if res.Partial {
		s += "; the answer broke off"
	}
	return s
}

func isFallback(err error) bool {
	for _, k := range fallbackKinds {
		if errors.Is(err, k) {
			return true
		}
	}
	return false
}

func reasonOf(err error) string {
	if pe, ok := asProviderError(err); ok {
		return pe.Reason()
	}
	return KindOf(err)
}

func asProviderError(err error) (*ProviderError, bool) {
	var pe *ProviderError
	ok := errors.As(err, &pe)
	return pe, ok
}

// nameList is the display names of models, in order: a notice's list,
// which the window joins in its own language.
func nameList(models []Model) []string {
	out := make([]string, len(models))
	for i, m := range models {
		out[i] = m.Name
	}
	return out
}

// StreamError is an answer that broke off after its first token. Text is
// what arrived (already streamed, and kept in Result.Answer).
type StreamError struct {
	Model string
	Text  string
	Err   error
}

func (e *StreamError) Error() string {
	return fmt.Sprintf("the answer from %s broke off after %d characters: %v", e.Model, len([]rune(e.Text)), e.Err)
}

func (e *StreamError) Unwrap() []error { return []error{ErrStream, e.Err} }

// ExhaustedError is returned when every model of the plan failed.
type ExhaustedError struct {
	Chain []Attempt
	Last  error
}

func (e *ExhaustedError) Error() string {
	var parts []string
	for _, a := range e.Chain {
		parts = append(parts, a.Model+": "+strings.ReplaceAll(a.ErrorKind, "_", " "))
	}
	return "no model could answer (" + strings.Join(parts, "; ") + "): " + e.Last.Error()
}

func (e *ExhaustedError) Unwrap() []error { return []error{ErrNoModel, e.Last} }
