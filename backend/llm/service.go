package llm

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"vika/backend/config"
)

// Keys gives a provider's API key; "" (and no error) when none is set.
// secrets.Store implements it.
type Keys interface {
	Key(provider string) (string, error)
}

// reasonKeyring is why a cloud model cannot be used when the keyring
// failed (locked, not answering within its timeout, no session bus).
const reasonKeyring = "the system keyring could not be read"

// ollamaTTL is how long a listing of the local Ollama models is reused.
const ollamaTTL = 15 * time.Second

// Service answers questions: it lists the models and whether each can be
// used, routes a question, and runs the answer with fallback. One Service
// lives as long as the app's session; its Unavailable set is the session's.
type Service struct {
	cfg    Config
	keys   Keys
	http   *http.Client
	router *Router
	down   *Unavailable
	now    func() time.Time

	localOn atomic.Bool // the student turned the local Ollama on (Config.Local, SetLocal)

	mu       sync.Mutex
	localAt  time.Time     // guarded by mu: when local was listed
	local    []ollamaModel // guarded by mu
	localErr error         // guarded by mu

	// probeMu is held while a describe model is probed (ProbeVision), so
	// that describe runs started together wait for one probe; probed
	// remembers its outcome, by the model the student chose.
	probeMu sync.Mutex
	probed  map[string]string // guarded by probeMu
}

// New returns a Service for cfg (see ConfigFromEnv), reading keys from keys.
func New(cfg Config, keys Keys) *Service {
	cfg.Timeouts = cfg.Timeouts.withDefaults()
	s := &Service{cfg: cfg, keys: keys, http: NewHTTPClient(cfg.Timeouts.Connect),
		router: NewRouter(cfg), down: NewUnavailable(nil), now: time.Now}
	s.localOn.Store(cfg.Local)
	return s
}

// SetLocal turns the local Ollama on or off (the student's setting): off,
// nothing is sent to it, not even a request for its models.
func (s *Service) SetLocal(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.localOn.Store(on)
	s.localAt, s.local, s.localErr = time.Time{}, nil, nil
}

// LocalEndpoint is the address of the local Ollama in effect, for Settings
// to show; "" when the catalogue has none.
func (s *Service) LocalEndpoint() string {
	for _, p := range s.cfg.Catalogue.Providers {
		if p.API == "ollama" {
			return cmp.Or(s.cfg.BaseURLs[p.ID], p.BaseURL)
		}
	}
	return ""
}

// FromEnv returns the Service of the embedded catalogue configured by the
// process environment (see ConfigFromEnv), reading keys from keys (a
// *secrets.Store in the app).
func FromEnv(keys Keys) (*Service, error) {
	cat, err := LoadCatalogue()
	if err != nil {
		return nil, err
	}
	cfg, err := ConfigFromEnv(cat, config.Getenv)
	if err != nil {
		return nil, err
	}
	return New(cfg, keys), nil
}

// Catalogue returns the model catalogue in use.
func (s *Service) Catalogue() *Catalogue { return s.cfg.Catalogue }

// KeyChanged forgets the session's failures of a provider whose key was
// just set or cleared, so that its models are tried again.
func (s *Service) KeyChanged(provider string) { s.down.ClearProvider(provider) }

// Models lists every model: the catalogue's, then those pulled into Ollama,
// each with whether it can be used now. A cloud model needs its provider's
// key; a local one a reachable Ollama; neither may be marked unavailable
// this session.
func (s *Service) Models(ctx context.Context) []ModelStatus {
	var out []ModelStatus
	keyState := map[string][2]string{} // provider -> kind and reason it cannot be used ("" when it can)
	for _, m := range s.cfg.Catalogue.Models {
		why, seen := keyState[m.Provider]
		if !seen {
			why[0], why[1] = s.keyReason(m.Provider)
			keyState[m.Provider] = why
		}
		out = append(out, s.status(m, why[0], why[1]))
	}
	for _, p := range s.cfg.Catalogue.Providers {
		if p.API != "ollama" || !s.localOn.Load() {
			continue
		}
		pulled, err := s.localModels(ctx, p)
		if err != nil {
			continue
		}
		for _, om := range pulled {
			out = append(out, s.status(s.cfg.Catalogue.localModel(p.ID, om), "", ""))
		}
	}
	return out
}

// status is m's status: unavailable for want of a key (kind, reason), else
// if the session marked it so.
func (s *Service) status(m Model, kind, reason string) ModelStatus {
	if reason != "" {
		return ModelStatus{Model: m, Why: kind, Reason: reason}
	}
	kind, reason, until := s.down.Status(m)
	st := ModelStatus{Model: m, Available: reason == "", Why: kind, Reason: reason}
	switch {
	case reason == "":
	case until.IsZero():
		st.ThisSession = true
	default:
		st.Until = until.UnixMilli()
	}
	return st
}

// keyReason says why the provider's models cannot be used for want of a
// key: its kind (message.Reasons) and in English; "", "" when they can.
func (s *Service) keyReason(provider string) (kind, reason string) {
	p, ok := s.cfg.Catalogue.Provider(provider)
	if !ok || !p.NeedsKey {
		return "", ""
	}
	key, err := s.keys.Key(provider)
	switch {
	case err != nil:
		return "keyring", reasonKeyring
	case key == "":
		return "no_key", "no API key for " + p.Name
	}
	return "", ""
}

// localModels lists the models pulled into Ollama, reusing a listing for
// ollamaTTL. An error means Ollama is not reachable.
func (s *Service) localModels(ctx context.Context, p ProviderInfo) ([]ollamaModel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.localAt.IsZero() && s.now().Sub(s.localAt) < ollamaTTL {
		return s.local, s.localErr
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	o := s.ollama(p)
	s.local, s.localErr = o.List(ctx)
	s.localAt = s.now()
	return s.local, s.localErr
}

// Ask routes q and streams the answer to req (whose Model the runner sets)
// into sink, falling back as Runner.Run describes.
func (s *Service) Ask(ctx context.Context, q Query, req Request, sink Sink) (Result, error) {
	return s.AskFor(ctx, q, Fixed(req), sink)
}

// AskFor is Ask with the request built for each model tried.
func (s *Service) AskFor(ctx context.Context, q Query, build Builder, sink Sink) (Result, error) {
	plan, err := s.router.Plan(q, s.Models(ctx))
	return s.run(ctx, plan, err, build, sink, AnswerRetry)
}

// AskLight runs a short auxiliary request (a follow-up rewrite, a
// hypothetical passage) on the lightest and cheapest available models
// first, whatever the question's complexity, falling back like Ask. An
// error wraps ErrNoModel when no model is available.
func (s *Service) AskLight(ctx context.Context, req Request, sink Sink) (Result, error) {
	plan, err := s.router.PlanLight(s.Models(ctx))
	return s.run(ctx, plan, err, Fixed(req), sink, AnswerRetry)
}

// AskJob runs a request of a background job over many passages (a
// passage's summary, package engine's summary index) on the lightest and
// cheapest available models first, as AskLight, falling back like Ask;
// a rate-limited or overloaded request is asked again with the describe
// jobs' waits (DescribeRetry) before its model is marked down.
func (s *Service) AskJob(ctx context.Context, req Request, sink Sink) (Result, error) {
	plan, err := s.router.PlanLight(s.Models(ctx))
	return s.run(ctx, plan, err, Fixed(req), sink, DescribeRetry)
}

// FirstJobModel is the model AskJob asks first now ("provider/id"); ""
// when none is available.
func (s *Service) FirstJobModel(ctx context.Context) (Model, bool) {
	plan, err := s.router.PlanLight(s.Models(ctx))
	if err != nil || len(plan.Order) == 0 {
		return Model{}, false
	}
	return plan.Order[0], true
}

func (s *Service) run(ctx context.Context, plan Plan, planErr error, build Builder, sink Sink, retry Retry) (Result, error) {
	if planErr != nil {
		if sink.Notice != nil {
			for _, n := range plan.Notices {
				sink.Notice(n)
			}
		}
		return Result{Plan: plan}, planErr
	}
	r := &Runner{Provider: s.Provider, Timeouts: s.cfg.Timeouts, MaxAnswerBytes: s.cfg.MaxAnswerBytes, Down: s.down, Now: s.now,
		Retry: retry, Sleep: s.cfg.Sleep}
	return r.RunFor(ctx, plan, build, sink)
}

// Provider returns the provider with that id, with its current key.
func (s *Service) Provider(ctx context.Context, id string) (Provider, error) {
	p, ok := s.cfg.Catalogue.Provider(id)
	if !ok {
		return nil, fmt.Errorf("%w: unknown provider %q", ErrModelNotFound, id)
	}
	var key string
	if p.NeedsKey {
		k, err := s.keys.Key(id)
		if err != nil {
			return nil, &ProviderError{Provider: id, Kind: ErrNoKey, ProviderWide: true,
				Message: "the system keyring could not be read", cause: err}
		}
		if k == "" {
			return nil, &ProviderError{Provider: id, Kind: ErrNoKey, ProviderWide: true,
				Message: "no API key for " + p.Name + ": add one in Settings"}
		}
		key = k
	}
	base := s.cfg.BaseURLs[id]
	if base == "" {
		base = p.BaseURL
	}
	switch p.API {
	case "gemini":
		return &gemini{name: id, baseURL: base, key: key, http: s.http}, nil
	case "openai":
		return &openAICompat{name: id, baseURL: base, key: key, headers: s.cfg.Headers[id], maxField: p.MaxTokensField, http: s.http, now: s.now}, nil
	case "ollama":
		if !s.localOn.Load() {
			return nil, &ProviderError{Provider: id, Kind: ErrUnavailable, ProviderWide: true,
				Message: "the local Ollama is off: turn it on in Settings"}
		}
		return s.ollama(p), nil
	}
	return nil, fmt.Errorf("provider %q: unknown api %q", id, p.API)
}

func (s *Service) ollama(p ProviderInfo) *ollama {
	base := s.cfg.BaseURLs[p.ID]
	if base == "" {
		base = p.BaseURL
	}
	return &ollama{name: p.ID, baseURL: strings.TrimRight(base, "/"), numCtx: s.cfg.Catalogue.Local.NumCtx, http: s.http}
}

// AskWith runs req on the model with that key ("provider/id") only, with
// no fallback: describing figures sends them to the provider the student
// chose and to no other. A rate-limited or overloaded request is asked
// again after a wait (DescribeRetry) before the model is marked down. An error wraps ErrModelNotFound when the model is
// unknown, ErrNoModel when it cannot be used now (an *UnavailableError:
// no key, Ollama not running, unavailable this session).
func (s *Service) AskWith(ctx context.Context, key string, req Request, sink Sink) (Result, error) {
	m, ok := s.Model(ctx, key)
	switch {
	case !ok:
		return Result{}, fmt.Errorf("%w: %q is not in the catalogue nor pulled into Ollama", ErrModelNotFound, key)
	case !m.Available:
		return Result{}, &UnavailableError{Model: m.Name, Why: m.Why, Reason: m.Reason}
	}
	return s.run(ctx, Plan{Mode: "manual", Order: []Model{m.Model}}, nil, Fixed(req), sink, DescribeRetry)
}

// Model returns the model with that key, from the catalogue or pulled into
// Ollama, with whether it can be used now.
func (s *Service) Model(ctx context.Context, key string) (ModelStatus, bool) {
	for _, m := range s.Models(ctx) {
		if m.Key() == key {
			return m, true
		}
	}
	return ModelStatus{}, false
}
