// Package llmtest serves fake language-model providers over local HTTP for
// tests: a Server answers each request with a Reply chosen by a route
// function (status, headers, a whole body, or chunks streamed and flushed
// one by one, after an optional delay, with an optional mid-stream hang-up),
// and the builders in wire.go write the real wire formats of Gemini, the
// OpenAI-compatible APIs (Mistral, Groq, OpenRouter) and Ollama. It imports
// nothing of Vika, so both package llm's own tests and its users' tests
// (rag, cli) can use it.
package llmtest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Reply is what a fake provider answers to one request.
type Reply struct {
	Status     int               // 0: 200
	Header     map[string]string // extra response headers (Retry-After, ...)
	Body       string            // a whole body (error responses), sent as JSON
	Chunks     []string          // streamed pieces, each written then flushed
	FirstDelay time.Duration     // wait after the headers, before the first chunk
	ChunkDelay time.Duration     // wait between two chunks
	Hangup     bool              // drop the connection after the chunks (no clean end)
}

// Request is one request a Server received.
type Request struct {
	Method, Path, Query string
	Header              http.Header
	Body                string
}

// Server is a local HTTP server answering with replies chosen per request
// (by path and body), streamed with its content type.
type Server struct {
	*httptest.Server
	contentType string
	route       func(r Request) Reply

	mu       sync.Mutex
	requests []Request // guarded by mu
}

// NewServer starts a Server closed at the end of the test. contentType is
// the streams' ("text/event-stream", "application/x-ndjson").
func NewServer(t testing.TB, contentType string, route func(r Request) Reply) *Server {
	t.Helper()
	f := &Server{contentType: contentType, route: route}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// Closed returns the URL of a server that no longer listens: a provider
// (Ollama, say) that is not running.
func Closed() string {
	s := httptest.NewServer(nil)
	s.Close()
	return s.URL
}

func (f *Server) serve(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	rec := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: string(b)}
	f.mu.Lock()
	f.requests = append(f.requests, rec)
	f.mu.Unlock()

	rep := f.route(rec)
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
	}
	if rep.Body != "" {
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		io.WriteString(w, rep.Body)
		return
	}
	w.Header().Set("Content-Type", f.contentType)
	w.WriteHeader(status)
	fl := w.(http.Flusher)
	fl.Flush()
	if rep.FirstDelay > 0 {
		select {
		case <-time.After(rep.FirstDelay):
		case <-r.Context().Done():
			return
		}
	}
	for i, c := range rep.Chunks {
		if i > 0 && rep.ChunkDelay > 0 {
			select {
			case <-time.After(rep.ChunkDelay):
			case <-r.Context().Done():
				return
			}
		}
		if _, err := io.WriteString(w, c); err != nil {
			return
		}
		fl.Flush()
	}
	if rep.Hangup {
		panic(http.ErrAbortHandler) // closes the connection mid-response
	}
}

// Last returns the last request received (zero when none).
func (f *Server) Last() Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.requests) == 0 {
		return Request{}
	}
	return f.requests[len(f.requests)-1]
}

// Count returns the number of requests received.
func (f *Server) Count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

// Requests returns a copy of the requests received, in order.
func (f *Server) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.requests...)
}

// SSE frames each JSON event as Server-Sent Events with sep between events
// ("\n\n", or "\r\n\r\n" as Gemini sends). An event starting with ":" is
// an SSE comment line.
func SSE(sep string, events ...string) []string {
	out := make([]string, len(events))
	for i, e := range events {
		if strings.HasPrefix(e, ":") {
			out[i] = e + sep
		} else {
			out[i] = "data: " + e + sep
		}
	}
	return out
}
