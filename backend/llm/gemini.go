package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"time"

	"google.golang.org/genai"
)

// gemini streams from the Gemini API with Google's SDK
// (google.golang.org/genai), which posts to
// {base}/v1beta/models/{model}:streamGenerateContent?alt=sse with the key in
// the x-goog-api-key header and reads the SSE stream of
// GenerateContentResponse objects.
type gemini struct {
	name    string
	baseURL string
	key     string
	http    *http.Client
}

func (g *gemini) Name() string { return g.name }

func (g *gemini) Stream(ctx context.Context, req Request, fn func(Delta) error) (Usage, error) {
	var usage Usage
	client, err := genai.NewClient(ctx, &genai.ClientConfig{
		APIKey:      g.key,
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  g.http,
		HTTPOptions: genai.HTTPOptions{BaseURL: g.baseURL, APIVersion: "v1beta"},
	})
	if err != nil {
		// genai's configuration errors print the whole ClientConfig, key
		// included: never pass their text on.
		return usage, &ProviderError{Provider: g.name, Model: req.Model, Kind: ErrBadRequest,
			Message: "could not configure the Gemini client"}
	}
	cfg := &genai.GenerateContentConfig{}
	if req.System != "" {
		cfg.SystemInstruction = &genai.Content{Parts: []*genai.Part{{Text: req.System}}}
	}
	if req.Temperature != nil {
		t := float32(*req.Temperature)
		cfg.Temperature = &t
	}
	if req.MaxTokens > 0 {
		cfg.MaxOutputTokens = int32(req.MaxTokens)
	}
	contents := make([]*genai.Content, 0, len(req.Messages))
	for _, m := range req.Messages {
		role := genai.RoleUser
		if m.Role == RoleAssistant {
			role = genai.RoleModel
		}
		parts := []*genai.Part{genai.NewPartFromText(m.Content)}
		for _, im := range m.Images {
			if im.Label != "" {
				parts = append(parts, genai.NewPartFromText(im.Label))
			}
			parts = append(parts, genai.NewPartFromBytes(im.Data, im.MIME))
		}
		contents = append(contents, genai.NewContentFromParts(parts, genai.Role(role)))
	}

	for resp, err := range client.Models.GenerateContentStream(ctx, req.Model, contents, cfg) {
		if err != nil {
			return usage, g.classify(ctx, req.Model, err)
		}
		if u := resp.UsageMetadata; u != nil {
			usage.InputTokens = int(u.PromptTokenCount)
			usage.OutputTokens = int(u.CandidatesTokenCount + u.ThoughtsTokenCount)
		}
		if pf := resp.PromptFeedback; pf != nil && pf.BlockReason != "" {
			return usage, &ProviderError{Provider: g.name, Model: req.Model, Kind: ErrBlocked,
				Code: string(pf.BlockReason), Message: redact(pf.BlockReasonMessage, g.key)}
		}
		if len(resp.Candidates) == 0 {
			if err := fn(Delta{}); err != nil {
				return usage, err
			}
			continue
		}
		c := resp.Candidates[0]
		text := ""
		if c.Content != nil {
			for _, p := range c.Content.Parts {
				if p != nil && !p.Thought {
					text += p.Text
				}
			}
		}
		if err := fn(Delta{Text: text}); err != nil {
			return usage, err
		}
		if c.FinishReason != "" {
			usage.StopReason = strings.ToLower(string(c.FinishReason))
		}
	}
	if usage.StopReason == "" {
		return usage, &ProviderError{Provider: g.name, Model: req.Model, Kind: ErrStream,
			Message: "the stream ended before the answer was complete"}
	}
	switch usage.StopReason {
	case "safety", "prohibited_content", "blocklist", "spii", "recitation":
		return usage, &ProviderError{Provider: g.name, Model: req.Model, Kind: ErrBlocked,
			Code: strings.ToUpper(usage.StopReason), Message: "the answer was stopped by Gemini's content filter"}
	}
	return usage, nil
}

// classify turns an error of the genai iterator into a *ProviderError.
// HTTP errors and errors sent inside the stream arrive as genai.APIError
// ({"error":{"code":429,"message":...,"status":"RESOURCE_EXHAUSTED",
// "details":[...]}}); a chunk that is not JSON as a wrapped
// *json.SyntaxError or an "invalid stream chunk" error; a broken connection
// as the transport's error.
func (g *gemini) classify(ctx context.Context, model string, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	var apiErr genai.APIError
	if errors.As(err, &apiErr) {
		return geminiAPIError(g.name, model, apiErr, g.key)
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syn) || errors.As(err, &typ) || strings.Contains(err.Error(), "invalid stream chunk") {
		return &ProviderError{Provider: g.name, Model: model, Kind: ErrBadResponse,
			Message: "Gemini sent a chunk that is not valid JSON", cause: err}
	}
	return transportError(ctx, g.name, model, err)
}

// geminiAPIError maps a Gemini error object. 429 RESOURCE_EXHAUSTED is a
// quota when a violated quota is counted per day, else a rate limit; 400
// with reason API_KEY_INVALID is a rejected key; 503 UNAVAILABLE ("The model
// is overloaded") and 500 INTERNAL are temporary.
func geminiAPIError(provider, model string, e genai.APIError, key string) *ProviderError {
	pe := &ProviderError{Provider: provider, Model: model, Status: e.Code, Code: e.Status,
		Message: redact(e.Message, key)}
	if strings.ContainsRune(e.Status, ' ') { // "502 Bad Gateway": a non-JSON body, not a google.rpc status
		pe.Code = ""
	}
	pe.Kind = statusKind(e.Code)
	reasons, quotaIDs, delay := geminiDetails(e.Details)
	switch {
	case e.Status == "RESOURCE_EXHAUSTED" || e.Code == http.StatusTooManyRequests:
		pe.Kind = ErrRateLimited
		for _, id := range quotaIDs {
			if strings.Contains(id, "PerDay") {
				pe.Kind = ErrQuota
			}
		}
	case e.Status == "UNAVAILABLE" || e.Status == "INTERNAL" || e.Status == "DEADLINE_EXCEEDED":
		pe.Kind = ErrUnavailable
	case e.Status == "UNAUTHENTICATED" || e.Status == "PERMISSION_DENIED":
		pe.Kind = ErrAuth
	case e.Status == "NOT_FOUND":
		pe.Kind = ErrModelNotFound
	}
	for _, r := range reasons {
		if r == "API_KEY_INVALID" || r == "API_KEY_SERVICE_BLOCKED" {
			pe.Kind = ErrAuth
			pe.ProviderWide = true
		}
	}
	if pe.Kind == ErrAuth {
		pe.ProviderWide = true
	}
	pe.RetryAfter = delay
	if pe.RetryAfter == 0 {
		pe.RetryAfter = retryInMessage(e.Message)
	}
	return pe
}

// geminiDetails reads the google.rpc detail objects: ErrorInfo reasons,
// QuotaFailure quota ids, and RetryInfo's retryDelay ("43s").
func geminiDetails(details []map[string]any) (reasons, quotaIDs []string, delay time.Duration) {
	for _, d := range details {
		switch d["@type"] {
		case "type.googleapis.com/google.rpc.ErrorInfo":
			if r, ok := d["reason"].(string); ok {
				reasons = append(reasons, r)
			}
		case "type.googleapis.com/google.rpc.QuotaFailure":
			vs, _ := d["violations"].([]any)
			for _, v := range vs {
				if m, ok := v.(map[string]any); ok {
					if id, ok := m["quotaId"].(string); ok {
						quotaIDs = append(quotaIDs, id)
					}
				}
			}
		case "type.googleapis.com/google.rpc.RetryInfo":
			if s, ok := d["retryDelay"].(string); ok {
				if dur, err := time.ParseDuration(s); err == nil {
					delay = dur
				}
			}
		}
	}
	return reasons, quotaIDs, delay
}

var retryInRe = regexp.MustCompile(`(?i)(?:retry|try again) in ((?:[0-9]+h)?(?:[0-9]+m)?[0-9]+(?:\.[0-9]+)?s)`)

// retryInMessage reads "Please retry in 20.04s." (Gemini) or "Please try
// again in 9m38.016s." (Groq) from a message.
func retryInMessage(msg string) time.Duration {
	m := retryInRe.FindStringSubmatch(msg)
	if m == nil {
		return 0
	}
	d, err := time.ParseDuration(m[1])
	if err != nil {
		return 0
	}
	return d
}
