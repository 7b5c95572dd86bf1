package llm

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Gemini's wire format, as streamGenerateContent?alt=sse sends it: one
// GenerateContentResponse per event, events separated by CRLF CRLF.
const (
	geminiChunk1  = `{"candidates": [{"content": {"parts": [{"text": "2-SAT is"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 31,"totalTokenCount": 31,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 31}]},"modelVersion": "gemini-2.5-flash","responseId": "mHhaaPXhAaaWxN8Pz4jYuQ0"}`
	geminiChunk2  = `{"candidates": [{"content": {"parts": [{"text": " solvable in linear time."}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 31,"candidatesTokenCount": 9,"totalTokenCount": 95,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 31}],"thoughtsTokenCount": 55},"modelVersion": "gemini-2.5-flash","responseId": "mHhaaPXhAaaWxN8Pz4jYuQ0"}`
	geminiThought = `{"candidates": [{"content": {"parts": [{"text": "**Considering 2-SAT**","thought": true}],"role": "model"},"index": 0}],"modelVersion": "gemini-2.5-flash"}`

	geminiRateLimit = `{
  "error": {
    "code": 429,
    "message": "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.",
    "status": "RESOURCE_EXHAUSTED",
    "details": [
      {
        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
        "violations": [
          {
            "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
            "quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier",
            "quotaDimensions": {"location": "global", "model": "gemini-2.5-flash"},
            "quotaValue": "10"
          }
        ]
      },
      {
        "@type": "type.googleapis.com/google.rpc.Help",
        "links": [{"description": "Learn more about Gemini API quotas", "url": "https://ai.google.dev/gemini-api/docs/rate-limits"}]
      },
      {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "43s"}
    ]
  }
}`
	geminiDailyQuota = `{
  "error": {
    "code": 429,
    "message": "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 250, model: gemini-2.5-flash\nPlease retry in 20.04466179s.",
    "status": "RESOURCE_EXHAUSTED",
    "details": [
      {
        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
        "violations": [
          {
            "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
            "quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
            "quotaDimensions": {"model": "gemini-2.5-flash", "location": "global"},
            "quotaValue": "250"
          }
        ]
      }
    ]
  }
}`
	geminiBadKey = `{
  "error": {
    "code": 400,
    "message": "API key not valid. Please pass a valid API key.",
    "status": "INVALID_ARGUMENT",
    "details": [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": "API_KEY_INVALID",
        "domain": "googleapis.com",
        "metadata": {"service": "generativelanguage.googleapis.com"}
      }
    ]
  }
}`
	geminiOverloaded = `{
  "error": {
    "code": 503,
    "message": "The model is overloaded. Please try again later.",
    "status": "UNAVAILABLE"
  }
}`
	geminiNotFound = `{
  "error": {
    "code": 404,
    "message": "models/gemini-9 is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.",
    "status": "NOT_FOUND"
  }
}`
	geminiStreamError = `{"error": {"code": 500, "message": "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting", "status": "INTERNAL"}}`
	geminiBlocked     = `{"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},"usageMetadata": {"promptTokenCount": 12,"totalTokenCount": 12},"modelVersion": "gemini-2.5-flash"}`
)

const geminiKey = "AIzaSyFAKE-test-key-0123456789"

func geminiFake(t *testing.T, rep reply) (*fakeServer, Provider) {
	f := newFakeServer(t, "text/event-stream", func(recorded) reply { return rep })
	return f, &gemini{name: "gemini", baseURL: f.URL + "/", key: geminiKey, http: NewHTTPClient(2 * time.Second)}
}

func TestGeminiStream(t *testing.T) {
	f, p := geminiFake(t, reply{Chunks: sse("\r\n\r\n", geminiThought, geminiChunk1, geminiChunk2)})
	got := collect(t, p, testRequest, 0)
	if got.err != nil {
		t.Fatal(got.err)
	}
	if got.text != "2-SAT is solvable in linear time." {
		t.Errorf("text = %q", got.text)
	}
	if diff := cmp.Diff(Usage{InputTokens: 31, OutputTokens: 64, StopReason: "stop"}, got.usage); diff != "" {
		t.Errorf("usage (-want +got):\n%s", diff)
	}
	req := f.Last()
	if req.Path != "/v1beta/models/m:streamGenerateContent" || req.Query != "alt=sse" {
		t.Errorf("request to %s?%s", req.Path, req.Query)
	}
	if req.Header.Get("x-goog-api-key") != geminiKey {
		t.Errorf("x-goog-api-key header = %q", req.Header.Get("x-goog-api-key"))
	}
	if strings.Contains(req.Query, geminiKey) {
		t.Error("the key is in the URL")
	}
	var body struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				Text string `json:"text"`
			} `json:"parts"`
		} `json:"contents"`
		SystemInstruction struct {
			Parts []struct {
				Text string `json:"text"`
			} `json:"parts"`
		} `json:"systemInstruction"`
		GenerationConfig struct {
			Temperature     float64 `json:"temperature"`
			MaxOutputTokens int     `json:"maxOutputTokens"`
		} `json:"generationConfig"`
	}
	if err := json.Unmarshal([]byte(req.Body), &body); err != nil {
		t.Fatalf("request body: %v\n%s", err, req.Body)
	}
	var roles []string
	for _, c := range body.Contents {
		roles = append(roles, c.Role)
	}
	if diff := cmp.Diff([]string{"user", "model", "user"}, roles); diff != "" {
		t.Errorf("roles (-want +got):\n%s", diff)
	}
	if body.SystemInstruction.Parts[0].Text != testRequest.System {
		t.Errorf("system instruction = %+v", body.SystemInstruction)
	}
	if body.GenerationConfig.MaxOutputTokens != 256 || body.GenerationConfig.Temperature < 0.19 || body.GenerationConfig.Temperature > 0.21 {
		t.Errorf("generationConfig = %+v", body.GenerationConfig)
	}
}

func TestGeminiErrors(t *testing.T) {
	tests := []struct {
		name      string
		rep       reply
		kind      error
		status    int
		code      string
		retry     time.Duration
		wide      bool
		wantText  string
		firstWait time.Duration
	}{
		{name: "rate limit per minute", rep: reply{Status: 429, Body: geminiRateLimit},
			kind: ErrRateLimited, status: 429, code: "RESOURCE_EXHAUSTED", retry: 43 * time.Second},
		{name: "daily quota", rep: reply{Status: 429, Body: geminiDailyQuota},
			kind: ErrQuota, status: 429, code: "RESOURCE_EXHAUSTED", retry: 20044661790 * time.Nanosecond},
		{name: "invalid key", rep: reply{Status: 400, Body: geminiBadKey},
			kind: ErrAuth, status: 400, code: "INVALID_ARGUMENT", wide: true},
		{name: "overloaded", rep: reply{Status: 503, Body: geminiOverloaded},
			kind: ErrUnavailable, status: 503, code: "UNAVAILABLE"},
		{name: "unknown model", rep: reply{Status: 404, Body: geminiNotFound},
			kind: ErrModelNotFound, status: 404, code: "NOT_FOUND"},
		{name: "plain-text 502 from a proxy", rep: reply{Status: 502, Body: "Bad Gateway", Header: map[string]string{"Content-Type": "text/plain"}},
			kind: ErrUnavailable, status: 502},
		{name: "malformed chunk", rep: reply{Chunks: sse("\r\n\r\n", geminiChunk1, `{"candidates": [{"content": {"parts": [{"text": "oops"`)},
			kind: ErrBadResponse, wantText: "2-SAT is"},
		{name: "error event mid-stream", rep: reply{Chunks: sse("\r\n\r\n", geminiChunk1, geminiStreamError)},
			kind: ErrUnavailable, status: 500, code: "INTERNAL", wantText: "2-SAT is"},
		{name: "disconnect mid-stream", rep: reply{Chunks: sse("\r\n\r\n", geminiChunk1), Hangup: true},
			kind: ErrStream, wantText: "2-SAT is"},
		{name: "stream ends without finishReason", rep: reply{Chunks: sse("\r\n\r\n", geminiChunk1)},
			kind: ErrStream, wantText: "2-SAT is"},
		{name: "slow first token", rep: reply{FirstDelay: 10 * time.Second, Chunks: sse("\r\n\r\n", geminiChunk1, geminiChunk2)},
			kind: ErrTimeout, firstWait: 300 * time.Millisecond},
		{name: "prompt blocked", rep: reply{Chunks: sse("\r\n\r\n", geminiBlocked)},
			kind: ErrBlocked, code: "PROHIBITED_CONTENT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, p := geminiFake(t, tt.rep)
			start := time.Now()
			got := collect(t, p, testRequest, tt.firstWait)
			pe := wantKind(t, got.err, tt.kind)
			if pe.Status != tt.status || pe.Code != tt.code || pe.RetryAfter != tt.retry || pe.ProviderWide != tt.wide {
				t.Errorf("error = %+v; want status %d, code %q, retry %v, provider-wide %v", pe, tt.status, tt.code, tt.retry, tt.wide)
			}
			if got.text != tt.wantText {
				t.Errorf("text before the error = %q, want %q", got.text, tt.wantText)
			}
			if tt.firstWait > 0 && time.Since(start) > 5*time.Second {
				t.Errorf("first-token timeout took %v", time.Since(start))
			}
			if strings.Contains(got.err.Error(), geminiKey) {
				t.Errorf("error holds the key: %v", got.err)
			}
		})
	}
}

// TestGeminiBadKeyInConfig: genai's configuration errors print the whole
// config, key included; ours never do.
func TestGeminiConfigErrorHidesKey(t *testing.T) {
	p := &gemini{name: "gemini", baseURL: "http://127.0.0.1:1/", key: "", http: http.DefaultClient}
	_, err := p.Stream(t.Context(), testRequest, func(Delta) error { return nil })
	if err == nil || strings.Contains(err.Error(), "ClientConfig") {
		t.Errorf("error = %v", err)
	}
}
