package llm

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

//go:embed models.json
var modelsJSON []byte

// ProviderInfo describes a provider of the catalogue.
type ProviderInfo struct {
	ID         string `json:"id"`   // "gemini", "mistral", "groq", "openrouter", "ollama"
	Name       string `json:"name"` // shown to the user
	API        string `json:"api"`  // wire format: "gemini", "openai" or "ollama"
	BaseURL    string `json:"base_url"`
	BaseURLEnv string `json:"base_url_env"` // environment variable overriding BaseURL
	NeedsKey   bool   `json:"needs_key"`
	Local      bool   `json:"local"` // runs on this machine: answers stay offline
	// HeaderEnv maps an HTTP header to the environment variable giving
	// its value (OpenRouter's HTTP-Referer and X-Title).
	HeaderEnv map[string]string `json:"header_env,omitempty"`
	// MaxTokensField is the request field of an OpenAI-compatible API
	// that carries the output-token cap: "max_tokens" (Mistral,
	// OpenRouter) or "max_completion_tokens" (Groq, where max_tokens is
	// deprecated). Gemini's is generationConfig.maxOutputTokens, Ollama's
	// options.num_predict.
	MaxTokensField string `json:"max_tokens_field,omitempty"`
}

// Model is one model of the catalogue (or one pulled into Ollama).
type Model struct {
	Provider    string `json:"provider"`
	ID          string `json:"id"`   // the provider's model id
	Name        string `json:"name"` // display name
	Tier        int    `json:"tier"` // capability, 1 (light) to 3 (strongest)
	Context     int    `json:"context"`
	Cost        int    `json:"cost"`                    // 0 (free/local) to 3
	FirstTokenS int    `json:"first_token_s,omitempty"` // first-token timeout override, seconds
	// MaxOutputTokens caps the tokens the model may write for one answer
	// (reasoning tokens included where the provider counts them so).
	MaxOutputTokens int  `json:"max_output_tokens"`
	Local           bool `json:"local,omitempty"`
	// Vision: the model reads images sent with a message (Message.Images).
	// Data for the catalogue's models; for a pulled Ollama model, its
	// /api/show capabilities (or, from an older Ollama, its family).
	Vision bool `json:"vision,omitempty"`
}

// Key identifies a model across providers: "provider/id", e.g.
// "groq/llama-3.3-70b-versatile" or "openrouter/openai/gpt-oss-120b".
func (m Model) Key() string { return m.Provider + "/" + m.ID }

// firstToken is the model's first-token timeout, or def.
func (m Model) firstToken(def time.Duration) time.Duration {
	if m.FirstTokenS > 0 {
		return time.Duration(m.FirstTokenS) * time.Second
	}
	return def
}

// SplitKey splits "provider/id" at its first slash.
func SplitKey(key string) (provider, id string, ok bool) {
	provider, id, ok = strings.Cut(key, "/")
	return provider, id, ok && provider != "" && id != ""
}

// LocalDefaults describe the models found in Ollama.
type LocalDefaults struct {
	Cost        int `json:"cost"`
	Context     int `json:"context"`
	NumCtx      int `json:"num_ctx"`
	FirstTokenS int `json:"first_token_s"`
	// MaxOutputTokens is options.num_predict of every local answer.
	MaxOutputTokens int `json:"max_output_tokens"`
	Tiers           []struct {
		MinParamsB float64 `json:"min_params_b"`
		Tier       int     `json:"tier"`
	} `json:"tiers"`
}

// Catalogue is the model list: data (models.json), not code.
type Catalogue struct {
	Providers []ProviderInfo `json:"providers"`
	Models    []Model        `json:"models"`
	Local     LocalDefaults  `json:"local"`
}

// LoadCatalogue returns the catalogue embedded in the binary.
func LoadCatalogue() (*Catalogue, error) { return ParseCatalogue(modelsJSON) }

// ParseCatalogue reads and checks a catalogue.
func ParseCatalogue(data []byte) (*Catalogue, error) {
	var c Catalogue
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("model catalogue: %w", err)
	}
	apis := map[string]bool{"gemini": true, "openai": true, "ollama": true}
	seen := map[string]bool{}
	for _, p := range c.Providers {
		if p.ID == "" || !apis[p.API] || p.BaseURL == "" {
			return nil, fmt.Errorf("model catalogue: provider %q: needs an id, an api (gemini, openai, ollama) and a base_url", p.ID)
		}
		if p.API == "openai" && p.MaxTokensField != "max_tokens" && p.MaxTokensField != "max_completion_tokens" {
			return nil, fmt.Errorf("model catalogue: provider %q: max_tokens_field must be max_tokens or max_completion_tokens", p.ID)
		}
		if seen[p.ID] {
			return nil, fmt.Errorf("model catalogue: provider %q listed twice", p.ID)
		}
		seen[p.ID] = true
	}
	keys := map[string]bool{}
	for i, m := range c.Models {
		p, ok := c.Provider(m.Provider)
		switch {
		case !ok:
			return nil, fmt.Errorf("model catalogue: model %q: unknown provider %q", m.ID, m.Provider)
		case m.ID == "" || m.Name == "":
			return nil, fmt.Errorf("model catalogue: model %d needs an id and a name", i)
		case m.Tier < 1 || m.Tier > 3 || m.Cost < 0 || m.Cost > 3 || m.Context <= 0:
			return nil, fmt.Errorf("model catalogue: model %q: tier 1-3, cost 0-3 and a context are required", m.Key())
		case m.MaxOutputTokens <= 0:
			return nil, fmt.Errorf("model catalogue: model %q: max_output_tokens is required", m.Key())
		case keys[m.Key()]:
			return nil, fmt.Errorf("model catalogue: model %q listed twice", m.Key())
		}
		keys[m.Key()] = true
		c.Models[i].Local = p.Local
	}
	if c.Local.MaxOutputTokens <= 0 {
		return nil, fmt.Errorf("model catalogue: local.max_output_tokens is required")
	}
	return &c, nil
}

// Provider returns the provider with that id.
func (c *Catalogue) Provider(id string) (ProviderInfo, bool) {
	for _, p := range c.Providers {
		if p.ID == id {
			return p, true
		}
	}
	return ProviderInfo{}, false
}

// Model returns the catalogue's model with that key ("provider/id").
func (c *Catalogue) Model(key string) (Model, bool) {
	for _, m := range c.Models {
		if m.Key() == key {
			return m, true
		}
	}
	return Model{}, false
}

// localModel describes a model pulled into the local provider.
func (c *Catalogue) localModel(provider string, om ollamaModel) Model {
	m := Model{Provider: provider, ID: om.Name, Name: om.Name + " (Ollama)", Tier: 1,
		Context: c.Local.Context, Cost: c.Local.Cost, FirstTokenS: c.Local.FirstTokenS,
		MaxOutputTokens: c.Local.MaxOutputTokens, Local: true, Vision: om.Vision}
	for _, t := range c.Local.Tiers {
		if om.ParamsB >= t.MinParamsB {
			m.Tier = t.Tier
		}
	}
	return m
}
