package llm

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"vika/backend/llm/llmtest"
)

// The fake provider server lives in package llmtest, shared with the
// tests of the packages that use llm (rag, cli).
type (
	reply      = llmtest.Reply
	recorded   = llmtest.Request
	fakeServer = llmtest.Server
)

var (
	newFakeServer = llmtest.NewServer
	sse           = llmtest.SSE
)

// streamResult is what a test stream gathered.
type streamResult struct {
	text  string
	usage Usage
	err   error
}

// collect streams req from p, with timeouts, gathering the text.
func collect(t *testing.T, p Provider, req Request, firstToken time.Duration) streamResult {
	t.Helper()
	if firstToken == 0 {
		firstToken = 5 * time.Second
	}
	var b strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	u, err := StreamTimed(ctx, p, req, firstToken, 5*time.Second, func(d Delta) error {
		b.WriteString(d.Text)
		return nil
	})
	return streamResult{text: b.String(), usage: u, err: err}
}

// wantKind checks that err is a *ProviderError of that kind.
func wantKind(t *testing.T, err error, kind error) *ProviderError {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("error = %v, want kind %v", err, kind)
	}
	var pe *ProviderError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *ProviderError", err, err)
	}
	return pe
}

var testRequest = Request{
	Model:       "m",
	System:      "Answer from the passages only.",
	Messages:    []Message{{Role: RoleUser, Content: "What is 2-SAT?"}, {Role: RoleAssistant, Content: "A problem."}, {Role: RoleUser, Content: "Is it in P?"}},
	MaxTokens:   256,
	Temperature: Temperature(0.2),
}
