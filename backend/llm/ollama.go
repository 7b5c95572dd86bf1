package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// ollama streams from a local Ollama server over its native API: POST
// /api/chat answered by NDJSON, one object per line,
//
//	{"model":"llama3.2","created_at":"...","message":{"role":"assistant","content":"The"},"done":false}
//	...
//	{"model":"llama3.2","created_at":"...","message":{"role":"assistant","content":""},"done":true,
//	 "done_reason":"stop","total_duration":...,"prompt_eval_count":26,"eval_count":282}
//
// errors as {"error":"..."} (with an error status before the stream, or as
// a line inside it), and GET /api/tags to list the pulled models.
//
// It is written on net/http rather than the official client
// (github.com/ollama/ollama/api), which lives in the Ollama server's module
// (55 more requirements in go.mod) and reports a malformed line and an
// error line alike as a plain error, so they could not be told apart.
type ollama struct {
	name    string
	baseURL string // without a trailing slash
	numCtx  int    // context window requested (options.num_ctx); 0 for the server's default
	http    *http.Client
}

func (o *ollama) Name() string { return o.name }

type ollamaChatRequest struct {
	Model    string          `json:"model"`
	Messages []ollamaMessage `json:"messages"`
	Stream   bool            `json:"stream"`
	Options  map[string]any  `json:"options,omitempty"`
}

type ollamaMessage struct {
	Role     string `json:"role"`
	Content  string `json:"content"`
	Thinking string `json:"thinking,omitempty"`
	// Images are base64 pictures for a vision model; Ollama has no text
	// parts between them, so their labels go at the end of Content, in
	// the images' order.
	Images [][]byte `json:"images,omitempty"`
}

type ollamaChunk struct {
	Message         ollamaMessage `json:"message"`
	Done            bool          `json:"done"`
	DoneReason      string        `json:"done_reason"`
	PromptEvalCount int           `json:"prompt_eval_count"`
	EvalCount       int           `json:"eval_count"`
	Error           string        `json:"error"`
}

func (o *ollama) Stream(ctx context.Context, req Request, fn func(Delta) error) (Usage, error) {
	var usage Usage
	body := ollamaChatRequest{Model: req.Model, Stream: true, Options: map[string]any{}}
	if req.System != "" {
		body.Messages = append(body.Messages, ollamaMessage{Role: "system", Content: req.System})
	}
	for _, m := range req.Messages {
		om := ollamaMessage{Role: string(m.Role), Content: m.Content}
		for i, im := range m.Images {
			om.Images = append(om.Images, im.Data) // encoding/json writes []byte as base64
			if im.Label != "" {
				om.Content += fmt.Sprintf("\n\nImage %d: %s", i+1, im.Label)
			}
		}
		body.Messages = append(body.Messages, om)
	}
	if req.Temperature != nil {
		body.Options["temperature"] = *req.Temperature
	}
	if req.MaxTokens > 0 {
		body.Options["num_predict"] = req.MaxTokens
	}
	if o.numCtx > 0 {
		body.Options["num_ctx"] = o.numCtx
	}
	buf, err := json.Marshal(body)
	if err != nil {
		return usage, err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, o.baseURL+"/api/chat", bytes.NewReader(buf))
	if err != nil {
		return usage, &ProviderError{Provider: o.name, Model: req.Model, Kind: ErrBadRequest, Message: "bad Ollama URL", cause: err}
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/x-ndjson")
	res, err := o.http.Do(hreq)
	if err != nil {
		return usage, o.unreachable(ctx, req.Model, err)
	}
	defer res.Body.Close()
	if res.StatusCode >= 400 {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
		return usage, ollamaError(o.name, req.Model, res.StatusCode, res.Header, b)
	}

	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var c ollamaChunk
		if err := json.Unmarshal(line, &c); err != nil {
			if serr := sc.Err(); serr != nil { // the last piece before a failed read
				return usage, transportError(ctx, o.name, req.Model, serr)
			}
			return usage, &ProviderError{Provider: o.name, Model: req.Model, Kind: ErrBadResponse,
				Message: "Ollama sent a line that is not valid JSON", cause: err}
		}
		if c.Error != "" {
			return usage, ollamaError(o.name, req.Model, 0, nil, line)
		}
		if err := fn(Delta{Text: c.Message.Content}); err != nil {
			return usage, err
		}
		if c.Done {
			usage.InputTokens, usage.OutputTokens = c.PromptEvalCount, c.EvalCount
			usage.StopReason = c.DoneReason
			if usage.StopReason == "" {
				usage.StopReason = "stop"
			}
			return usage, nil
		}
	}
	if err := sc.Err(); err != nil {
		return usage, transportError(ctx, o.name, req.Model, err)
	}
	if ctx.Err() != nil {
		return usage, context.Cause(ctx)
	}
	return usage, &ProviderError{Provider: o.name, Model: req.Model, Kind: ErrStream,
		Message: "the stream ended before the answer was complete"}
}

func (o *ollama) unreachable(ctx context.Context, model string, err error) error {
	err = transportError(ctx, o.name, model, err)
	var oe *OwnerError
	if pe, ok := err.(*ProviderError); ok && pe.Kind == ErrUnavailable && !errors.As(pe.cause, &oe) {
		pe.Message = "Ollama is not running at " + o.baseURL
		pe.ProviderWide = true
	}
	return err
}

// ollamaError maps Ollama's {"error":"..."}: 404 for a model that is not
// pulled ("model \"x\" not found, try pulling it first"), 429 for a rate
// limit (cloud models), 503 when the server is busy (OLLAMA_MAX_QUEUE), 500
// when the model runner fails; status 0 is an error line inside the stream.
func ollamaError(provider, model string, status int, h http.Header, body []byte) *ProviderError {
	var e struct {
		Error string `json:"error"`
	}
	msg := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		msg = e.Error
	}
	pe := &ProviderError{Provider: provider, Model: model, Status: status, Message: redact(msg)}
	switch {
	case status == 0:
		pe.Kind = textKind(ErrUnavailable, msg)
	case status == http.StatusBadRequest && strings.Contains(msg, "not found"):
		pe.Kind = ErrModelNotFound
	default:
		pe.Kind = textKind(statusKind(status), msg)
	}
	if h != nil {
		pe.RetryAfter = retryAfter(h, time.Now())
	}
	return pe
}

// ollamaTags is GET /api/tags:
//
//	{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","modified_at":"...","size":2019393189,
//	 "digest":"...","details":{"format":"gguf","family":"llama","families":["llama"],
//	 "parameter_size":"3.2B","quantization_level":"Q4_K_M"}}]}
type ollamaTags struct {
	Models []struct {
		Name    string `json:"name"`
		Model   string `json:"model"`
		Details struct {
			Family        string   `json:"family"`
			Families      []string `json:"families"`
			ParameterSize string   `json:"parameter_size"`
		} `json:"details"`
	} `json:"models"`
}

// ollamaModel is one pulled model as /api/tags (and /api/show) describe it.
type ollamaModel struct {
	Name    string
	ParamsB float64 // billions of parameters, 0 when unknown
	Vision  bool    // it reads images (see visionOf)
}

// List returns the pulled models that can chat (embedding models are left
// out). An error means Ollama is not reachable.
func (o *ollama) List(ctx context.Context) ([]ollamaModel, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.baseURL+"/api/tags", nil)
	if err != nil {
		return nil, err
	}
	res, err := o.http.Do(req)
	if err != nil {
		return nil, o.unreachable(ctx, "", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("ollama /api/tags: %s", res.Status)
	}
	var tags ollamaTags
	if err := json.NewDecoder(io.LimitReader(res.Body, 8<<20)).Decode(&tags); err != nil {
		return nil, fmt.Errorf("ollama /api/tags: %w", err)
	}
	var out []ollamaModel
	for _, m := range tags.Models {
		if len(out) == maxOllamaModels {
			break
		}
		if !validOllamaName(m.Name) || isEmbeddingModel(m.Name, m.Details.Family, m.Details.Families) {
			continue
		}
		vision := o.visionOf(ctx, m.Name, m.Details.Family, m.Details.Families)
		out = append(out, ollamaModel{Name: m.Name, ParamsB: parseParams(m.Details.ParameterSize), Vision: vision})
	}
	return out, nil
}

// maxOllamaModels is the most pulled models listed.
const maxOllamaModels = 100

// ollamaNameRe is what a model name may be (Ollama's
// [host/][namespace/]model[:tag], e.g. "hf.co/bartowski/Llama-3.2-1B-GGUF:Q4_K_M"):
// a name with spaces, controls, markup, ".." or over 200 bytes is dropped,
// since it is shown, logged and sent back.
var ollamaNameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._\-]*(/[A-Za-z0-9][A-Za-z0-9._\-]*){0,3}(:[A-Za-z0-9][A-Za-z0-9._\-]*)?$`)

func validOllamaName(name string) bool {
	return len(name) <= 200 && !strings.Contains(name, "..") && ollamaNameRe.MatchString(name)
}

func isEmbeddingModel(name, family string, families []string) bool {
	if strings.Contains(strings.ToLower(name), "embed") {
		return true
	}
	for _, f := range append([]string{family}, families...) {
		if strings.HasSuffix(strings.ToLower(f), "bert") {
			return true
		}
	}
	return false
}

// parseParams reads Ollama's parameter_size: "3.2B", "70.6B", "567M".
func parseParams(s string) float64 {
	s = strings.TrimSpace(strings.ToUpper(s))
	scale := 1.0
	switch {
	case strings.HasSuffix(s, "B"):
		s = strings.TrimSuffix(s, "B")
	case strings.HasSuffix(s, "M"):
		s, scale = strings.TrimSuffix(s, "M"), 1e-3
	case strings.HasSuffix(s, "T"):
		s, scale = strings.TrimSuffix(s, "T"), 1e3
	default:
		return 0
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return v * scale
}
