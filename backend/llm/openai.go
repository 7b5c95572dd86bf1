package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
)

// openAICompat streams from an OpenAI-compatible chat completions endpoint
// (Mistral, Groq, OpenRouter) with the openai-go SDK: POST
// {base}/chat/completions with "stream": true, answered by an SSE stream of
// chat.completion.chunk objects ending with "data: [DONE]".
//
// The SDK is used with retries off (the runner falls back instead) and
// without its environment defaults (OPENAI_API_KEY, OPENAI_BASE_URL, ...).
// A middleware reads every error response itself, because the SDK only
// parses bodies of the form {"error":{...}} and drops the status of others
// (Mistral answers {"message":"Requests rate limit exceeded"}).
type openAICompat struct {
	name    string
	baseURL string
	key     string
	headers map[string]string // extra headers, e.g. OpenRouter's HTTP-Referer and X-Title
	// maxField is the request field of the output-token cap:
	// "max_completion_tokens", or "max_tokens" ("" too).
	maxField string
	http     *http.Client
	now      func() time.Time
}

func (o *openAICompat) Name() string { return o.name }

func (o *openAICompat) Stream(ctx context.Context, req Request, fn func(Delta) error) (Usage, error) {
	var usage Usage
	mw := func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		res, err := next(r)
		if err != nil || res.StatusCode < 400 {
			return res, err
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
		return nil, openAIError(o.name, req.Model, res.StatusCode, res.Header, body, o.key, o.now())
	}
	opts := []option.RequestOption{
		option.WithHTTPClient(o.http),
		option.WithBaseURL(o.baseURL),
		option.WithAPIKey(o.key),
		option.WithMaxRetries(0),
		option.WithMiddleware(mw),
	}
	for k, v := range o.headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	svc := openai.NewChatCompletionService(opts...)

	params := openai.ChatCompletionNewParams{Model: req.Model}
	if req.System != "" {
		params.Messages = append(params.Messages, openai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		if m.Role == RoleAssistant {
			params.Messages = append(params.Messages, openai.AssistantMessage(m.Content))
		} else if len(m.Images) > 0 {
			params.Messages = append(params.Messages, openai.UserMessage(imageParts(m)))
		} else {
			params.Messages = append(params.Messages, openai.UserMessage(m.Content))
		}
	}
	if req.MaxTokens > 0 {
		if o.maxField == "max_completion_tokens" {
			params.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		} else {
			params.MaxTokens = openai.Int(int64(req.MaxTokens))
		}
	}
	if req.Temperature != nil {
		params.Temperature = openai.Float(*req.Temperature)
	}

	stream := svc.NewStreaming(ctx, params)
	defer stream.Close()
	for stream.Next() {
		chunk := stream.Current()
		readChunkUsage(chunk.RawJSON(), &usage)
		text := ""
		for _, c := range chunk.Choices {
			if c.Index == 0 {
				text += c.Delta.Content
				if c.FinishReason != "" {
					usage.StopReason = strings.ToLower(c.FinishReason)
				}
			}
		}
		if err := fn(Delta{Text: text}); err != nil {
			return usage, err
		}
	}
	if err := stream.Err(); err != nil {
		return usage, o.classify(ctx, req.Model, err)
	}
	switch usage.StopReason {
	case "":
		return usage, &ProviderError{Provider: o.name, Model: req.Model, Kind: ErrStream,
			Message: "the stream ended before the answer was complete"}
	case "content_filter":
		return usage, &ProviderError{Provider: o.name, Model: req.Model, Kind: ErrBlocked,
			Code: "content_filter", Message: "the answer was stopped by the provider's content filter"}
	case "error":
		return usage, &ProviderError{Provider: o.name, Model: req.Model, Kind: ErrUnavailable,
			Message: "the provider reported an error while answering"}
	}
	return usage, nil
}

// classify turns an error of the SDK's stream into a *ProviderError: an HTTP
// error from the middleware as is; an error event inside the stream
// (OpenRouter's {"error":{"code":...,"message":...},"choices":[...
// "finish_reason":"error"}]) by its body; a chunk that is not JSON as
// ErrBadResponse; anything else as a transport failure.
func (o *openAICompat) classify(ctx context.Context, model string, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	var pe *ProviderError
	if errors.As(err, &pe) {
		return pe
	}
	var se *ssestream.StreamError
	if errors.As(err, &se) {
		pe := openAIError(o.name, model, 0, nil, se.Event.Data, o.key, o.now())
		pe.cause = err
		return pe
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syn) || errors.As(err, &typ) {
		return &ProviderError{Provider: o.name, Model: model, Kind: ErrBadResponse,
			Message: "the provider sent a chunk that is not valid JSON", cause: err}
	}
	return transportError(ctx, o.name, model, err)
}

// readChunkUsage reads token counts from a chunk: "usage" (Mistral on its
// last chunk, OpenRouter on a final chunk with no choices, Groq with
// stream_options) or Groq's "x_groq": {"usage": {...}}.
func readChunkUsage(raw string, u *Usage) {
	if !strings.Contains(raw, "usage") {
		return
	}
	type counts struct {
		Prompt     int `json:"prompt_tokens"`
		Completion int `json:"completion_tokens"`
	}
	var c struct {
		Usage *counts `json:"usage"`
		XGroq *struct {
			Usage *counts `json:"usage"`
		} `json:"x_groq"`
	}
	if json.Unmarshal([]byte(raw), &c) != nil {
		return
	}
	got := c.Usage
	if got == nil && c.XGroq != nil {
		got = c.XGroq.Usage
	}
	if got != nil {
		u.InputTokens, u.OutputTokens = got.Prompt, got.Completion
	}
}

// imageParts is a user message with images as a content array: its text,
// then each image's label and the image as an image_url data URL.
func imageParts(m Message) []openai.ChatCompletionContentPartUnionParam {
	parts := []openai.ChatCompletionContentPartUnionParam{openai.TextContentPart(m.Content)}
	for _, im := range m.Images {
		if im.Label != "" {
			parts = append(parts, openai.TextContentPart(im.Label))
		}
		parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: im.DataURL()}))
	}
	return parts
}
