package message

import (
	"strconv"
	"strings"
)

// Notice codes: what the student should know about how an answer was made.
// The parameters marked "English only" add detail to the command line's
// text; the window does without them.
const (
	// detail: why no model is available (English only)
	NoticeNoModel = "notice.no_model"
	// model, next ("" when none); detail: why it cannot be used (English only)
	NoticeSkipped = "notice.skipped"
	// model, reason, next ("" when none), later (the names of the models
	// still to try after next, a list; absent when none); status, retry
	// (English only): the HTTP status, the wait the provider asked for
	NoticeFallback = "notice.fallback"
	// model, reason, seconds (the wait before the same model is asked
	// again); status, retry (English only)
	NoticeRetry = "notice.retry"
	// model, reason; status, retry (English only)
	NoticeInterrupted   = "notice.interrupted"
	NoticeRouter        = "notice.router"         // router: not available offline
	NoticeRouterUnknown = "notice.router_unknown" // router: no such router
	NoticeConfig        = "notice.config"         // detail: the bad VIKA_* setting
	NoticeCutBytes      = "notice.cut_bytes"      // model, kb
	NoticeCutTokens     = "notice.cut_tokens"     // model, tokens
	NoticeExpandSkipped = "notice.expand_skipped" // step ("HyDE", "multi-query"), reason
	// NoticeImagesWithheld: the tables' and figures' crops were not sent,
	// because the model that answered reads no images. model, count.
	NoticeImagesWithheld = "notice.images_withheld"
)

// attempts are the English phrases of how a model failed, in an
// Exhausted's list ("Gemini was rate limited").
var attempts = map[string]string{
	"rate_limited":    "was rate limited",
	"quota":           "has used up its quota",
	"unavailable":     "was unavailable",
	"auth":            "rejected the API key",
	"timeout":         "did not answer in time",
	"stream":          "broke off",
	"bad_response":    "sent a malformed answer",
	"model_not_found": "does not exist at the provider",
	"bad_request":     "rejected the request",
	"blocked":         "blocked the request (content filter)",
	"no_key":          "has no API key",
}

func attempt(kind string) string {
	if a, ok := attempts[kind]; ok {
		return a
	}
	return "failed"
}

// then says which model is tried next, if any, and the ones after it.
func then(p Params) string {
	n := str(p, "next")
	switch {
	case n == "":
		return " No other model is available."
	case str(p, "later") != "":
		return " Trying " + n + "; then " + str(p, "later") + "."
	}
	return " Trying " + n + "."
}

// because is why a model failed: the phrase of its kind, with the HTTP
// status and the wait the provider asked for when they are known.
func because(p Params) string {
	s := reason(str(p, "reason"))
	if st := str(p, "status"); st != "" && st != "0" {
		s += " (" + st + ")"
	}
	if r := str(p, "retry"); r != "" {
		s += ", retry in " + r
	}
	return s
}

// sentence capitalises s and ends it with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

func init() {
	notices := map[string]func(Params) string{
		NoticeNoModel: func(p Params) string {
			if d := str(p, "detail"); d != "" {
				return sentence(d) + " The best passages are quoted instead of a written answer."
			}
			return "No model is available: the best passages are quoted instead of a written answer. Add an API key (Gemini, Mistral, Groq or OpenRouter) in Settings."
		},
		NoticeSkipped: func(p Params) string {
			s := str(p, "model") + " cannot be used now"
			if d := str(p, "detail"); d != "" {
				s += " (" + d + ")"
			}
			if n := str(p, "next"); n != "" {
				return s + ". Using " + n + " instead."
			}
			return s + ". No other model is available."
		},
		NoticeFallback: func(p Params) string {
			return str(p, "model") + " is unavailable (" + because(p) + ")." + then(p)
		},
		NoticeRetry: func(p Params) string {
			return str(p, "model") + " did not answer (" + because(p) + "); asking it again in " + str(p, "seconds") + " s."
		},
		NoticeInterrupted: func(p Params) string {
			return "The answer from " + str(p, "model") + " broke off (" + because(p) + "); what arrived is kept."
		},
		NoticeRouter: func(p Params) string {
			return "Router " + strconv.Quote(str(p, "router")) + " is not available offline; using the heuristic complexity router."
		},
		NoticeRouterUnknown: func(p Params) string {
			return "Router " + strconv.Quote(str(p, "router")) + " is unknown; using the heuristic complexity router."
		},
		NoticeConfig: func(p Params) string { return "Configuration problem: " + str(p, "detail") },
		NoticeCutBytes: func(p Params) string {
			return "The answer from " + str(p, "model") + " was cut at " + str(p, "kb") + " KB; what arrived is kept."
		},
		NoticeCutTokens: func(p Params) string {
			return "The answer from " + str(p, "model") + " reached its cap of " + str(p, "tokens") + " output tokens and ends there."
		},
		NoticeExpandSkipped: func(p Params) string {
			return str(p, "step") + " was skipped (" + reason(str(p, "reason")) + "): the question was searched as asked."
		},
		NoticeImagesWithheld: func(p Params) string {
			return str(p, "model") + " reads no images: it answered from the text of the tables and figures (" +
				str(p, "count") + " not shown to it). Pick a vision model (Gemini, Pixtral, Mistral Small) to have them looked at."
		},
	}
	for code, f := range notices {
		english[code] = f
	}
}
