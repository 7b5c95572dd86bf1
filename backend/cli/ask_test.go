package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/llm/llmtest"
	"vika/backend/rag"
	"vika/backend/testpdf"
)

// askEnv points every provider at a local fake (Gemini, Groq) or at a
// closed port (Mistral, OpenRouter, Ollama), with fake keys in the
// environment so that the system keyring is never read, and writes
// sat.pdf. It returns the PDF's path.
func askEnv(t *testing.T, gemini, groq func(llmtest.Request) llmtest.Reply) string {
	t.Helper()
	g := llmtest.NewServer(t, "text/event-stream", gemini)
	q := llmtest.NewServer(t, "text/event-stream", groq)
	closed := llmtest.Closed()
	for k, v := range map[string]string{
		"GEMINI_API_KEY": "AIzaSyFAKE-cli-test-key-0123456789", "GROQ_API_KEY": "gsk_cliFAKEKEY0123456789",
		"MISTRAL_API_KEY": "mistralFAKEKEY0123456789", "OPENROUTER_API_KEY": "sk-or-v1-cliFAKEKEY0123456789",
		"VIKA_GEMINI_BASE_URL": g.URL, "VIKA_GROQ_BASE_URL": q.URL + "/openai/v1",
		"VIKA_MISTRAL_BASE_URL": closed, "VIKA_OPENROUTER_BASE_URL": closed, "VIKA_OLLAMA_BASE_URL": closed,
		"VIKA_ABSTAIN_MIN_BM25": "",
	} {
		t.Setenv(k, v)
	}
	path := filepath.Join(t.TempDir(), "sat.pdf")
	pdf := testpdf.Text(
		"Unit propagation assigns the only remaining literal of a unit clause and repeats until no unit clause is left.",
		"The DPLL algorithm chooses a branching variable, assigns it and backtracks chronologically on a conflict.")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var (
	cliRateLimited = llmtest.Reply{Status: 429, Body: llmtest.GeminiRateLimit}
	cliGroqAnswer  = llmtest.Reply{Chunks: llmtest.OpenAIStream("llama-3.1-8b-instant",
		"Unit propagation assigns the only remaining literal ", "of a unit clause [sat.pdf p.1].")}
)

// TestAskFallbackOutput: Gemini answers 429, Groq answers: stdout has the
// answer then the footer naming Groq and the chain; stderr the notice
// naming Gemini.
func TestAskFallbackOutput(t *testing.T) {
	pdf := askEnv(t, func(llmtest.Request) llmtest.Reply { return cliRateLimited },
		func(llmtest.Request) llmtest.Reply { return cliGroqAnswer })
	var out, errOut bytes.Buffer
	code := Run(context.Background(), []string{"ask", "--mode", "bm25", "--pdf", pdf, "What does unit propagation do?"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	want := "Unit propagation assigns the only remaining literal of a unit clause [sat.pdf p.1].\n\n" +
		"Model used: Llama 3.1 8B (Groq) (groq/llama-3.1-8b-instant); fallback chain: gemini/gemini-2.5-flash-lite (rate limited) → groq/llama-3.1-8b-instant\n"
	if out.String() != want {
		t.Errorf("stdout:\n%q\nwant\n%q", out.String(), want)
	}
	if !strings.Contains(errOut.String(), "vika ask: Gemini 2.5 Flash-Lite is unavailable (rate limited (429), retry in 43s). Trying Llama 3.1 8B (Groq)") {
		t.Errorf("stderr:\n%s", errOut.String())
	}
	t.Logf("stdout:\n%sstderr:\n%s", out.String(), errOut.String())
}

// TestAskJSON: --json prints the rag.Answer.
func TestAskJSON(t *testing.T) {
	pdf := askEnv(t, func(llmtest.Request) llmtest.Reply { return cliRateLimited },
		func(llmtest.Request) llmtest.Reply { return cliGroqAnswer })
	var out, errOut bytes.Buffer
	code := Run(context.Background(), []string{"ask", "--json", "--mode", "bm25", "-k", "3", "--pdf", pdf, "What does unit propagation do?"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var a rag.Answer
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if a.ModelUsed != "groq/llama-3.1-8b-instant" || a.Kind != rag.KindLLM || len(a.FallbackChain) != 2 || len(a.Citations) != 1 ||
		!a.Citations[0].Verified || a.Metrics.QueryIndex != 1 || len(a.Notices) != 1 {
		t.Errorf("answer %+v", a)
	}
	for _, key := range []string{"AIzaSyFAKE", "gsk_cli", "mistralFAKE", "sk-or-v1"} {
		if strings.Contains(out.String()+errOut.String(), key) {
			t.Errorf("output holds the key %s", key)
		}
	}
}

// TestAskEveryModelFails: every model is rate limited or unreachable:
// exit 1 and a sentence naming what happened to each.
func TestAskEveryModelFails(t *testing.T) {
	pdf := askEnv(t, func(llmtest.Request) llmtest.Reply { return cliRateLimited },
		func(llmtest.Request) llmtest.Reply {
			return llmtest.Reply{Status: 429, Body: llmtest.OpenAIError("Rate limit reached on requests per minute (RPM)", "requests", "rate_limit_exceeded")}
		})
	var out, errOut bytes.Buffer
	code := Run(context.Background(), []string{"ask", "--mode", "bm25", "--pdf", pdf, "What does unit propagation do?"}, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "vika ask: No model could answer: Gemini 2.5 Flash-Lite was rate limited; Llama 3.1 8B (Groq) was rate limited; Ministral 3 8B was unavailable") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
}

// TestAskManualAndIngestErrors: a manual model; a file that is not a PDF
// is reported and the others still answer; usage errors exit 2.
func TestAskManualAndIngestErrors(t *testing.T) {
	pdf := askEnv(t, func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash", "Unit propagation assigns the only remaining literal of a unit clause [sat.pdf p.1].")}
	}, nil)
	bad := filepath.Join(t.TempDir(), "notes.pdf")
	os.WriteFile(bad, []byte("just notes"), 0o644)
	var out, errOut bytes.Buffer
	code := Run(context.Background(), []string{"ask", "--provider", "gemini", "--model", "gemini-2.5-flash", "--mode", "bm25",
		"--pdf", bad, "--pdf", pdf, "What does unit propagation do?"}, &out, &errOut)
	if code != 0 || !strings.Contains(out.String(), "Model used: Gemini 2.5 Flash (gemini/gemini-2.5-flash)") ||
		!strings.Contains(errOut.String(), "vika ask: could not add "+bad) {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	for _, args := range [][]string{
		{"ask", "--pdf", pdf},
		{"ask", "question"},
		{"ask", "--provider", "gemini", "--pdf", pdf, "q"},
		{"ask", "--auto", "--provider", "gemini", "--model", "x", "--pdf", pdf, "q"},
		{"ask", "-k", "0", "--pdf", pdf, "q"},
	} {
		if code := Run(context.Background(), args, &out, &errOut); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
