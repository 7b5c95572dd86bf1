package llm

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Ollama's wire format: /api/chat streams NDJSON, one object per line.
var (
	ollamaStream = []string{
		`{"model":"llama3.2","created_at":"2025-08-01T12:00:00.123456789Z","message":{"role":"assistant","content":"2-SAT is"},"done":false}` + "\n",
		`{"model":"llama3.2","created_at":"2025-08-01T12:00:00.223456789Z","message":{"role":"assistant","content":" in P."},"done":false}` + "\n",
		`{"model":"llama3.2","created_at":"2025-08-01T12:00:00.323456789Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"total_duration":4883583458,"load_duration":1334875,"prompt_eval_count":31,"prompt_eval_duration":342546000,"eval_count":8,"eval_duration":4535599000}` + "\n",
	}
	ollamaFirst = ollamaStream[0]
)

const (
	ollamaNotPulled = `{"error":"model \"llama9\" not found, try pulling it first"}`
	ollamaBusy      = `{"error":"server busy, please try again.  maximum pending requests exceeded"}`
	ollamaCrashed   = `{"error":"llama runner process has terminated: signal: killed"}`
	ollamaSignin    = `{"error":"unauthorized","signin_url":"https://ollama.com/connect?name=vika&key=c3NoLWVkMjU1MTk"}`
	ollamaMidError  = `{"error":"an error was encountered while running the model: unexpected EOF"}` + "\n"
	ollamaTagsBody  = `{"models":[
 {"name":"llama3.2:latest","model":"llama3.2:latest","modified_at":"2025-07-30T10:00:00.000000+02:00","size":2019393189,"digest":"a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72","details":{"parent_model":"","format":"gguf","family":"llama","families":["llama"],"parameter_size":"3.2B","quantization_level":"Q4_K_M"}},
 {"name":"llama3.3:70b","model":"llama3.3:70b","modified_at":"2025-07-29T10:00:00.000000+02:00","size":42520413916,"digest":"a6eb4748fd2990ad2952b2335a95a7f952d1a06119a0aa6a2df6cd052a93a3fa","details":{"parent_model":"","format":"gguf","family":"llama","families":["llama"],"parameter_size":"70.6B","quantization_level":"Q4_K_M"}},
 {"name":"nomic-embed-text:latest","model":"nomic-embed-text:latest","modified_at":"2025-07-28T10:00:00.000000+02:00","size":274302450,"digest":"0a109f422b47e3a30ba2b10eca18548e944e8a23073ee3f3e947efcf3c45e59f","details":{"parent_model":"","format":"gguf","family":"nomic-bert","families":["nomic-bert"],"parameter_size":"137M","quantization_level":"F16"}}]}`
)

func ollamaFake(t *testing.T, rep reply) (*fakeServer, *ollama) {
	f := newFakeServer(t, "application/x-ndjson", func(r recorded) reply {
		if r.Path == "/api/tags" {
			return reply{Body: ollamaTagsBody}
		}
		return rep
	})
	return f, &ollama{name: "ollama", baseURL: f.URL, numCtx: 8192, http: NewHTTPClient(2 * time.Second)}
}

func TestOllamaStream(t *testing.T) {
	f, p := ollamaFake(t, reply{Chunks: ollamaStream})
	got := collect(t, p, testRequest, 0)
	if got.err != nil {
		t.Fatal(got.err)
	}
	if got.text != "2-SAT is in P." {
		t.Errorf("text = %q", got.text)
	}
	if diff := cmp.Diff(Usage{InputTokens: 31, OutputTokens: 8, StopReason: "stop"}, got.usage); diff != "" {
		t.Errorf("usage (-want +got):\n%s", diff)
	}
	req := f.Last()
	if req.Method != "POST" || req.Path != "/api/chat" {
		t.Errorf("request %s %s", req.Method, req.Path)
	}
	var body ollamaChatRequest
	if err := json.Unmarshal([]byte(req.Body), &body); err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range body.Messages {
		roles = append(roles, m.Role)
	}
	if !body.Stream || body.Model != "m" || body.Options["num_ctx"] != 8192.0 || body.Options["num_predict"] != 256.0 || body.Options["temperature"] != 0.2 {
		t.Errorf("body = %s", req.Body)
	}
	if diff := cmp.Diff([]string{"system", "user", "assistant", "user"}, roles); diff != "" {
		t.Errorf("roles (-want +got):\n%s", diff)
	}
}

func TestOllamaErrors(t *testing.T) {
	tests := []struct {
		name      string
		rep       reply
		kind      error
		status    int
		wantText  string
		firstWait time.Duration
	}{
		{name: "model not pulled", rep: reply{Status: 404, Body: ollamaNotPulled}, kind: ErrModelNotFound, status: 404},
		{name: "server busy", rep: reply{Status: 503, Body: ollamaBusy}, kind: ErrUnavailable, status: 503},
		{name: "runner crashed", rep: reply{Status: 500, Body: ollamaCrashed}, kind: ErrUnavailable, status: 500},
		{name: "cloud model needs sign-in", rep: reply{Status: 401, Body: ollamaSignin}, kind: ErrAuth, status: 401},
		{name: "rate limited", rep: reply{Status: 429, Body: `{"error":"too many requests"}`, Header: map[string]string{"Retry-After": "3"}}, kind: ErrRateLimited, status: 429},
		{name: "error line mid-stream", rep: reply{Chunks: []string{ollamaFirst, ollamaMidError}}, kind: ErrUnavailable, wantText: "2-SAT is"},
		{name: "malformed line", rep: reply{Chunks: []string{ollamaFirst, `{"model":"llama3.2","message":{"role":"assistant","content":"in` + "\n"}}, kind: ErrBadResponse, wantText: "2-SAT is"},
		{name: "disconnect mid-stream", rep: reply{Chunks: []string{ollamaFirst}, Hangup: true}, kind: ErrStream, wantText: "2-SAT is"},
		{name: "ends without done", rep: reply{Chunks: []string{ollamaFirst}}, kind: ErrStream, wantText: "2-SAT is"},
		{name: "slow first token (model loading)", rep: reply{FirstDelay: 10 * time.Second, Chunks: ollamaStream}, kind: ErrTimeout, firstWait: 300 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, p := ollamaFake(t, tt.rep)
			got := collect(t, p, testRequest, tt.firstWait)
			pe := wantKind(t, got.err, tt.kind)
			if pe.Status != tt.status {
				t.Errorf("status = %d, want %d (%v)", pe.Status, tt.status, pe)
			}
			if got.text != tt.wantText {
				t.Errorf("text before the error = %q, want %q", got.text, tt.wantText)
			}
		})
	}
}

func TestOllamaNotRunning(t *testing.T) {
	srv := httptest.NewServer(nil)
	url := srv.URL
	srv.Close() // nothing listens there any more
	p := &ollama{name: "ollama", baseURL: url, http: NewHTTPClient(2 * time.Second)}
	got := collect(t, p, testRequest, 0)
	pe := wantKind(t, got.err, ErrUnavailable)
	if !pe.ProviderWide || !strings.Contains(pe.Message, "Ollama is not running at "+url) {
		t.Errorf("error = %+v", pe)
	}
	if _, err := p.List(t.Context()); err == nil {
		t.Error("List of a stopped Ollama succeeded")
	}
}

func TestOllamaList(t *testing.T) {
	_, p := ollamaFake(t, reply{})
	got, err := p.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := []ollamaModel{{Name: "llama3.2:latest", ParamsB: 3.2}, {Name: "llama3.3:70b", ParamsB: 70.6}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("models (-want +got):\n%s", diff)
	}
	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	if m := cat.localModel("ollama", got[0]); m.Tier != 1 || !m.Local || m.Key() != "ollama/llama3.2:latest" || m.FirstTokenS != 180 {
		t.Errorf("llama3.2 = %+v", m)
	}
	if m := cat.localModel("ollama", got[1]); m.Tier != 3 {
		t.Errorf("llama3.3:70b tier = %d, want 3", m.Tier)
	}
}
