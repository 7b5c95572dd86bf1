package llm

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The OpenAI-compatible wire format: "data: <chat.completion.chunk>" events
// and a final "data: [DONE]", as each provider sends them.
var (
	mistralStream = sse("\n\n",
		`{"id":"cmpl-e5cc70bb28c444948073e77776eb30ef","object":"chat.completion.chunk","created":1702256327,"model":"mistral-small-latest","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`,
		`{"id":"cmpl-e5cc70bb28c444948073e77776eb30ef","object":"chat.completion.chunk","created":1702256327,"model":"mistral-small-latest","choices":[{"index":0,"delta":{"content":"2-SAT is"},"finish_reason":null}]}`,
		`{"id":"cmpl-e5cc70bb28c444948073e77776eb30ef","object":"chat.completion.chunk","created":1702256327,"model":"mistral-small-latest","choices":[{"index":0,"delta":{"content":" in P."},"finish_reason":"stop"}],"usage":{"prompt_tokens":31,"total_tokens":39,"completion_tokens":8}}`,
		`[DONE]`)
	groqStream = sse("\n\n",
		`{"id":"chatcmpl-6f3c1d2e-7b1a-4c2e-9f7d-2b1c0a9e8d7f","object":"chat.completion.chunk","created":1730241104,"model":"llama-3.3-70b-versatile","system_fingerprint":"fp_c5e685ac5b","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"x_groq":{"id":"req_01jbd6g2qdfw2adyrt2az8hz4w"}}`,
		`{"id":"chatcmpl-6f3c1d2e-7b1a-4c2e-9f7d-2b1c0a9e8d7f","object":"chat.completion.chunk","created":1730241104,"model":"llama-3.3-70b-versatile","system_fingerprint":"fp_c5e685ac5b","choices":[{"index":0,"delta":{"content":"2-SAT is"},"logprobs":null,"finish_reason":null}]}`,
		`{"id":"chatcmpl-6f3c1d2e-7b1a-4c2e-9f7d-2b1c0a9e8d7f","object":"chat.completion.chunk","created":1730241104,"model":"llama-3.3-70b-versatile","system_fingerprint":"fp_c5e685ac5b","choices":[{"index":0,"delta":{"content":" in P."},"logprobs":null,"finish_reason":null}]}`,
		`{"id":"chatcmpl-6f3c1d2e-7b1a-4c2e-9f7d-2b1c0a9e8d7f","object":"chat.completion.chunk","created":1730241104,"model":"llama-3.3-70b-versatile","system_fingerprint":"fp_c5e685ac5b","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"x_groq":{"id":"req_01jbd6g2qdfw2adyrt2az8hz4w","usage":{"queue_time":0.017,"prompt_tokens":31,"prompt_time":0.002,"completion_tokens":8,"completion_time":0.02,"total_tokens":39,"total_time":0.022}}}`,
		`[DONE]`)
	openRouterStream = sse("\n\n",
		`: OPENROUTER PROCESSING`,
		`{"id":"gen-1754000000-Qm8cB1xYz","provider":"Cerebras","model":"openai/gpt-oss-120b","object":"chat.completion.chunk","created":1754000000,"choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"The user asks whether 2-SAT is in P."},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}`,
		`{"id":"gen-1754000000-Qm8cB1xYz","provider":"Cerebras","model":"openai/gpt-oss-120b","object":"chat.completion.chunk","created":1754000000,"choices":[{"index":0,"delta":{"role":"assistant","content":"2-SAT is"},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}`,
		`{"id":"gen-1754000000-Qm8cB1xYz","provider":"Cerebras","model":"openai/gpt-oss-120b","object":"chat.completion.chunk","created":1754000000,"choices":[{"index":0,"delta":{"role":"assistant","content":" in P."},"finish_reason":"stop","native_finish_reason":"stop","logprobs":null}]}`,
		`{"id":"gen-1754000000-Qm8cB1xYz","provider":"Cerebras","model":"openai/gpt-oss-120b","object":"chat.completion.chunk","created":1754000000,"choices":[],"usage":{"prompt_tokens":31,"completion_tokens":8,"total_tokens":39,"cost":0.0000123,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":12}}}`,
		`[DONE]`)

	// A first content chunk, shared by the failure cases.
	openAIFirst = `{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"2-SAT is"},"finish_reason":null}]}`
)

// Error bodies, as each provider returns them.
const (
	mistralGatewayLimit = `{"message":"Requests rate limit exceeded"}`
	mistralRateLimited  = `{"object":"error","message":"Rate limit exceeded","type":"rate_limited","param":null,"code":"1300"}`
	mistralCapacity     = `{"object":"error","message":"Service tier capacity exceeded for this model.","type":"service_tier_capacity_exceeded","param":null,"code":"3505"}`
	mistralUnauthorized = `{"message":"Unauthorized","request_id":"933f233947ff6d346065bb297e4a4d56"}`
	mistralDetail       = `{"detail":"Unauthorized"}`

	groqTPM          = "{\"error\":{\"message\":\"Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01hs26sgxde6dva0eke39336sv` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Used 11972, Requested 4351. Please try again in 21.615s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing\",\"type\":\"tokens\",\"code\":\"rate_limit_exceeded\"}}"
	groqTPD          = "{\"error\":{\"message\":\"Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01kjh7p9n8f1qs6nz2bz77vy6b` service tier `on_demand` on tokens per day (TPD): Limit 100000, Used 97050, Requested 3619. Please try again in 9m38.016s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing\",\"type\":\"tokens\",\"code\":\"rate_limit_exceeded\"}}"
	groqTooLarge     = "{\"error\":{\"message\":\"Request too large for model `llama-3.1-8b-instant` in organization `org_01j5b4pz9jff492fq686vypsx6` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 6294, please reduce your message size and try again. Visit https://console.groq.com/docs/rate-limits for more information.\",\"type\":\"tokens\",\"code\":\"rate_limit_exceeded\"}}"
	groqBadKey       = `{"error":{"message":"Invalid API Key","type":"invalid_request_error","code":"invalid_api_key"}}`
	groqNoModel      = "{\"error\":{\"message\":\"The model `llama-9` does not exist or you do not have access to it.\",\"type\":\"invalid_request_error\",\"code\":\"model_not_found\"}}"
	groqFlexCapacity = `{"error":{"message":"Flex tier capacity exceeded. This is a known issue, please try again later.","type":"capacity_exceeded","code":"capacity_exceeded"}}`

	openRouterCredits    = `{"error":{"code":402,"message":"This request requires more credits, or fewer max_tokens. You requested up to 32768 tokens, but can only afford 1675. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account","metadata":{"limit_source":"openrouter_credits"}},"user_id":"user_2yBxZ9f0q"}`
	openRouterUpstream   = `{"error":{"message":"Provider returned error","code":429,"metadata":{"raw":"openai/gpt-oss-120b is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations","provider_name":"Cerebras"}},"user_id":"user_2yBxZ9f0q"}`
	openRouterNoAuth     = `{"error":{"message":"No auth credentials found","code":401}}`
	openRouterModeration = `{"error":{"code":403,"message":"openai/gpt-oss-120b requires moderation on OpenAI. Your input was flagged for \"harassment\". No credits were charged.","metadata":{"reasons":["harassment"],"flagged_input":"...","provider_name":"OpenAI","model_slug":"openai/gpt-oss-120b"}},"user_id":"user_2yBxZ9f0q"}`
	openRouterNoProvider = `{"error":{"message":"No available model provider that meets your routing requirements","code":503}}`
	openRouterMidStream  = `{"id":"cmpl-abc123","object":"chat.completion.chunk","created":1754000000,"model":"openai/gpt-oss-120b","provider":"Cerebras","error":{"code":"server_error","message":"Provider disconnected unexpectedly"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}`
)

// openRouterDaily is OpenRouter's own daily limit, resetting at resetMS.
func openRouterDaily(resetMS int64) string {
	return fmt.Sprintf(`{"error":{"message":"Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day","code":429,"metadata":{"headers":{"X-RateLimit-Limit":"50","X-RateLimit-Remaining":"0","X-RateLimit-Reset":"%d"},"provider_name":null}},"user_id":"user_2yBxZ9f0q"}`, resetMS)
}

var testNow = time.Date(2025, 8, 1, 12, 0, 0, 0, time.UTC)

const openAIKey = "sk-test-FAKEKEY-0123456789abcdef"

func openAIFake(t *testing.T, provider string, rep reply) (*fakeServer, Provider) {
	f := newFakeServer(t, "text/event-stream", func(recorded) reply { return rep })
	var headers map[string]string
	if provider == "openrouter" {
		headers = map[string]string{"HTTP-Referer": "https://vika.example", "X-Title": "Vika"}
	}
	return f, &openAICompat{name: provider, baseURL: f.URL + "/v1", key: openAIKey, headers: headers,
		http: NewHTTPClient(2 * time.Second), now: func() time.Time { return testNow }}
}

func TestOpenAICompatStream(t *testing.T) {
	tests := []struct {
		provider string
		chunks   []string
	}{
		{"mistral", mistralStream},
		{"groq", groqStream},
		{"openrouter", openRouterStream},
	}
	for _, tt := range tests {
		t.Run(tt.provider, func(t *testing.T) {
			f, p := openAIFake(t, tt.provider, reply{Chunks: tt.chunks})
			got := collect(t, p, testRequest, 0)
			if got.err != nil {
				t.Fatal(got.err)
			}
			if got.text != "2-SAT is in P." {
				t.Errorf("text = %q", got.text)
			}
			if diff := cmp.Diff(Usage{InputTokens: 31, OutputTokens: 8, StopReason: "stop"}, got.usage); diff != "" {
				t.Errorf("usage (-want +got):\n%s", diff)
			}
			req := f.Last()
			if req.Method != "POST" || req.Path != "/v1/chat/completions" {
				t.Errorf("request %s %s", req.Method, req.Path)
			}
			if req.Header.Get("Authorization") != "Bearer "+openAIKey {
				t.Errorf("Authorization = %q", req.Header.Get("Authorization"))
			}
			if tt.provider == "openrouter" {
				if req.Header.Get("HTTP-Referer") != "https://vika.example" || req.Header.Get("X-Title") != "Vika" {
					t.Errorf("OpenRouter headers: %v", req.Header)
				}
			}
			var body map[string]any
			if err := json.Unmarshal([]byte(req.Body), &body); err != nil {
				t.Fatal(err)
			}
			if body["stream"] != true || body["model"] != "m" || body["max_tokens"] != 256.0 || body["temperature"] != 0.2 {
				t.Errorf("body = %s", req.Body)
			}
			if _, ok := body["stream_options"]; ok {
				t.Errorf("stream_options sent (Mistral rejects unknown fields): %s", req.Body)
			}
			var roles []string
			for _, m := range body["messages"].([]any) {
				roles = append(roles, m.(map[string]any)["role"].(string))
			}
			if diff := cmp.Diff([]string{"system", "user", "assistant", "user"}, roles); diff != "" {
				t.Errorf("roles (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOpenAICompatErrors(t *testing.T) {
	resetMS := testNow.Add(90 * time.Minute).UnixMilli()
	type tc struct {
		provider  string
		name      string
		rep       reply
		kind      error
		status    int
		code      string
		retry     time.Duration
		wide      bool
		wantText  string
		firstWait time.Duration
	}
	tests := []tc{
		// Mistral
		{provider: "mistral", name: "gateway 429", rep: reply{Status: 429, Body: mistralGatewayLimit}, kind: ErrRateLimited, status: 429},
		{provider: "mistral", name: "429 rate_limited", rep: reply{Status: 429, Body: mistralRateLimited}, kind: ErrRateLimited, status: 429, code: "1300"},
		{provider: "mistral", name: "429 capacity", rep: reply{Status: 429, Body: mistralCapacity}, kind: ErrUnavailable, status: 429, code: "3505"},
		{provider: "mistral", name: "401", rep: reply{Status: 401, Body: mistralUnauthorized}, kind: ErrAuth, status: 401, wide: true},
		{provider: "mistral", name: "401 detail", rep: reply{Status: 401, Body: mistralDetail}, kind: ErrAuth, status: 401, wide: true},
		// Groq
		{provider: "groq", name: "429 tokens per minute", rep: reply{Status: 429, Body: groqTPM, Header: map[string]string{"Retry-After": "22"}},
			kind: ErrRateLimited, status: 429, code: "rate_limit_exceeded", retry: 22 * time.Second},
		{provider: "groq", name: "429 tokens per day", rep: reply{Status: 429, Body: groqTPD},
			kind: ErrQuota, status: 429, code: "rate_limit_exceeded", retry: 9*time.Minute + 38016*time.Millisecond},
		{provider: "groq", name: "413 too large for the TPM limit", rep: reply{Status: 413, Body: groqTooLarge},
			kind: ErrRateLimited, status: 413, code: "rate_limit_exceeded"},
		{provider: "groq", name: "401", rep: reply{Status: 401, Body: groqBadKey}, kind: ErrAuth, status: 401, code: "invalid_api_key", wide: true},
		{provider: "groq", name: "404 model", rep: reply{Status: 404, Body: groqNoModel}, kind: ErrModelNotFound, status: 404, code: "model_not_found"},
		{provider: "groq", name: "498 flex capacity", rep: reply{Status: 498, Body: groqFlexCapacity}, kind: ErrUnavailable, status: 498, code: "capacity_exceeded"},
		{provider: "groq", name: "503 html", rep: reply{Status: 503, Body: "<html><body>503 Service Temporarily Unavailable</body></html>", Header: map[string]string{"Content-Type": "text/html"}},
			kind: ErrUnavailable, status: 503},
		// OpenRouter
		{provider: "openrouter", name: "402 credits", rep: reply{Status: 402, Body: openRouterCredits}, kind: ErrQuota, status: 402, code: "402", wide: true},
		{provider: "openrouter", name: "429 free-models-per-day", rep: reply{Status: 429, Body: openRouterDaily(resetMS)},
			kind: ErrQuota, status: 429, code: "429", retry: 90 * time.Minute},
		{provider: "openrouter", name: "429 upstream", rep: reply{Status: 429, Body: openRouterUpstream, Header: map[string]string{"Retry-After": "5"}},
			kind: ErrRateLimited, status: 429, code: "429", retry: 5 * time.Second},
		{provider: "openrouter", name: "401", rep: reply{Status: 401, Body: openRouterNoAuth}, kind: ErrAuth, status: 401, code: "401", wide: true},
		{provider: "openrouter", name: "403 moderation", rep: reply{Status: 403, Body: openRouterModeration}, kind: ErrBlocked, status: 403, code: "403"},
		{provider: "openrouter", name: "503 no provider", rep: reply{Status: 503, Body: openRouterNoProvider}, kind: ErrUnavailable, status: 503, code: "503"},
		{provider: "openrouter", name: "error event mid-stream", rep: reply{Chunks: sse("\n\n", openAIFirst, openRouterMidStream)},
			kind: ErrUnavailable, code: "server_error", wantText: "2-SAT is"},
	}
	// The stream failures every OpenAI-compatible provider can meet.
	for _, p := range []string{"mistral", "groq", "openrouter"} {
		tests = append(tests,
			tc{provider: p, name: "malformed chunk", rep: reply{Chunks: sse("\n\n", openAIFirst, `{"id":"x","choices":[{"index":0,"delta":{"content":"in P`)},
				kind: ErrBadResponse, wantText: "2-SAT is"},
			tc{provider: p, name: "disconnect mid-stream", rep: reply{Chunks: sse("\n\n", openAIFirst), Hangup: true},
				kind: ErrStream, wantText: "2-SAT is"},
			tc{provider: p, name: "no finish_reason nor [DONE]", rep: reply{Chunks: sse("\n\n", openAIFirst)},
				kind: ErrStream, wantText: "2-SAT is"},
			tc{provider: p, name: "slow first token", rep: reply{FirstDelay: 10 * time.Second, Chunks: sse("\n\n", openAIFirst)},
				kind: ErrTimeout, firstWait: 300 * time.Millisecond},
		)
	}
	for _, tt := range tests {
		t.Run(tt.provider+"/"+tt.name, func(t *testing.T) {
			f, p := openAIFake(t, tt.provider, tt.rep)
			got := collect(t, p, testRequest, tt.firstWait)
			pe := wantKind(t, got.err, tt.kind)
			if pe.Status != tt.status || pe.Code != tt.code || pe.RetryAfter != tt.retry || pe.ProviderWide != tt.wide {
				t.Errorf("error = %+v\nwant status %d, code %q, retry %v, provider-wide %v", pe, tt.status, tt.code, tt.retry, tt.wide)
			}
			if got.text != tt.wantText {
				t.Errorf("text before the error = %q, want %q", got.text, tt.wantText)
			}
			if n := f.Count(); n != 1 {
				t.Errorf("%d requests, want 1 (no retries: the runner falls back)", n)
			}
			if pe.Message == "" {
				t.Errorf("no message in %v", pe)
			}
		})
	}
}

// TestOpenAICompatRedactsKey: a provider that echoes the key in its error
// message (as OpenAI's "Incorrect API key provided: ...") does not get it
// into our error.
func TestOpenAICompatRedactsKey(t *testing.T) {
	body := `{"error":{"message":"Incorrect API key provided: ` + openAIKey + `. You can find your API key at https://console.groq.com/keys.","type":"invalid_request_error","code":"invalid_api_key"}}`
	_, p := openAIFake(t, "groq", reply{Status: 401, Body: body})
	got := collect(t, p, testRequest, 0)
	wantKind(t, got.err, ErrAuth)
	if strings.Contains(got.err.Error(), openAIKey) {
		t.Errorf("error holds the key: %v", got.err)
	}
	if !strings.Contains(got.err.Error(), "[redacted]") {
		t.Errorf("error = %v, want the key replaced", got.err)
	}
}

// TestOpenAICompatIgnoresOpenAIEnv: the SDK's environment defaults
// (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_ORG_ID) never leak into the
// requests sent to Mistral, Groq or OpenRouter.
func TestOpenAICompatIgnoresOpenAIEnv(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_API_KEY", "sk-openai-should-not-be-sent")
	t.Setenv("OPENAI_ORG_ID", "org-should-not-be-sent")
	f, p := openAIFake(t, "mistral", reply{Chunks: mistralStream})
	if got := collect(t, p, testRequest, 0); got.err != nil {
		t.Fatal(got.err)
	}
	h := f.Last().Header
	if h.Get("Authorization") != "Bearer "+openAIKey || h.Get("OpenAI-Organization") != "" {
		t.Errorf("headers = %v", h)
	}
}
