package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
)

// ollamaShow is the part of POST /api/show that says what a pulled model
// can do:
//
//	{"modelfile":"...","details":{"family":"llama","families":["llama","clip"],...},
//	 "model_info":{...},"capabilities":["completion","vision"]}
//
// Ollama before 0.6.4 sends no capabilities.
type ollamaShow struct {
	Capabilities []string `json:"capabilities"`
	Details      struct {
		Family   string   `json:"family"`
		Families []string `json:"families"`
	} `json:"details"`
}

// visionFamilies are the model families (and projector families) of
// Ollama's vision models, for a server that does not list capabilities:
// "clip" is the image projector of LLaVA-style models, "mllama" Llama 3.2
// Vision.
var visionFamilies = []string{"clip", "mllama", "qwen25vl", "qwen2vl", "gemma3", "llama4", "mistral3"}

// visionOf tells whether a pulled model reads images: its /api/show
// capabilities when the server lists them, else its families (from
// /api/show, or from /api/tags when /api/show fails).
func (o *ollama) visionOf(ctx context.Context, name, family string, families []string) bool {
	if show, err := o.show(ctx, name); err == nil {
		if show.Capabilities != nil {
			return slices.Contains(show.Capabilities, "vision")
		}
		family, families = show.Details.Family, append(families, show.Details.Families...)
	}
	for _, f := range append([]string{family}, families...) {
		if slices.Contains(visionFamilies, strings.ToLower(f)) {
			return true
		}
	}
	return false
}

func (o *ollama) show(ctx context.Context, name string) (ollamaShow, error) {
	var show ollamaShow
	body, _ := json.Marshal(map[string]string{"model": name})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.baseURL+"/api/show", bytes.NewReader(body))
	if err != nil {
		return show, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := o.http.Do(req)
	if err != nil {
		return show, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return show, &ProviderError{Provider: o.name, Model: name, Status: res.StatusCode, Kind: statusKind(res.StatusCode),
			Message: "Ollama /api/show: " + res.Status}
	}
	err = json.NewDecoder(io.LimitReader(res.Body, 16<<20)).Decode(&show)
	return show, err
}
