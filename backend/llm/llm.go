// Package llm streams answers from language models. It holds the providers
// (Gemini, Mistral, Groq and OpenRouter in the cloud, a local Ollama), each
// speaking its real wire format; the model catalogue, which is data
// (models.json); the router, which scores a question's complexity and orders
// the available models; and the runner, which streams from the first model
// and falls back to the next one when a model is rate-limited, out of quota
// or unavailable before its first token.
//
// Call sites read: llm.New(cfg, keys).Ask(ctx, query, request, sink).
package llm

import (
	"context"
	"encoding/base64"
)

// Role is who wrote a message of the conversation.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one turn of the conversation sent to a model. Images go
// with a user message to a vision-capable model (Model.Vision), after its
// text, each preceded by its label as a text part; a provider sends them
// in its own wire format (Gemini inline_data parts, OpenAI-compatible
// image_url data URLs, Ollama's images).
type Message struct {
	Role    Role    `json:"role"`
	Content string  `json:"content"`
	Images  []Image `json:"-"`
}

// Image is a picture sent with a message: a figure's or table's crop.
type Image struct {
	MIME  string // "image/png" or "image/jpeg"
	Data  []byte
	Label string // what the picture is, e.g. "Figure source [3] [resnet.pdf p.6]"; "" for none
}

// DataURL is the image as a data: URL ("data:image/png;base64,...").
func (im Image) DataURL() string {
	return "data:" + im.MIME + ";base64," + base64.StdEncoding.EncodeToString(im.Data)
}

// Request is what a provider sends to a model. System is sent as each
// provider's system instruction.
type Request struct {
	Model       string    // the provider's model id, e.g. "gemini-2.5-flash"
	System      string    // system instruction ("" for none)
	Messages    []Message // the conversation, oldest first, ending with the question
	MaxTokens   int       // output-token cap; the runner lowers it to the model's (Model.MaxOutputTokens)
	Temperature *float64  // nil: the provider's default
}

// Temperature returns a pointer to t, for Request.Temperature.
func Temperature(t float64) *float64 { return &t }

// Delta is one piece of a streamed answer. A provider may pass a Delta with
// empty Text (reasoning tokens, keep-alive chunks): it is not forwarded
// and resets no timer (see StreamTimed).
// Footer marks the runner's closing "Model used: ..." line.
type Delta struct {
	Text   string `json:"text"`
	Footer bool   `json:"footer,omitempty"`
}

// Usage is what a finished (or failed) stream reports.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// StopReason is the provider's finish reason, normalised to lower case
	// ("stop", "length", "max_tokens", "safety"...); "" when the stream
	// did not finish.
	StopReason string `json:"stop_reason,omitempty"`
}

// Provider streams an answer from one of its models.
//
// Stream calls fn with each piece of text in order; an error from fn stops
// the stream and is returned as is. Every other error is a *ProviderError
// wrapping one of the sentinel errors (ErrRateLimited, ErrQuota, ...), or
// the context's error when ctx ends. Stream never retries.
type Provider interface {
	Name() string
	Stream(ctx context.Context, req Request, fn func(Delta) error) (Usage, error)
}
