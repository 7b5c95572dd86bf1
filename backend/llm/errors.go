package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Kinds of failure. A *ProviderError wraps exactly one of them; callers use
// errors.Is.
var (
	ErrRateLimited = errors.New("rate limited")
	ErrQuota       = errors.New("quota or credits exhausted")
	ErrUnavailable = errors.New("temporarily unavailable")
	ErrAuth        = errors.New("API key rejected")
	ErrTimeout     = errors.New("timed out")
	ErrStream      = errors.New("stream interrupted")
	ErrBadResponse = errors.New("malformed response")
	// ErrUnformatted is a reply that arrived whole but that the caller's
	// Sink.Accept refused: it does not follow the format the request
	// asked for (a study guide's SUMMARY:/TERM:/Q: lines). The next model
	// is asked; the model is not marked unavailable.
	ErrUnformatted   = errors.New("reply not in the format asked for")
	ErrModelNotFound = errors.New("model not found")
	ErrBadRequest    = errors.New("request rejected")
	ErrBlocked       = errors.New("blocked by the provider's content filter")
	ErrNoKey         = errors.New("no API key configured")
	ErrNoModel       = errors.New("no model available")
)

var kindNames = []struct {
	err  error
	name string
}{
	{ErrRateLimited, "rate_limited"},
	{ErrQuota, "quota"},
	{ErrUnavailable, "unavailable"},
	{ErrAuth, "auth"},
	{ErrTimeout, "timeout"},
	{ErrStream, "stream"},
	{ErrBadResponse, "bad_response"},
	{ErrUnformatted, "unformatted"},
	{ErrModelNotFound, "model_not_found"},
	{ErrBadRequest, "bad_request"},
	{ErrBlocked, "blocked"},
	{ErrNoKey, "no_key"},
	{ErrNoModel, "no_model"},
}

// KindOf names the kind of err for data (events, the session record):
// "rate_limited", "quota", "unavailable", "auth", "timeout", "stream",
// "bad_response", "unformatted", "model_not_found", "bad_request",
// "blocked", "no_key", "no_model", "canceled", or "error" for anything
// else.
func KindOf(err error) string {
	if err == nil {
		return ""
	}
	var se *StreamError
	if errors.As(err, &se) {
		return "stream"
	}
	var ee *ExhaustedError
	if errors.As(err, &ee) {
		return "no_model"
	}
	for _, k := range kindNames {
		if errors.Is(err, k.err) {
			return k.name
		}
	}
	if errors.Is(err, context.Canceled) {
		return "canceled"
	}
	return "error"
}

// UnavailableError is a model that cannot be used now (Service.AskWith):
// Why is the kind of reason (ModelStatus.Why: "rate_limited" while a 429
// holds, "no_key", ...), Reason says it in English. It wraps ErrNoModel.
type UnavailableError struct {
	Model, Why, Reason string
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("%v: %s cannot be used now (%s)", ErrNoModel, e.Model, e.Reason)
}

func (e *UnavailableError) Unwrap() error { return ErrNoModel }

// ProviderError is a failure reported by (or while talking to) a provider.
// Its Error text is safe to show: the provider's message is redacted of the
// API key, stripped of control characters and shortened.
type ProviderError struct {
	Provider   string        `json:"provider"`
	Model      string        `json:"model"`
	Kind       error         `json:"-"`
	Status     int           `json:"status,omitempty"` // HTTP status, 0 when there was none
	Code       string        `json:"code,omitempty"`   // the provider's error code or status, e.g. RESOURCE_EXHAUSTED
	Message    string        `json:"message,omitempty"`
	RetryAfter time.Duration `json:"retry_after,omitempty"` // as the provider advised; 0 when it did not
	// ProviderWide is set when the failure concerns every model of the
	// provider (a rejected key, exhausted account credits).
	ProviderWide bool `json:"provider_wide,omitempty"`
	cause        error
}

func (e *ProviderError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %v", e.Provider, e.Model, e.Kind)
	switch {
	case e.Status != 0 && e.Code != "":
		fmt.Fprintf(&b, " (%d %s)", e.Status, e.Code)
	case e.Status != 0:
		fmt.Fprintf(&b, " (%d)", e.Status)
	case e.Code != "":
		fmt.Fprintf(&b, " (%s)", e.Code)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry in %s)", e.RetryAfter.Round(time.Second))
	}
	return b.String()
}

// Unwrap exposes the kind and the underlying cause to errors.Is and As.
func (e *ProviderError) Unwrap() []error {
	if e.cause != nil {
		return []error{e.Kind, e.cause}
	}
	return []error{e.Kind}
}

// Reason is a short, safe phrase for notices: "rate limited (429)".
func (e *ProviderError) Reason() string {
	s := e.Kind.Error()
	if e.Status != 0 {
		s += fmt.Sprintf(" (%d)", e.Status)
	}
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(", retry in %s", e.RetryAfter.Round(time.Second))
	}
	return s
}

// maxMessage bounds the provider message kept in a ProviderError.
const maxMessage = 400

// redact makes a provider message safe to show: every secret is replaced,
// control characters become spaces, and the text is shortened.
func redact(msg string, secrets ...string) string {
	for _, s := range secrets {
		if len(s) >= 4 {
			msg = strings.ReplaceAll(msg, s, "[redacted]")
		}
	}
	msg = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, msg)
	msg = strings.Join(strings.Fields(msg), " ")
	if r := []rune(msg); len(r) > maxMessage {
		msg = string(r[:maxMessage]) + "…"
	}
	return msg
}

// statusKind is the kind of an HTTP error status, before a provider refines
// it from the body.
func statusKind(status int) error {
	switch {
	case status == http.StatusUnauthorized, status == http.StatusForbidden:
		return ErrAuth
	case status == http.StatusPaymentRequired:
		return ErrQuota
	case status == http.StatusNotFound:
		return ErrModelNotFound
	case status == http.StatusTooManyRequests:
		return ErrRateLimited
	case status == http.StatusRequestTimeout, status == 498, status == 499, status >= 500:
		return ErrUnavailable
	default:
		return ErrBadRequest
	}
}

// textKind refines a rate-limit or availability kind from the provider's
// words: a daily or monthly limit, or exhausted credits, is a quota; a
// capacity or overload message is a temporary unavailability.
func textKind(kind error, text string) error {
	t := strings.ToLower(text)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(t, w) {
				return true
			}
		}
		return false
	}
	switch {
	case kind != ErrRateLimited && kind != ErrUnavailable && kind != ErrBadRequest:
		return kind
	case has("credit", "billing", "insufficient_quota", "insufficient balance", "insufficient funds", "usage limit",
		"monthly", "per day", "per-day", "(tpd)", "(rpd)", "daily", "spend limit", "payment required"):
		return ErrQuota
	case has("capacity", "overloaded", "temporarily unavailable"):
		return ErrUnavailable
	case kind == ErrBadRequest && has("rate limit", "rate_limit"):
		return ErrRateLimited // Groq's 413 "Request too large ... tokens per minute (TPM)"
	}
	return kind
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// transportError classifies an error that came from the HTTP client or from
// reading a response body. Errors of the request itself (*url.Error: DNS,
// refused connection, TLS, a connection closed before the response) mean the
// provider could not be reached; errors while reading the body mean the
// stream broke.
func transportError(ctx context.Context, provider, model string, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if pe := peerError(provider, model, err); pe != nil {
		return pe
	}
	pe := &ProviderError{Provider: provider, Model: model, cause: err}
	var ue *url.Error
	var ne net.Error
	switch {
	case errors.As(err, &ue):
		pe.Kind = ErrUnavailable
		pe.Message = "could not reach " + hostOf(ue.URL)
		if errors.As(err, &ne) && ne.Timeout() {
			pe.Kind = ErrTimeout
			pe.Message = "connecting to " + hostOf(ue.URL) + " timed out"
		}
	case errors.As(err, &ne) && ne.Timeout():
		pe.Kind = ErrTimeout
		pe.Message = "reading the answer timed out"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		pe.Kind = ErrStream
		pe.Message = "the connection closed in the middle of the answer"
	default:
		pe.Kind = ErrStream
		pe.Message = "the connection failed in the middle of the answer"
	}
	return pe
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "the provider"
	}
	return u.Host
}
