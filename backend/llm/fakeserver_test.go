package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// reply is what a fake provider answers to one request.
type reply struct {
	status     int               // 0: 200
	header     map[string]string // extra response headers (Retry-After, ...)
	body       string            // a whole body (error responses)
	chunks     []string          // streamed pieces, each written then flushed
	firstDelay time.Duration     // wait after the headers, before the first chunk
	hangup     bool              // drop the connection after the chunks (no clean end)
}

// recorded is one request the fake received.
type recorded struct {
	Method, Path, Query string
	Header              http.Header
	Body                string
}

// fakeServer is a local HTTP server that answers with replies chosen per
// request (by path and body), speaking whatever format the reply holds.
type fakeServer struct {
	*httptest.Server
	contentType string
	route       func(r recorded) reply

	mu       sync.Mutex
	requests []recorded // guarded by mu
}

func newFakeServer(t *testing.T, contentType string, route func(r recorded) reply) *fakeServer {
	t.Helper()
	f := &fakeServer{contentType: contentType, route: route}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	rec := recorded{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: string(b)}
	f.mu.Lock()
	f.requests = append(f.requests, rec)
	f.mu.Unlock()

	rep := f.route(rec)
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	status := rep.status
	if status == 0 {
		status = http.StatusOK
	}
	if rep.body != "" {
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		io.WriteString(w, rep.body)
		return
	}
	w.Header().Set("Content-Type", f.contentType)
	w.WriteHeader(status)
	fl := w.(http.Flusher)
	fl.Flush()
	if rep.firstDelay > 0 {
		select {
		case <-time.After(rep.firstDelay):
		case <-r.Context().Done():
			return
		}
	}
	for _, c := range rep.chunks {
		if _, err := io.WriteString(w, c); err != nil {
			return
		}
		fl.Flush()
	}
	if rep.hangup {
		panic(http.ErrAbortHandler) // closes the connection mid-response
	}
}

func (f *fakeServer) last() recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.requests) == 0 {
		return recorded{}
	}
	return f.requests[len(f.requests)-1]
}

func (f *fakeServer) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

// sse frames each JSON event as Server-Sent Events with sep between
// events ("\n\n", or "\r\n\r\n" as Gemini sends).
func sse(sep string, events ...string) []string {
	out := make([]string, len(events))
	for i, e := range events {
		if strings.HasPrefix(e, ":") { // an SSE comment line
			out[i] = e + sep
		} else {
			out[i] = "data: " + e + sep
		}
	}
	return out
}

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
