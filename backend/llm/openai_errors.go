package llm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// errorBody is the common part of the error bodies of OpenAI-compatible
// providers, which come in several shapes:
//
//	{"error":{"message":"...","type":"tokens","code":"rate_limit_exceeded"}}   Groq (and OpenAI)
//	{"error":{"code":402,"message":"...","metadata":{...}},"user_id":"..."}    OpenRouter
//	{"object":"error","message":"...","type":"rate_limited","param":null,"code":"1300"}  Mistral
//	{"message":"Requests rate limit exceeded"}                                 Mistral's gateway
//	{"detail":"Unauthorized"}                                                  Mistral, FastAPI style
//
// and sometimes plain text or an HTML page from a proxy.
type errorBody struct {
	Message  string
	Code     string // the code as text: "rate_limit_exceeded", "1300", "429"
	NumCode  int    // a numeric code (OpenRouter's error.code), 0 if none
	Type     string
	Metadata map[string]any
}

func parseErrorBody(body []byte) errorBody {
	var b errorBody
	var top map[string]any
	if json.Unmarshal(body, &top) != nil {
		text := strings.TrimSpace(string(body))
		if strings.HasPrefix(text, "<") { // an HTML error page
			text = ""
		}
		b.Message = text
		return b
	}
	obj := top
	switch e := top["error"].(type) {
	case map[string]any:
		obj = e
	case string:
		b.Message = e
		return b
	}
	b.Message, _ = obj["message"].(string)
	b.Type, _ = obj["type"].(string)
	switch c := obj["code"].(type) {
	case string:
		b.Code = c
	case float64:
		b.NumCode = int(c)
		b.Code = strconv.Itoa(int(c))
	}
	b.Metadata, _ = obj["metadata"].(map[string]any)
	if b.Message == "" {
		switch d := top["detail"].(type) {
		case string:
			b.Message = d
		case []any: // FastAPI validation errors
			if len(d) > 0 {
				if m, ok := d[0].(map[string]any); ok {
					b.Message, _ = m["msg"].(string)
				}
			}
		}
	}
	return b
}

// openAIError classifies an error of an OpenAI-compatible provider from its
// HTTP status (0 for an error event inside a 200 stream), headers and body.
func openAIError(provider, model string, status int, h http.Header, body []byte, key string, now time.Time) *ProviderError {
	b := parseErrorBody(body)
	pe := &ProviderError{Provider: provider, Model: model, Status: status, Message: redact(b.Message, key)}
	pe.Code = b.Code
	if pe.Code == "" {
		pe.Code = b.Type
	}
	if pe.Message == "" && status != 0 {
		pe.Message = http.StatusText(status)
	}
	switch {
	case status != 0:
		pe.Kind = statusKind(status)
	case b.NumCode >= 400:
		pe.Kind = statusKind(b.NumCode)
	default:
		pe.Kind = ErrUnavailable // an error the provider met while answering
	}
	text := b.Message + " " + b.Code + " " + b.Type
	pe.Kind = textKind(pe.Kind, text)

	switch provider {
	case "groq":
		refineGroq(pe, b)
	case "mistral":
		refineMistral(pe, b)
	case "openrouter":
		refineOpenRouter(pe, b, now)
	}
	if h != nil {
		if d := retryAfter(h, now); d > 0 {
			pe.RetryAfter = d
		}
	}
	if pe.RetryAfter == 0 && (pe.Kind == ErrRateLimited || pe.Kind == ErrQuota) {
		pe.RetryAfter = retryInMessage(b.Message)
	}
	if pe.Kind == ErrAuth || (pe.Kind == ErrQuota && status == http.StatusPaymentRequired) {
		pe.ProviderWide = true
	}
	pe.Message = redact(pe.Message, key)
	return pe
}

// refineGroq reads Groq's codes: rate_limit_exceeded (429, and 413 "Request
// too large ... on tokens per minute"), with "tokens per day (TPD)" or
// "requests per day (RPD)" meaning the day's quota is spent;
// invalid_api_key; model_not_found / model_decommissioned; and 498
// capacity_exceeded for the flex tier.
func refineGroq(pe *ProviderError, b errorBody) {
	switch b.Code {
	case "rate_limit_exceeded":
		pe.Kind = ErrRateLimited
		if strings.Contains(b.Message, "per day") {
			pe.Kind = ErrQuota
		}
	case "invalid_api_key":
		pe.Kind = ErrAuth
	case "model_not_found", "model_decommissioned":
		pe.Kind = ErrModelNotFound
	case "capacity_exceeded":
		pe.Kind = ErrUnavailable
	}
}

// refineMistral reads Mistral's bodies: type "rate_limited" (code "1300")
// and the gateway's "Requests rate limit exceeded" are rate limits; "Service
// tier capacity exceeded for this model." (type
// service_tier_capacity_exceeded, code "3505", sent with 429) is a
// temporary unavailability; {"message":"Unauthorized"} a rejected key.
func refineMistral(pe *ProviderError, b errorBody) {
	msg := strings.ToLower(b.Message)
	switch {
	case strings.Contains(msg, "capacity") || b.Type == "service_tier_capacity_exceeded" || b.Code == "3505":
		pe.Kind = ErrUnavailable
	case b.Type == "rate_limited" || b.Code == "1300":
		pe.Kind = ErrRateLimited
	case msg == "unauthorized":
		pe.Kind = ErrAuth
	}
}

// refineOpenRouter reads OpenRouter's errors: 402 when credits cannot cover
// the request; 403 when a moderation check flagged the input (metadata
// reasons) — a rejected key is 401; 429 either OpenRouter's own limit
// ("Rate limit exceeded: free-models-per-day", a daily quota) or the
// upstream provider's ("... is temporarily rate-limited upstream"), with
// metadata.headers.X-RateLimit-Reset in epoch milliseconds; 502/503 when
// the model or every provider of it is down.
func refineOpenRouter(pe *ProviderError, b errorBody, now time.Time) {
	msg := strings.ToLower(b.Message)
	switch {
	case pe.Status == http.StatusForbidden || b.NumCode == http.StatusForbidden:
		if b.Metadata["reasons"] != nil || strings.Contains(msg, "moderation") || strings.Contains(msg, "flagged") {
			pe.Kind = ErrBlocked
		}
	case pe.Kind == ErrRateLimited && strings.Contains(msg, "per-day"):
		pe.Kind = ErrQuota
	}
	if raw, ok := b.Metadata["raw"].(string); ok && raw != "" && !strings.HasPrefix(strings.TrimSpace(raw), "{") {
		pe.Message += ": " + raw // the upstream provider's words
	}
	if p, ok := b.Metadata["provider_name"].(string); ok && p != "" && !strings.Contains(pe.Message, p) {
		pe.Message = fmt.Sprintf("%s (upstream: %s)", pe.Message, p)
	}
	if hs, ok := b.Metadata["headers"].(map[string]any); ok {
		if reset, ok := hs["X-RateLimit-Reset"].(string); ok {
			if ms, err := strconv.ParseInt(reset, 10, 64); err == nil {
				if d := time.UnixMilli(ms).Sub(now); d > 0 {
					pe.RetryAfter = d
				}
			}
		}
	}
}
