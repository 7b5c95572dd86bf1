package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/convert/converttest"
	"vika/backend/ingest"
	"vika/backend/llm/llmtest"
	"vika/backend/rag"
)

// TestAskSlideDeckAndWordFile: a question about a slide deck (pptx) and a
// Word file (docx), both written by LibreOffice, is answered citing the
// slide ("[cours3.pptx slide 2]") and the page ("[fiche.docx p.2]"): the
// prompt's sources carry those labels, the citations are verified
// against the converted pages, and they name the files' own ids.
func TestAskSlideDeckAndWordFile(t *testing.T) {
	soffice := converttest.Soffice(t)
	dir := t.TempDir()
	slides := [][]string{
		{"Glycolysis overview", "Hexokinase phosphorylates glucose into glucose six phosphate."},
		{"Pyruvate fate", "Anaerobic muscle reduces pyruvate into lactate when oxygen is scarce."},
		{"Krebs cycle", "Citrate synthase condenses acetyl coenzyme with oxaloacetate."},
	}
	pages := [][]string{
		{"Exercise sheet four", "Explain the Michaelis constant of hexokinase."},
		{"Answers", "Glucokinase in hepatocytes tolerates high glucose concentrations."},
	}
	files := map[string][]byte{
		"cours3.pptx": converttest.Save(t, soffice, t.TempDir(), converttest.FlatDeck(slides), "fodp", "pptx"),
		"fiche.docx":  converttest.Save(t, soffice, t.TempDir(), converttest.FlatText(pages), "fodt", "docx"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct{ file, question, answer, label string }{
		{"cours3.pptx", "What does anaerobic muscle do with pyruvate?",
			"Anaerobic muscle reduces pyruvate into lactate when oxygen is scarce [cours3.pptx slide 2].", "[cours3.pptx slide 2]"},
		{"fiche.docx", "Which enzyme tolerates high glucose in hepatocytes?",
			"Glucokinase in hepatocytes tolerates high glucose concentrations [fiche.docx p.2].", "[fiche.docx p.2]"},
	}
	for _, c := range cases {
		var prompt string
		askEnv(t, func(r llmtest.Request) llmtest.Reply {
			prompt = r.Body
			return llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash-lite", c.answer)}
		}, func(llmtest.Request) llmtest.Reply { return cliRateLimited })
		t.Setenv("VIKA_SOFFICE", soffice)
		var out, errOut bytes.Buffer
		code := Run(context.Background(), []string{"ask", "--json", "--mode", "bm25", "--pdf", filepath.Join(dir, c.file), c.question}, &out, &errOut)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.file, code, errOut.String())
		}
		var a rag.Answer
		if err := json.Unmarshal(out.Bytes(), &a); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		if !strings.Contains(prompt, strings.Trim(c.label, "[]")) {
			t.Errorf("%s: the prompt's sources do not carry %s:\n%s", c.file, c.label, prompt)
		}
		if len(a.Citations) != 1 || !a.Citations[0].Verified || a.Citations[0].Label != c.label || a.Citations[0].DocID != ingest.DocID(files[c.file]) {
			t.Fatalf("%s: citations %+v, want one verified %s of the file's id", c.file, a.Citations, c.label)
		}
		t.Logf("%s: %s -> %s verified %v", c.file, c.question, a.Citations[0].Label, a.Citations[0].Verified)
	}
}
