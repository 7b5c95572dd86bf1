package llm

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"vika/backend/message"
)

// ModelStatus is a model with whether it can be used now, and why not.
type ModelStatus struct {
	Model
	Available bool `json:"available"`
	// Why is the kind of reason it cannot be used, a code of
	// message.Reasons ("no_key", "keyring", "rate_limited", "quota", ...)
	// the window shows as "reason." + Why; "" when it can be used.
	Why string `json:"why,omitempty"`
	// Until is when a model marked down for a while (a rate limit's
	// Retry-After) can be asked again, in Unix milliseconds; ThisSession
	// says that a mark lasts until the app quits. Neither is set for a
	// missing key or an unreachable Ollama.
	Until       int64 `json:"until,omitempty"`
	ThisSession bool  `json:"this_session,omitempty"`
	// Reason says the same in English with its detail, for the command
	// line and error texts: "no API key for Mistral AI", "rate limited
	// (429), retry in 43s".
	Reason string `json:"-"`
}

// Notice tells the user something about routing or fallback. Message is a
// sentence to show; the other fields are the same as data.
type Notice struct {
	Kind         string   `json:"kind"` // NoticeRouter, NoticeSkipped, NoticeFallback, NoticeInterrupted, NoticeConfig, NoticeTruncated, NoticeRetry
	Model        string   `json:"model,omitempty"`
	Reason       string   `json:"reason,omitempty"`
	ErrorKind    string   `json:"error_kind,omitempty"` // KindOf the error
	Next         string   `json:"next,omitempty"`
	Alternatives []string `json:"alternatives,omitempty"` // the models still to try, in order
	Message      string   `json:"message"`                // English, for the command line
	// Code and Params say the same for the window, which translates them
	// (package message).
	Code   string         `json:"code,omitempty"`
	Params message.Params `json:"params,omitempty"`
}

// Say gives n its message code and parameters (key, value pairs) and,
// for the command line, their English (package message).
func (n Notice) Say(code string, kv ...any) Notice {
	m := message.New(code, kv...)
	n.Code, n.Params, n.Message = m.Code, m.Params, m.English()
	return n
}

// Notice kinds.
const (
	NoticeRouter      = "router"      // the configured router is not available; the heuristic is used
	NoticeSkipped     = "skipped"     // the selected model cannot be used now; another is
	NoticeFallback    = "fallback"    // a model failed before its first token; the next is tried
	NoticeInterrupted = "interrupted" // the answer broke off; what arrived is kept
	NoticeConfig      = "config"      // a configuration problem (a bad VIKA_* value) affects the answer
	NoticeTruncated   = "truncated"   // the answer reached its output-token cap or the cap on its length
	NoticeRetry       = "retry"       // a model failed before its first token; it is asked again after a wait
)

// Plan is the router's decision: the models to try, in order.
type Plan struct {
	Mode       string     `json:"mode"` // "auto" or "manual"
	Complexity Complexity `json:"complexity"`
	Complex    bool       `json:"complex"`
	Threshold  float64    `json:"threshold"`
	Order      []Model    `json:"order"` // the chosen model first, then the fallbacks
	Notices    []Notice   `json:"notices,omitempty"`
}

// routeLLMRouters are RouteLLM's learned routers: they need their trained
// weights (and, for some, an embedding API), so none runs offline here.
var routeLLMRouters = []string{"bert", "sw_ranking", "mf", "causal_llm", "random"}

// Router orders the available models for a question.
type Router struct {
	Threshold   float64 // complex when the score is at least this
	Strategy    string  // VIKA_ROUTELLM_ROUTER; "" or "heuristic" for the heuristic
	PreferLocal bool

	once sync.Once // guards the one-time router notice
}

// NewRouter returns the router that cfg describes.
func NewRouter(cfg Config) *Router {
	return &Router{Threshold: cfg.Threshold, Strategy: cfg.Router, PreferLocal: cfg.PreferLocal}
}

// Plan scores q and orders the available models: simple questions try the
// lightest, cheapest models first; complex ones the most capable first.
// A manual choice (q.Model) goes first when it is available; when it is
// not, a notice says why and the automatic order is used.
func (r *Router) Plan(q Query, models []ModelStatus) (Plan, error) {
	p := Plan{Mode: "auto", Complexity: Score(q), Threshold: r.Threshold}
	p.Complex = p.Complexity.Score >= r.Threshold
	p.Notices = r.strategyNotice()

	var avail []Model
	for _, m := range models {
		if m.Available {
			avail = append(avail, m.Model)
		}
	}
	ordered := orderModels(avail, p.Complex, r.PreferLocal)
	if q.Vision {
		ordered = visionFirst(ordered, r.PreferLocal)
	}

	if q.Model != "" {
		p.Mode = "manual"
		i := slices.IndexFunc(models, func(m ModelStatus) bool { return m.Key() == q.Model })
		switch {
		case i < 0:
			return p, fmt.Errorf("%w: %q is not in the catalogue nor pulled into Ollama", ErrModelNotFound, q.Model)
		case models[i].Available:
			chosen := models[i].Model
			ordered = append([]Model{chosen}, slices.DeleteFunc(ordered, func(m Model) bool { return m.Key() == chosen.Key() })...)
		default:
			n := Notice{Kind: NoticeSkipped, Model: q.Model, Reason: models[i].Reason,
				Alternatives: keys(ordered)}
			next := ""
			if len(ordered) > 0 {
				n.Next, next = ordered[0].Key(), ordered[0].Name
			}
			p.Notices = append(p.Notices, n.Say(message.NoticeSkipped, "model", models[i].Name, "next", next, "detail", models[i].Reason))
		}
	}
	if len(ordered) == 0 {
		return p, noModelError(models)
	}
	p.Order = ordered
	return p, nil
}

// PlanLight orders the available models for an auxiliary request: the
// order of a simple question (lightest tier, then cheapest), with no
// complexity score and no manual choice.
func (r *Router) PlanLight(models []ModelStatus) (Plan, error) {
	p := Plan{Mode: "auto", Threshold: r.Threshold}
	var avail []Model
	for _, m := range models {
		if m.Available {
			avail = append(avail, m.Model)
		}
	}
	if len(avail) == 0 {
		return p, noModelError(models)
	}
	p.Order = orderModels(avail, false, r.PreferLocal)
	return p, nil
}

func (r *Router) strategyNotice() []Notice {
	s := r.Strategy
	if s == "" || s == "heuristic" {
		return nil
	}
	var out []Notice
	r.once.Do(func() {
		code := message.NoticeRouter
		if !slices.Contains(routeLLMRouters, s) {
			code = message.NoticeRouterUnknown
		}
		out = []Notice{Notice{Kind: NoticeRouter, Reason: s}.Say(code, "router", s)}
	})
	return out
}

// orderModels sorts a copy of models. Simple questions: tier ascending,
// then cost ascending, then catalogue order. Complex questions: tier
// descending, then catalogue order (most capable first within a tier), then
// cost. Local models come after cloud ones unless preferLocal.
func orderModels(models []Model, complex, preferLocal bool) []Model {
	out := slices.Clone(models)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Local != b.Local {
			return a.Local == preferLocal
		}
		if a.Tier != b.Tier {
			return (a.Tier < b.Tier) != complex
		}
		if !complex && a.Cost != b.Cost {
			return a.Cost < b.Cost
		}
		return false // stable: catalogue order
	})
	return out
}

// visionFirst moves the vision-capable models of an ordered list before
// the others, keeping the order within each group; with preferLocal the
// local models stay first, vision-capable ones first among them.
func visionFirst(models []Model, preferLocal bool) []Model {
	out := slices.Clone(models)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if preferLocal && a.Local != b.Local {
			return a.Local
		}
		return a.Vision && !b.Vision
	})
	return out
}

func noModelError(models []ModelStatus) error {
	var why []string
	keyring := false
	for _, m := range models {
		if m.Reason != "" {
			why = append(why, m.Name+": "+m.Reason)
		}
		keyring = keyring || m.Reason == reasonKeyring
	}
	msg := "no model is available: add an API key (Gemini, Mistral, Groq or OpenRouter) in Settings, or start Ollama"
	if len(why) > 0 && len(why) <= 4 {
		msg += " (" + strings.Join(why, "; ") + ")"
	}
	if keyring {
		msg += "; the system keyring could not be read (locked, not answering, or no D-Bus session), so only keys set as environment variables count"
	}
	return fmt.Errorf("%w: %s", ErrNoModel, msg)
}

func keys(models []Model) []string {
	out := make([]string, len(models))
	for i, m := range models {
		out[i] = m.Key()
	}
	return out
}
