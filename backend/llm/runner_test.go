package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeProvider is a Provider whose Stream is a function field.
type fakeProvider struct {
	Provider
	name   string
	stream func(ctx context.Context, req Request, fn func(Delta) error) (Usage, error)
}

func (f *fakeProvider) Name() string { return f.name }
func (f *fakeProvider) Stream(ctx context.Context, req Request, fn func(Delta) error) (Usage, error) {
	return f.stream(ctx, req, fn)
}

// answers streams the pieces, then succeeds.
func answers(pieces ...string) func(context.Context, Request, func(Delta) error) (Usage, error) {
	return func(_ context.Context, _ Request, fn func(Delta) error) (Usage, error) {
		for _, p := range pieces {
			if err := fn(Delta{Text: p}); err != nil {
				return Usage{}, err
			}
		}
		return Usage{InputTokens: 10, OutputTokens: len(pieces), StopReason: "stop"}, nil
	}
}

// fails streams the pieces, then fails with err.
func fails(err error, pieces ...string) func(context.Context, Request, func(Delta) error) (Usage, error) {
	return func(_ context.Context, _ Request, fn func(Delta) error) (Usage, error) {
		for _, p := range pieces {
			if err := fn(Delta{Text: p}); err != nil {
				return Usage{}, err
			}
		}
		return Usage{}, err
	}
}

// hangs waits for the context after sending the pieces.
func hangs(pieces ...string) func(context.Context, Request, func(Delta) error) (Usage, error) {
	return func(ctx context.Context, _ Request, fn func(Delta) error) (Usage, error) {
		for _, p := range pieces {
			if err := fn(Delta{Text: p}); err != nil {
				return Usage{}, err
			}
		}
		<-ctx.Done()
		return Usage{}, ctx.Err()
	}
}

func perr(provider string, kind error, status int) *ProviderError {
	return &ProviderError{Provider: provider, Model: "x", Kind: kind, Status: status, Message: "said the provider"}
}

// testModels: three models of three providers.
var (
	modelA = Model{Provider: "pa", ID: "a", Name: "Model A", Tier: 1, Cost: 1, Context: 1000}
	modelB = Model{Provider: "pb", ID: "b", Name: "Model B", Tier: 2, Cost: 1, Context: 1000}
	modelC = Model{Provider: "pc", ID: "c", Name: "Model C", Tier: 3, Cost: 1, Context: 1000}
)

// recorder is a Sink that keeps what it got.
type recorder struct {
	mu      sync.Mutex
	deltas  []Delta
	notices []Notice
}

func (r *recorder) sink() Sink {
	return Sink{
		Delta: func(d Delta) error {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.deltas = append(r.deltas, d)
			return nil
		},
		Notice: func(n Notice) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.notices = append(r.notices, n)
		},
	}
}

func (r *recorder) text() string {
	var b strings.Builder
	for _, d := range r.deltas {
		b.WriteString(d.Text)
	}
	return b.String()
}

func newRunner(streams map[string]func(context.Context, Request, func(Delta) error) (Usage, error), calls *[]string) *Runner {
	var mu sync.Mutex
	return &Runner{
		Provider: func(_ context.Context, id string) (Provider, error) {
			s, ok := streams[id]
			if !ok {
				return nil, fmt.Errorf("no provider %s", id)
			}
			return &fakeProvider{name: id, stream: func(ctx context.Context, req Request, fn func(Delta) error) (Usage, error) {
				mu.Lock()
				*calls = append(*calls, id+"/"+req.Model)
				mu.Unlock()
				return s(ctx, req, fn)
			}}, nil
		},
		Timeouts: Timeouts{FirstToken: 2 * time.Second, Idle: 2 * time.Second},
		Down:     NewUnavailable(nil),
	}
}

func TestRunnerFallsBack(t *testing.T) {
	var calls []string
	r := newRunner(map[string]func(context.Context, Request, func(Delta) error) (Usage, error){
		"pa": fails(perr("pa", ErrRateLimited, 429)),
		"pb": fails(perr("pb", ErrQuota, 402)),
		"pc": answers("2-SAT ", "is in P."),
	}, &calls)
	var rec recorder
	res, err := r.Run(t.Context(), Plan{Order: []Model{modelA, modelB, modelC}}, Request{}, rec.sink())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"pa/a", "pb/b", "pc/c"}, calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if res.ModelUsed != "pc/c" || res.Answer != "2-SAT is in P." || res.Partial {
		t.Errorf("result = %+v", res)
	}
	wantFooter := "Model used: Model C (pc/c); fallback chain: pa/a (rate limited) → pb/b (quota) → pc/c"
	if res.Footer != wantFooter {
		t.Errorf("footer = %q\nwant     %q", res.Footer, wantFooter)
	}
	if got := rec.text(); got != "2-SAT is in P.\n\n"+wantFooter {
		t.Errorf("streamed text = %q", got)
	}
	if last := rec.deltas[len(rec.deltas)-1]; !last.Footer {
		t.Error("the last delta is not marked as the footer")
	}
	var kinds []string
	for _, a := range res.Chain {
		kinds = append(kinds, a.Model+":"+a.ErrorKind)
	}
	if diff := cmp.Diff([]string{"pa/a:rate_limited", "pb/b:quota", "pc/c:"}, kinds); diff != "" {
		t.Errorf("chain (-want +got):\n%s", diff)
	}
	if len(rec.notices) != 2 {
		t.Fatalf("notices = %+v", rec.notices)
	}
	n := rec.notices[0]
	if n.Kind != NoticeFallback || n.Model != "pa/a" || n.Next != "pb/b" || n.ErrorKind != "rate_limited" ||
		!cmp.Equal(n.Alternatives, []string{"pb/b", "pc/c"}) {
		t.Errorf("first notice = %+v", n)
	}
	if !strings.Contains(n.Message, "Model A is unavailable (rate limited (429))") || !strings.Contains(n.Message, "Trying Model B; then Model C.") {
		t.Errorf("first notice message = %q", n.Message)
	}
	if n := rec.notices[1]; n.Model != "pb/b" || n.Next != "pc/c" || n.ErrorKind != "quota" {
		t.Errorf("second notice = %+v", n)
	}
	if r.Down.Why(modelA) == "" || r.Down.Why(modelB) == "" || r.Down.Why(modelC) != "" {
		t.Errorf("marks: A %q, B %q, C %q", r.Down.Why(modelA), r.Down.Why(modelB), r.Down.Why(modelC))
	}
}

// TestRunnerKeepsPartialAnswer: a failure after the first token keeps what
// arrived, says so, and never tries another model (no duplicated text).
func TestRunnerKeepsPartialAnswer(t *testing.T) {
	var calls []string
	r := newRunner(map[string]func(context.Context, Request, func(Delta) error) (Usage, error){
		"pa": fails(perr("pa", ErrStream, 0), "2-SAT ", "is "),
		"pb": answers("should never be streamed"),
	}, &calls)
	var rec recorder
	res, err := r.Run(t.Context(), Plan{Order: []Model{modelA, modelB}}, Request{}, rec.sink())
	if !errors.Is(err, ErrStream) {
		t.Fatalf("error = %v, want ErrStream", err)
	}
	var se *StreamError
	if !errors.As(err, &se) || se.Text != "2-SAT is " {
		t.Errorf("StreamError = %+v", se)
	}
	if !cmp.Equal(calls, []string{"pa/a"}) {
		t.Errorf("calls = %v: a model was retried after the first token", calls)
	}
	if !res.Partial || res.Answer != "2-SAT is " || res.ModelUsed != "pa/a" {
		t.Errorf("result = %+v", res)
	}
	want := "2-SAT is \n\nModel used: Model A (pa/a); the answer broke off"
	if got := rec.text(); got != want {
		t.Errorf("streamed = %q\nwant       %q", got, want)
	}
	if len(rec.notices) != 1 || rec.notices[0].Kind != NoticeInterrupted || !strings.Contains(rec.notices[0].Message, "what arrived is kept") {
		t.Errorf("notices = %+v", rec.notices)
	}
	if KindOf(err) != "stream" {
		t.Errorf("KindOf = %q", KindOf(err))
	}
}

func TestRunnerStopsOnOtherErrors(t *testing.T) {
	for _, kind := range []error{ErrBadRequest, ErrBlocked, ErrBadResponse} {
		var calls []string
		r := newRunner(map[string]func(context.Context, Request, func(Delta) error) (Usage, error){
			"pa": fails(perr("pa", kind, 400)),
			"pb": answers("no"),
		}, &calls)
		var rec recorder
		_, err := r.Run(t.Context(), Plan{Order: []Model{modelA, modelB}}, Request{}, rec.sink())
		if !errors.Is(err, kind) || len(calls) != 1 || len(rec.deltas) != 0 {
			t.Errorf("%v: err %v, calls %v, deltas %v", kind, err, calls, rec.deltas)
		}
	}
}

func TestRunnerExhausted(t *testing.T) {
	var calls []string
	r := newRunner(map[string]func(context.Context, Request, func(Delta) error) (Usage, error){
		"pa": fails(perr("pa", ErrUnavailable, 503)),
		"pb": fails(perr("pb", ErrRateLimited, 429)),
	}, &calls)
	var rec recorder
	res, err := r.Run(t.Context(), Plan{Order: []Model{modelA, modelB}}, Request{}, rec.sink())
	if !errors.Is(err, ErrNoModel) || !errors.Is(err, ErrRateLimited) {
		t.Fatalf("error = %v", err)
	}
	if !strings.Contains(err.Error(), "pa/a: unavailable; pb/b: rate limited") {
		t.Errorf("message = %v", err)
	}
	if len(res.Chain) != 2 || res.ModelUsed != "" {
		t.Errorf("result = %+v", res)
	}
	if n := rec.notices[len(rec.notices)-1]; !strings.Contains(n.Message, "No other model is available") {
		t.Errorf("last notice = %+v", n)
	}
	// Everything is marked now: another run finds nothing to try.
	if _, err := r.Run(t.Context(), Plan{Order: []Model{modelA, modelB}}, Request{}, rec.sink()); !errors.Is(err, ErrNoModel) {
		t.Errorf("second run: %v", err)
	}
}

func TestRunnerTimeouts(t *testing.T) {
	var calls []string
	r := newRunner(map[string]func(context.Context, Request, func(Delta) error) (Usage, error){
		"pa": hangs(),
		"pb": answers("fast"),
		"pc": hangs("begun "),
	}, &calls)
	r.Timeouts = Timeouts{FirstToken: 100 * time.Millisecond, Idle: 100 * time.Millisecond}
	var rec recorder
	res, err := r.Run(t.Context(), Plan{Order: []Model{modelA, modelB}}, Request{}, rec.sink())
	if err != nil || res.ModelUsed != "pb/b" || res.Chain[0].ErrorKind != "timeout" {
		t.Errorf("first-token timeout: %v, %+v", err, res)
	}
	res, err = r.Run(t.Context(), Plan{Order: []Model{modelC, modelB}}, Request{}, rec.sink())
	if !errors.Is(err, ErrStream) || res.Answer != "begun " || !res.Partial {
		t.Errorf("idle timeout: %v, %+v", err, res)
	}
}

func TestRunnerCanceled(t *testing.T) {
	var calls []string
	r := newRunner(map[string]func(context.Context, Request, func(Delta) error) (Usage, error){
		"pa": hangs("partial "),
		"pb": answers("no"),
	}, &calls)
	ctx, cancel := context.WithCancel(t.Context())
	var rec recorder
	s := rec.sink()
	s.Delta = func(d Delta) error { cancel(); return nil }
	res, err := r.Run(ctx, Plan{Order: []Model{modelA, modelB}}, Request{}, s)
	if !errors.Is(err, context.Canceled) || len(calls) != 1 || res.Answer != "partial " {
		t.Errorf("err %v, calls %v, result %+v", err, calls, res)
	}
	if r.Down.Why(modelA) != "" {
		t.Error("a canceled answer marked its model unavailable")
	}
}

func TestRunnerProgressIsNotText(t *testing.T) {
	var calls []string
	r := newRunner(map[string]func(context.Context, Request, func(Delta) error) (Usage, error){
		"pa": answers("", "", "text"),
	}, &calls)
	var rec recorder
	if _, err := r.Run(t.Context(), Plan{Order: []Model{modelA}}, Request{}, rec.sink()); err != nil {
		t.Fatal(err)
	}
	if len(rec.deltas) != 2 || rec.deltas[0].Text != "text" {
		t.Errorf("deltas = %+v", rec.deltas)
	}
}

func TestUnavailableMarks(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	u := NewUnavailable(func() time.Time { return now })
	a2 := Model{Provider: "pa", ID: "a2", Name: "A2"}

	u.MarkError(modelA, &ProviderError{Provider: "pa", Kind: ErrRateLimited, Status: 429, RetryAfter: 30 * time.Second})
	if got := u.Why(modelA); got != "rate limited (429), retry in 30s" {
		t.Errorf("Why = %q", got)
	}
	if u.Why(a2) != "" {
		t.Error("a rate limit of one model marked another")
	}
	if kind, _, until := u.Status(modelA); kind != "rate_limited" || !until.Equal(now.Add(30*time.Second)) {
		t.Errorf("Status = %q until %v, want rate_limited until %v", kind, until, now.Add(30*time.Second))
	}
	now = now.Add(31 * time.Second)
	if u.Why(modelA) != "" {
		t.Error("the mark outlived the provider's Retry-After")
	}

	u.MarkError(modelA, &ProviderError{Provider: "pa", Kind: ErrQuota, Status: 402, ProviderWide: true})
	if u.Why(a2) != "quota or credits exhausted (402) this session" {
		t.Errorf("provider-wide mark: %q", u.Why(a2))
	}
	if kind, _, until := u.Status(a2); kind != "quota" || !until.IsZero() {
		t.Errorf("Status = %q until %v, want quota for the session", kind, until)
	}
	now = now.Add(24 * time.Hour)
	if u.Why(a2) == "" {
		t.Error("a session mark expired")
	}
	u.ClearProvider("pa")
	if u.Why(modelA) != "" || u.Why(a2) != "" {
		t.Error("ClearProvider left marks")
	}
	u.MarkError(modelB, perr("pb", ErrUnavailable, 503))
	u.Reset()
	if u.Why(modelB) != "" {
		t.Error("Reset left marks")
	}
}

// TestRunnerConcurrent runs answers side by side on one session (go test
// -race checks the shared Unavailable set).
func TestRunnerConcurrent(t *testing.T) {
	var calls []string
	r := newRunner(map[string]func(context.Context, Request, func(Delta) error) (Usage, error){
		"pa": fails(perr("pa", ErrRateLimited, 429)),
		"pb": answers("ok"),
	}, &calls)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			var rec recorder
			res, err := r.Run(t.Context(), Plan{Order: []Model{modelA, modelB}}, Request{}, rec.sink())
			if err != nil || res.ModelUsed != "pb/b" {
				t.Errorf("%v, %+v", err, res)
			}
		})
	}
	wg.Wait()
}

// TestRunnerSinkError: when the caller stops listening, the answer stops
// there: no break-off notice, no footer, no fallback, no mark.
func TestRunnerSinkError(t *testing.T) {
	var calls []string
	r := newRunner(map[string]func(context.Context, Request, func(Delta) error) (Usage, error){
		"pa": answers("one ", "two "),
		"pb": answers("no"),
	}, &calls)
	var rec recorder
	s := rec.sink()
	gone := errors.New("window closed")
	s.Delta = func(Delta) error { return gone }
	res, err := r.Run(t.Context(), Plan{Order: []Model{modelA, modelB}}, Request{}, s)
	if !errors.Is(err, gone) || len(calls) != 1 || len(rec.notices) != 0 || res.Footer != "" || r.Down.Why(modelA) != "" {
		t.Errorf("err %v, calls %v, notices %+v, result %+v", err, calls, rec.notices, res)
	}
}

// TestRunnerAcceptRefuses: a whole reply the sink's Accept refuses moves
// on to the next model with a fallback notice of kind "unformatted", and
// the refused model stays available; when every reply is refused the
// chain is exhausted with that kind. (New with Sink.Accept: on main a
// reply in no format was the answer.)
func TestRunnerAcceptRefuses(t *testing.T) {
	var calls []string
	r := newRunner(map[string]func(context.Context, Request, func(Delta) error) (Usage, error){
		"pa": answers("Sure! Here is a summary in prose."),
		"pb": answers("SUMMARY: a line"),
	}, &calls)
	accept := func(text string) error {
		if !strings.HasPrefix(text, "SUMMARY:") {
			return errors.New("no SUMMARY: line")
		}
		return nil
	}
	var rec recorder
	sink := rec.sink()
	sink.Accept = accept
	res, err := r.Run(t.Context(), Plan{Order: []Model{modelA, modelB}}, Request{}, sink)
	if err != nil || res.Answer != "SUMMARY: a line" || res.ModelUsed != "pb/b" || len(calls) != 2 {
		t.Fatalf("res %+v, err %v, calls %v", res, err, calls)
	}
	if len(rec.notices) != 1 || rec.notices[0].Kind != NoticeFallback || rec.notices[0].ErrorKind != "unformatted" ||
		!strings.Contains(rec.notices[0].Message, "Model A is unavailable (reply not in the format asked for). Trying Model B") {
		t.Errorf("notices %+v", rec.notices)
	}
	if len(res.Chain) != 2 || res.Chain[0].ErrorKind != "unformatted" || !strings.Contains(res.Chain[0].Error, "no SUMMARY: line") {
		t.Errorf("chain %+v", res.Chain)
	}
	if why := r.Down.Why(modelA); why != "" {
		t.Errorf("model A marked unavailable: %s", why)
	}

	calls = nil
	r = newRunner(map[string]func(context.Context, Request, func(Delta) error) (Usage, error){
		"pa": answers("prose"), "pb": answers("more prose"),
	}, &calls)
	rec = recorder{}
	sink = rec.sink()
	sink.Accept = accept
	_, err = r.Run(t.Context(), Plan{Order: []Model{modelA, modelB}}, Request{}, sink)
	var ex *ExhaustedError
	if !errors.As(err, &ex) || !errors.Is(err, ErrUnformatted) || len(ex.Chain) != 2 || ex.Chain[1].ErrorKind != "unformatted" {
		t.Errorf("err %v", err)
	}
}
