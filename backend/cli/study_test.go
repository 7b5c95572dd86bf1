package cli

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/llm/llmtest"
	"vika/backend/study"
	"vika/backend/testpdf"
)

// satLines is a Groq stream of study lines and cards about sat.pdf
// (askEnv's), one of them citing a page sat.pdf does not have.
var satLines = llmtest.Reply{Chunks: llmtest.OpenAIStream("llama-3.1-8b-instant",
	"SUMMARY: Unit propagation assigns the only remaining literal of a unit clause [sat.pdf p.1]\n",
	"TERM: DPLL :: The DPLL algorithm chooses a branching variable and backtracks chronologically on a conflict [sat.pdf p.2]\n",
	"Q: What does unit propagation do?\nA: It assigns the only remaining literal of a unit clause [sat.pdf p.1]\n",
	"Q: What is on page 7?\nA: Clause learning [sat.pdf p.7]\n")}

// TestStudyGuideCLI: Gemini is rate limited, Groq writes the guide; the
// text names both models and every line is verified.
func TestStudyGuideCLI(t *testing.T) {
	pdf := askEnv(t, func(llmtest.Request) llmtest.Reply { return cliRateLimited }, func(llmtest.Request) llmtest.Reply { return satLines })
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), []string{"study", "guide", "--json", "--pdf", pdf}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errOut.String())
	}
	var g study.Guide
	if err := json.Unmarshal(out.Bytes(), &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Summary) != 1 || len(g.Terms) != 1 || len(g.QAs) != 2 || g.Unverified() != 1 || g.QAs[1].Answer.Check.Reason != "cite.page_not_source" {
		t.Errorf("guide %+v", g)
	}
	if len(g.Models) != 1 || g.Models[0] != "groq/llama-3.1-8b-instant" || !strings.Contains(errOut.String(), "map 1/1") {
		t.Errorf("models %v; stderr %s", g.Models, errOut.String())
	}
}

// TestStudyCardsCLI: the card citing page 7 is refused (told on stderr);
// the deck exports as an Anki package and as Anki's TSV.
func TestStudyCardsCLI(t *testing.T) {
	pdf := askEnv(t, func(llmtest.Request) llmtest.Reply { return cliRateLimited }, func(llmtest.Request) llmtest.Reply { return satLines })
	dir := t.TempDir()
	for _, format := range []string{"apkg", "tsv"} {
		var out, errOut bytes.Buffer
		path := filepath.Join(dir, "cards."+format)
		if code := Run(context.Background(), []string{"study", "cards", "--pdf", pdf, "--export", format, "--out", path}, &out, &errOut); code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut.String())
		}
		if !strings.Contains(errOut.String(), "A card cited [sat.pdf p.7], a page the document does not have: it was refused.") {
			t.Errorf("stderr %s", errOut.String())
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if format == "apkg" {
			if _, err := zip.NewReader(bytes.NewReader(data), int64(len(data))); err != nil {
				t.Errorf("apkg: %v", err)
			}
			continue
		}
		if !strings.Contains(string(data), "#deck:Vika::sat\n") || strings.Count(string(data), "\n") != 7 {
			t.Errorf("tsv:\n%s", data)
		}
	}
}

// TestStudyWithoutModel: cards say plainly that they need a model; the
// plan says the guide will be an extractive outline.
func TestStudyWithoutModel(t *testing.T) {
	pdf := askEnv(t, func(llmtest.Request) llmtest.Reply { return cliRateLimited }, func(llmtest.Request) llmtest.Reply { return satLines })
	for _, k := range []string{"GEMINI_API_KEY", "GROQ_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY"} {
		t.Setenv(k, "")
	}
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), []string{"study", "cards", "--pdf", pdf}, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), "flashcards and quizzes need a language model: add an API key") {
		t.Errorf("exit %d: %s", code, errOut.String())
	}
	out.Reset()
	if code := Run(context.Background(), []string{"study", "plan", "--pdf", pdf}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "extractive outline") {
		t.Errorf("exit %d: %s%s", code, out.String(), errOut.String())
	}
	if code := Run(context.Background(), []string{"study", "guide", "--pdf", pdf, "--export", "pdf", "--out", "x"}, &out, &errOut); code != 2 {
		t.Errorf("a guide exported as pdf: exit %d", code)
	}
}

// cliProse is a reply in no format (no SUMMARY:, TERM: or Q:/A: line),
// as Gemini's and as Groq's stream.
const cliProse = "Sure! This document explains unit propagation and the DPLL algorithm in some detail."

var (
	geminiProse = llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash-lite", cliProse)}
	groqProse   = llmtest.Reply{Chunks: llmtest.OpenAIStream("llama-3.1-8b-instant", cliProse)}
)

// TestStudyUnformattedFallsBack: Gemini replies prose, Groq in the
// format: the guide and the cards are Groq's, and stderr tells that
// Gemini's reply was not in the format asked for and Groq was asked.
// Fails on main: Gemini's prose made an empty guide and an empty deck,
// exit 0.
func TestStudyUnformattedFallsBack(t *testing.T) {
	pdf := askEnv(t, func(llmtest.Request) llmtest.Reply { return geminiProse }, func(llmtest.Request) llmtest.Reply { return satLines })
	for _, what := range []string{"guide", "cards"} {
		var out, errOut bytes.Buffer
		if code := Run(context.Background(), []string{"study", what, "--json", "--pdf", pdf}, &out, &errOut); code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", what, code, out.String(), errOut.String())
		}
		var v struct {
			Summary []study.Line `json:"summary"`
			Cards   []study.Card `json:"cards"`
			Models  []string     `json:"models"`
		}
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		if len(v.Summary)+len(v.Cards) == 0 || len(v.Models) != 1 || v.Models[0] != "groq/llama-3.1-8b-instant" {
			t.Errorf("%s: %s", what, out.String())
		}
		if !strings.Contains(errOut.String(), "vika study: Gemini 2.5 Flash-Lite is unavailable (reply not in the format asked for). Trying Llama 3.1 8B (Groq)") {
			t.Errorf("%s: stderr %s", what, errOut.String())
		}
	}
}

// TestStudyUnformattedFails: every model replies prose: vika study guide
// and vika study cards exit 1 with the reason naming the models whose
// replies were refused (Mistral and OpenRouter, not running, failed
// before answering), print nothing on stdout and write no export. Fails on main: both exited 0 with an empty guide
// or deck (an exported file with no card).
func TestStudyUnformattedFails(t *testing.T) {
	pdf := askEnv(t, func(llmtest.Request) llmtest.Reply { return geminiProse }, func(llmtest.Request) llmtest.Reply { return groqProse })
	out := filepath.Join(t.TempDir(), "cards.tsv")
	for _, args := range [][]string{
		{"study", "guide", "--pdf", pdf},
		{"study", "guide", "--json", "--pdf", pdf},
		{"study", "cards", "--pdf", pdf, "--export", "tsv", "--out", out},
	} {
		var stdout, errOut bytes.Buffer
		code := Run(context.Background(), args, &stdout, &errOut)
		if code != 1 || stdout.Len() != 0 || !strings.Contains(errOut.String(), "the model's reply did not follow the format asked for: no "+map[string]string{"guide": "SUMMARY:, TERM: or Q:/A: line", "cards": "Q:/A: pair"}[args[1]]+" in the reply of Gemini 2.5 Flash-Lite, Llama 3.1 8B (Groq), Gemini 2.5 Flash") {
			t.Errorf("%v: exit %d\nstdout: %s\nstderr: %s", args[1:3], code, stdout.String(), errOut.String())
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an export was written: %v", err)
	}
}

// TestStudyCourseCLI: --doc twice studies both documents as one, --all
// every document added: one map request whose sources are both files',
// and the guide's lines cite each; --section with several is refused.
func TestStudyCourseCLI(t *testing.T) {
	var prompts []string
	pdf := askEnv(t, func(r llmtest.Request) llmtest.Reply {
		prompts = append(prompts, r.Body)
		return llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash-lite",
			"SUMMARY: Unit propagation assigns the only remaining literal of a unit clause [sat.pdf p.1]\n",
			"SUMMARY: The chemical potential of a species is the partial derivative of the Gibbs energy [thermo.pdf p.1]\n")}
	}, func(llmtest.Request) llmtest.Reply { return satLines })
	other := filepath.Join(t.TempDir(), "thermo.pdf")
	if err := os.WriteFile(other, testpdf.Text("The chemical potential of a species is the partial derivative of the Gibbs energy with respect to its amount."), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--doc", "sat", "--doc", "thermo"}, {"--all"}} {
		prompts = nil
		var out, errOut bytes.Buffer
		argv := append([]string{"study", "guide", "--json", "--pdf", pdf, "--pdf", other}, args...)
		if code := Run(context.Background(), argv, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut.String())
		}
		var g study.Guide
		if err := json.Unmarshal(out.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		if len(prompts) != 1 || !strings.Contains(prompts[0], `cite=\"[sat.pdf p.1]\"`) || !strings.Contains(prompts[0], `cite=\"[thermo.pdf p.1]\"`) {
			t.Errorf("%v: %d requests: %.600s", args, len(prompts), prompts)
		}
		if len(g.Docs) != 2 || g.DocID != "" || len(g.Summary) != 2 || g.Unverified() != 0 {
			t.Fatalf("%v: guide %+v", args, g)
		}
		for i, file := range []string{"sat.pdf", "thermo.pdf"} {
			d := g.Docs[0]
			if d.File != file {
				d = g.Docs[1]
			}
			if c := g.Summary[i].Check; c.DocID != d.DocID || d.File != file {
				t.Errorf("%v: line %d cites %s, %+v", args, i, c.Label, d)
			}
		}
	}
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), []string{"study", "plan", "--pdf", pdf, "--pdf", other, "--all", "--section", "Intro"}, &out, &errOut); code != 2 {
		t.Errorf("--all --section: exit %d, %s", code, errOut.String())
	}
}
