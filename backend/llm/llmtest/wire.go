package llmtest

import (
	"encoding/json"
	"fmt"
)

// The builders below write streams in each provider's real wire format,
// shaped like recorded responses (see package llm's tests for verbatim
// captures): one chunk per piece of text, the last one with the finish
// reason and the token counts.

// GeminiStream returns the SSE chunks of a Gemini streamGenerateContent
// answer made of texts.
func GeminiStream(model string, texts ...string) []string {
	events := make([]string, len(texts))
	for i, t := range texts {
		c := map[string]any{
			"content": map[string]any{"parts": []any{map[string]any{"text": t}}, "role": "model"},
			"index":   0,
		}
		usage := map[string]any{"promptTokenCount": 31, "totalTokenCount": 31}
		if i == len(texts)-1 {
			c["finishReason"] = "STOP"
			usage = map[string]any{"promptTokenCount": 31, "candidatesTokenCount": 9 * len(texts), "totalTokenCount": 31 + 9*len(texts)}
		}
		events[i] = mustJSON(map[string]any{"candidates": []any{c}, "usageMetadata": usage,
			"modelVersion": model, "responseId": "fakeResponse0"})
	}
	return SSE("\r\n\r\n", events...)
}

// GeminiRateLimit is Gemini's 429 for a per-minute limit (retry in 43 s).
const GeminiRateLimit = `{
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
      {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "43s"}
    ]
  }
}`

// OpenAIStream returns the SSE chunks of an OpenAI-compatible chat
// completion stream (Mistral, Groq, OpenRouter) made of texts, ending with
// "data: [DONE]".
func OpenAIStream(model string, texts ...string) []string {
	chunk := func(delta map[string]any, finish any, usage any) string {
		m := map[string]any{"id": "chatcmpl-fake0", "object": "chat.completion.chunk", "created": 1730241104, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			m["usage"] = usage
		}
		return mustJSON(m)
	}
	events := []string{chunk(map[string]any{"role": "assistant", "content": ""}, nil, nil)}
	for _, t := range texts {
		events = append(events, chunk(map[string]any{"content": t}, nil, nil))
	}
	events = append(events,
		chunk(map[string]any{}, "stop", map[string]any{"prompt_tokens": 31, "completion_tokens": 8 * len(texts), "total_tokens": 31 + 8*len(texts)}),
		"[DONE]")
	return SSE("\n\n", events...)
}

// OpenAIError is an OpenAI-compatible error body (Groq's, Mistral's shape).
func OpenAIError(message, typ, code string) string {
	return mustJSON(map[string]any{"error": map[string]any{"message": message, "type": typ, "code": code}})
}

// OllamaStream returns the NDJSON lines of an Ollama /api/chat stream made
// of texts.
func OllamaStream(model string, texts ...string) []string {
	var out []string
	for _, t := range texts {
		out = append(out, mustJSON(map[string]any{"model": model, "created_at": "2025-08-01T12:00:00.123456789Z",
			"message": map[string]any{"role": "assistant", "content": t}, "done": false})+"\n")
	}
	out = append(out, mustJSON(map[string]any{"model": model, "created_at": "2025-08-01T12:00:00.323456789Z",
		"message": map[string]any{"role": "assistant", "content": ""}, "done_reason": "stop", "done": true,
		"prompt_eval_count": 31, "eval_count": 8 * len(texts)})+"\n")
	return out
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llmtest: %v", err))
	}
	return string(b)
}
