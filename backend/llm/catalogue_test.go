package llm

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/secrets"
)

// TestCatalogueHoldsTheIssuesModels: the embedded data lists every model
// the product promises, with sane tiers.
func TestCatalogueHoldsTheIssuesModels(t *testing.T) {
	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{ // key -> tier
		"gemini/gemini-2.5-flash":                2,
		"gemini/gemini-2.5-flash-lite":           1,
		"gemini/gemini-2.5-pro":                  3,
		"mistral/ministral-8b-2512":              1,
		"mistral/mistral-small-2603":             2,
		"groq/llama-3.3-70b-versatile":           2,
		"groq/llama-3.1-8b-instant":              1,
		"openrouter/openai/gpt-oss-120b":         3,
		"mistral/pixtral-12b-latest":             1,
		"openrouter/meta-llama/llama-4-maverick": 2,
	}
	got := map[string]int{}
	for _, m := range cat.Models {
		got[m.Key()] = m.Tier
		if m.Context < 8192 || m.Name == "" {
			t.Errorf("%s: context %d, name %q", m.Key(), m.Context, m.Name)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("models (-want +got):\n%s", diff)
	}
	for _, id := range []string{"gemini", "mistral", "groq", "openrouter", "ollama"} {
		p, ok := cat.Provider(id)
		if !ok {
			t.Errorf("provider %s missing", id)
			continue
		}
		if wantEnv := "VIKA_" + strings.ToUpper(id) + "_BASE_URL"; p.BaseURLEnv != wantEnv {
			t.Errorf("%s base_url_env = %q, want %q", id, p.BaseURLEnv, wantEnv)
		}
		// Every provider that needs a key has its keyring entry and
		// environment override in secrets.
		if _, ok := secrets.EnvVars[id]; ok != p.NeedsKey {
			t.Errorf("%s: needs_key %v but secrets knows it: %v", id, p.NeedsKey, ok)
		}
	}
	if m, ok := cat.Model("openrouter/openai/gpt-oss-120b"); !ok || m.ID != "openai/gpt-oss-120b" {
		t.Errorf("Model lookup of a slashed id: %+v", m)
	}
}

func TestParseCatalogueRejects(t *testing.T) {
	tests := []struct{ name, json, want string }{
		{"bad json", `{`, "model catalogue"},
		{"unknown api", `{"providers":[{"id":"x","api":"soap","base_url":"http://x"}]}`, "needs an id, an api"},
		{"unknown provider", `{"providers":[],"models":[{"provider":"x","id":"m","name":"M","tier":1,"context":1}]}`, "unknown provider"},
		{"bad tier", `{"providers":[{"id":"x","api":"openai","base_url":"http://x","max_tokens_field":"max_tokens"}],"models":[{"provider":"x","id":"m","name":"M","tier":4,"context":1}]}`, "tier 1-3"},
		{"twice", `{"providers":[{"id":"x","api":"openai","base_url":"http://x","max_tokens_field":"max_tokens"}],"models":[{"provider":"x","id":"m","name":"M","tier":1,"context":1,"max_output_tokens":9},{"provider":"x","id":"m","name":"M","tier":1,"context":1,"max_output_tokens":9}]}`, "listed twice"},
		{"no cap field", `{"providers":[{"id":"x","api":"openai","base_url":"http://x"}]}`, "max_tokens_field must be"},
		{"no output cap", `{"providers":[{"id":"x","api":"ollama","base_url":"http://x"}],"models":[{"provider":"x","id":"m","name":"M","tier":1,"context":1}]}`, "max_output_tokens is required"},
		{"no local output cap", `{"providers":[{"id":"x","api":"ollama","base_url":"http://x"}],"models":[]}`, "local.max_output_tokens is required"},
	}
	for _, tt := range tests {
		if _, err := ParseCatalogue([]byte(tt.json)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestConfigFromEnv(t *testing.T) {
	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"VIKA_GROQ_BASE_URL":      "http://127.0.0.1:8081/openai/v1",
		"VIKA_OLLAMA_BASE_URL":    "http://192.168.1.20:11434", // no key sent: plain http is fine
		"OPENROUTER_HTTP_REFERER": "https://vika.example",
		"OPENROUTER_APP_TITLE":    "Vika",
		"VIKA_ROUTELLM_THRESHOLD": "0.55",
		"VIKA_ROUTELLM_ROUTER":    "MF",
	}
	cfg, err := ConfigFromEnv(cat, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	wantURLs := map[string]string{
		"gemini":     "https://generativelanguage.googleapis.com/",
		"mistral":    "https://api.mistral.ai/v1",
		"groq":       "http://127.0.0.1:8081/openai/v1",
		"openrouter": "https://openrouter.ai/api/v1",
		"ollama":     "http://192.168.1.20:11434",
	}
	if diff := cmp.Diff(wantURLs, cfg.BaseURLs); diff != "" {
		t.Errorf("base URLs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]map[string]string{"openrouter": {"HTTP-Referer": "https://vika.example", "X-Title": "Vika"}}, cfg.Headers); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
	if cfg.Threshold != 0.55 || cfg.Router != "mf" {
		t.Errorf("threshold %v, router %q", cfg.Threshold, cfg.Router)
	}

	bad := []struct{ key, value, want string }{
		{"VIKA_GEMINI_BASE_URL", "ftp://example.com", "not an http(s) URL"},
		{"VIKA_MISTRAL_BASE_URL", "http://proxy.example.com/v1", "plain http would send the API key in clear"},
		{"VIKA_GROQ_BASE_URL", "https://user:pw@example.com", "no credentials"},
		{"VIKA_ROUTELLM_THRESHOLD", "1.5", "between 0 and 1"},
		{"VIKA_ROUTELLM_THRESHOLD", "high", "between 0 and 1"},
		{"OPENROUTER_APP_TITLE", "Vika\r\nX-Evil: 1", "span lines"},
	}
	for _, b := range bad {
		_, err := ConfigFromEnv(cat, func(k string) string {
			if k == b.key {
				return b.value
			}
			return ""
		})
		if err == nil || !strings.Contains(err.Error(), b.want) || !strings.Contains(err.Error(), b.key) {
			t.Errorf("%s=%q: error %v, want %q", b.key, b.value, err, b.want)
		}
	}
}

// The app's key store is what the Service reads keys from.
var _ Keys = (*secrets.Store)(nil)

func TestFromEnv(t *testing.T) {
	t.Setenv("VIKA_MISTRAL_BASE_URL", "http://mistral-proxy.example/v1")
	if _, err := FromEnv(fakeKeys{}); err == nil || !strings.Contains(err.Error(), "VIKA_MISTRAL_BASE_URL") {
		t.Errorf("FromEnv with a plain-http remote base URL: %v", err)
	}
	t.Setenv("VIKA_MISTRAL_BASE_URL", "")
	t.Setenv("VIKA_ROUTELLM_ROUTER", "bert")
	svc, err := FromEnv(fakeKeys{})
	if err != nil || svc.Catalogue() == nil || svc.router.Strategy != "bert" {
		t.Errorf("FromEnv: %v", err)
	}
}

func TestRedactAndKind(t *testing.T) {
	const key = "gsk_abcdef123456"
	got := redact("Incorrect API key provided: "+key+"\n\twith\x00controls "+strings.Repeat("x", 500), key)
	if strings.Contains(got, key) || strings.ContainsAny(got, "\n\t\x00") || len([]rune(got)) > maxMessage+1 {
		t.Errorf("redact = %q", got)
	}
	tests := []struct {
		err  error
		want string
	}{
		{&ProviderError{Kind: ErrQuota}, "quota"},
		{&StreamError{Err: &ProviderError{Kind: ErrUnavailable}}, "stream"},
		{&ExhaustedError{Last: &ProviderError{Kind: ErrRateLimited}}, "no_model"},
		{context.Canceled, "canceled"},
		{errors.New("x"), "error"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := KindOf(tt.err); got != tt.want {
			t.Errorf("KindOf(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
