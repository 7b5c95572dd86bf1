package llm

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"vika/backend/llm/llmtest"
)

// endless serves contentType and writes chunk until the client goes away
// (at most limit bytes), counting what the connection accepted.
func endless(t *testing.T, status int, contentType, head, chunk string, limit int64) (*httptest.Server, *atomic.Int64) {
	var wrote atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		fmt.Fprint(w, head)
		for wrote.Load() < limit {
			n, err := fmt.Fprint(w, chunk)
			wrote.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &wrote
}

// TestSSEEndlessEvent: an SSE event of endless data: lines stops at
// MaxEventBytes (openai-go would gather it whole).
func TestSSEEndlessEvent(t *testing.T) {
	srv, wrote := endless(t, 200, "text/event-stream", "", "data: "+strings.Repeat("a", 1000)+"\n", 1<<30)
	p := &openAICompat{name: "groq", baseURL: srv.URL, key: "gsk_FAKE", http: NewHTTPClient(2 * time.Second), now: time.Now}
	got := collect(t, p, testRequest, 0)
	pe := wantKind(t, got.err, ErrBadResponse)
	if pe != nil && !strings.Contains(pe.Message, "an event of more than 1024 KB") {
		t.Errorf("message = %q", pe.Message)
	}
	if w := wrote.Load(); w > 64<<20 {
		t.Errorf("the server wrote %d MB before the client stopped", w>>20)
	}
}

// TestNDJSONEndlessLine: an Ollama line that never ends stops at
// MaxLineBytes.
func TestNDJSONEndlessLine(t *testing.T) {
	srv, _ := endless(t, 200, "application/x-ndjson", `{"message":{"content":"`, strings.Repeat("a", 4096), 1<<30)
	p := &ollama{name: "ollama", baseURL: srv.URL, http: NewHTTPClient(2 * time.Second)}
	got := collect(t, p, testRequest, 0)
	pe := wantKind(t, got.err, ErrBadResponse)
	if pe != nil && !strings.Contains(pe.Message, "a line of more than 1024 KB") {
		t.Errorf("message = %q", pe.Message)
	}
}

// TestGeminiHugeErrorBody: Google's SDK reads an error body whole; the
// transport hands it MaxErrorBodyBytes and the status still classifies it.
func TestGeminiHugeErrorBody(t *testing.T) {
	srv, wrote := endless(t, 503, "text/plain", "", strings.Repeat("overloaded ", 1000), 512<<20)
	p := &gemini{name: "gemini", baseURL: srv.URL, key: "AIzaFAKE", http: NewHTTPClient(2 * time.Second)}
	got := collect(t, p, testRequest, 0)
	wantKind(t, got.err, ErrUnavailable)
	if w := wrote.Load(); w > 64<<20 {
		t.Errorf("the server wrote %d MB of error body before the client stopped", w>>20)
	}
}

// TestRedirectRefused: a provider's redirect is not followed, so its
// x-goog-api-key never reaches the other host.
func TestRedirectRefused(t *testing.T) {
	var leaked atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-goog-api-key") != "" {
			leaked.Add(1)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, c := range llmtest.GeminiStream("m", "hello") {
			fmt.Fprint(w, c)
		}
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	p := &gemini{name: "gemini", baseURL: srv.URL, key: "AIzaFAKEKEY", http: NewHTTPClient(2 * time.Second)}
	got := collect(t, p, testRequest, 0)
	pe := wantKind(t, got.err, ErrBadResponse)
	if pe != nil && !strings.Contains(pe.Message, "redirect") {
		t.Errorf("message = %q", pe.Message)
	}
	if leaked.Load() > 0 {
		t.Error("the key followed the redirect to another host")
	}
}

// ollamaService is a Service whose Ollama is at url.
func ollamaService(t *testing.T, url string) *Service {
	t.Helper()
	cat, _ := LoadCatalogue()
	cfg, err := ConfigFromEnv(cat, func(k string) string {
		if k == "VIKA_OLLAMA_BASE_URL" {
			return url
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	return New(cfg, fakeKeys{})
}

func localModels(ms []ModelStatus) []string {
	var out []string
	for _, m := range ms {
		if m.Provider == "ollama" {
			out = append(out, m.ID)
		}
	}
	return out
}

// TestOllamaOffUntilTurnedOn: a server at Ollama's address is sent nothing
// until the student turns Ollama on.
func TestOllamaOffUntilTurnedOn(t *testing.T) {
	f, _ := ollamaFake(t, reply{Chunks: ollamaStream})
	svc := ollamaService(t, f.URL)
	if got := localModels(svc.Models(t.Context())); len(got) != 0 {
		t.Errorf("models listed while off: %v", got)
	}
	if _, err := svc.Provider(t.Context(), "ollama"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Provider(ollama) while off: %v", err)
	}
	if n := f.Count(); n != 0 {
		t.Fatalf("%d requests reached the server while Ollama was off", n)
	}
	if svc.LocalEndpoint() != f.URL {
		t.Errorf("endpoint = %q, want %q", svc.LocalEndpoint(), f.URL)
	}
	svc.SetLocal(true)
	if got := localModels(svc.Models(t.Context())); len(got) != 2 {
		t.Errorf("models once on: %v", got)
	}
}

// TestOllamaModelNamesValidated: names with controls, markup, spaces or
// ".." are dropped from the listing.
func TestOllamaModelNamesValidated(t *testing.T) {
	names := []string{"llama3.2:latest", "hf.co/bartowski/Llama-3.2-1B-GGUF:Q4_K_M", "evil\nname", "<img src=x>", "a b", "../../etc", strings.Repeat("x", 201), "\u202eevil"}
	var body strings.Builder
	body.WriteString(`{"models":[`)
	for i, n := range names {
		if i > 0 {
			body.WriteString(",")
		}
		fmt.Fprintf(&body, `{"name":%q,"details":{"family":"llama","parameter_size":"3B"}}`, n)
	}
	body.WriteString("]}")
	f := newFakeServer(t, "application/json", func(r recorded) reply { return reply{Body: body.String()} })
	o := &ollama{name: "ollama", baseURL: f.URL, http: NewHTTPClient(2 * time.Second)}
	ms, err := o.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.Name)
	}
	if strings.Join(got, "|") != "llama3.2:latest|hf.co/bartowski/Llama-3.2-1B-GGUF:Q4_K_M" {
		t.Errorf("kept %q", got)
	}
}

// TestParseProcAddr reads /proc/net/tcp{,6} addresses.
func TestParseProcAddr(t *testing.T) {
	for in, want := range map[string]string{
		"0100007F:2CAA":                         "127.0.0.1:11434",
		"00000000:0050":                         "0.0.0.0:80",
		"00000000000000000000000001000000:2CAA": "[::1]:11434",
		"0000000000000000FFFF00000100007F:1F90": "127.0.0.1:8080",
	} {
		got, ok := parseProcAddr(in)
		if !ok || got != netip.MustParseAddrPort(want) {
			t.Errorf("parseProcAddr(%s) = %v %v, want %s", in, got, ok, want)
		}
	}
}

// fakeOllamaPy is a fake Ollama answering /api/tags, run as another user.
const fakeOllamaPy = `
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        b = sys.argv[2].encode()
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(b))); self.end_headers(); self.wfile.write(b)
    def do_POST(self): self.do_GET()
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
`

// TestOllamaOtherUserRefused: a fake Ollama run by another user (uid
// 65534, "nobody") on this machine is refused even when Ollama is on.
func TestOllamaOtherUserRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("starting a server as another user needs root; TestParseProcAddr and TestOllamaOffUntilTurnedOn cover the rest")
	}
	py := "/usr/bin/python3" // not a user's shim, which another user may not run
	if _, err := os.Stat(py); err != nil {
		t.Skip("python3 is not installed: no server can be started as another user")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(py, "-c", fakeOllamaPy, fmt.Sprint(port), ollamaTagsBody)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	cmd.Dir = "/"
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for i := 0; ; i++ {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			break
		}
		if i == 100 {
			t.Fatalf("the fake Ollama did not start: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	svc := ollamaService(t, "http://"+addr)
	svc.SetLocal(true)
	if got := localModels(svc.Models(t.Context())); len(got) != 0 {
		t.Errorf("models of another user's server listed: %v", got)
	}
	p := &ollama{name: "ollama", baseURL: "http://" + addr, http: NewHTTPClient(2 * time.Second)}
	got := collect(t, p, testRequest, 0)
	pe := wantKind(t, got.err, ErrUnavailable)
	if pe != nil && !strings.Contains(pe.Message, "run by another user (uid 65534)") {
		t.Errorf("message = %q", pe.Message)
	}
}
