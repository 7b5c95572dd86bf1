package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"vika/backend/metrics"

	"vika/backend/export"
	"vika/backend/llm/llmtest"
	"vika/backend/rag"
)

// geminiText returns the text of a Gemini request (system and contents).
func geminiText(t *testing.T, body string) string {
	t.Helper()
	var req struct {
		SystemInstruction struct {
			Parts []struct{ Text string } `json:"parts"`
		} `json:"systemInstruction"`
		Contents []struct {
			Parts []struct{ Text string } `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Errorf("gemini request: %v", err)
		return ""
	}
	var b strings.Builder
	for _, p := range req.SystemInstruction.Parts {
		b.WriteString(p.Text + "\n")
	}
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			b.WriteString(p.Text + "\n")
		}
	}
	return b.String()
}

var firstSource = regexp.MustCompile(`(?s)<source n="1" cite="(\[[^"]+\])">\n(.*?)</source>`)

// quotingModel is a fake Gemini that answers the way a careful model
// does, from the prompt it receives: the first sentence of the first
// source, cited with that source's label (so the citation checker has a
// real claim to verify); with no source it says so.
func quotingModel(t *testing.T) func(llmtest.Request) llmtest.Reply {
	return func(r llmtest.Request) llmtest.Reply {
		m := firstSource.FindStringSubmatch(geminiText(t, r.Body))
		if m == nil {
			return llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash-lite", "Not found in your documents.")}
		}
		text := html.UnescapeString(strings.Join(strings.Fields(m[2]), " "))
		if i := strings.Index(text, ". "); i > 40 {
			text = text[:i]
		}
		text = strings.TrimSuffix(text, ".")
		if r := []rune(text); len(r) > 400 {
			text = string(r[:400])
		}
		// The first words in bold, to show the Markdown rendered.
		cut := strings.LastIndex(text[:min(len(text), 30)], " ")
		if cut < 0 {
			cut = len(text)
		}
		return llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash-lite", "According to the document, **"+text[:cut]+"**", text[cut:]+" "+m[1]+".")}
	}
}

func writeQueries(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "questions.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readItems(t *testing.T, path string) []export.BatchItem {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var items []export.BatchItem
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var it export.BatchItem
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			t.Fatalf("JSON line %q: %v", sc.Text(), err)
		}
		items = append(items, it)
	}
	return items
}

// TestBatchQueriesRefused: a bad queries file is refused with its line,
// before anything is ingested or asked.
func TestBatchQueriesRefused(t *testing.T) {
	pdf := askEnv(t, quotingModel(t), nil)
	for _, tt := range []struct {
		lines []string
		want  string
	}{
		{[]string{`{"question": "What is unit propagation?"}`, `What is DPLL?`}, "line 2: want {\"question\""},
		{[]string{`{"question": "  "}`}, "line 1: the question is empty"},
		{[]string{`{"question": "a", "k": 3}`}, `line 1: want {"question": "..."} (optionally "id"): json: unknown field "k"`},
		{[]string{`{"question": "a"} {"question": "b"}`}, "line 1: one JSON object per line"},
		{[]string{"", "  "}, "holds no question"},
	} {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), []string{"ask", "--queries", writeQueries(t, tt.lines...), "--pdf", pdf}, &out, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), tt.want) || strings.Contains(errOut.String(), "vika ask: 1/") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tt.lines, code, errOut.String(), tt.want)
		}
	}
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), []string{"ask", "--queries", writeQueries(t, `{"question":"a"}`), "--pdf", pdf, "and a question"}, &out, &errOut); code != 2 {
		t.Errorf("queries and a question: exit %d", code)
	}
}

// TestBatchRun: three questions over sat.pdf, one ingestion: JSON lines
// and the report hold every answer with its verified citations, model and
// metrics; a question the models cannot answer is reported as failed and
// the others still are answered.
func TestBatchRun(t *testing.T) {
	quote := quotingModel(t)
	pdf := askEnv(t, func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(geminiText(t, r.Body), "DPLL") {
			return llmtest.Reply{Status: 500, Body: `{"error":{"code":500,"message":"internal","status":"INTERNAL"}}`}
		}
		return quote(r)
	}, func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.Body, "DPLL") {
			return llmtest.Reply{Status: 500, Body: `{"error":{"message":"internal"}}`}
		}
		return cliGroqAnswer
	})
	dir := t.TempDir()
	jsonl, report := filepath.Join(dir, "answers.jsonl"), filepath.Join(dir, "report.html")
	queries := writeQueries(t, `{"id": "up", "question": "What does unit propagation do?"}`, ``,
		`{"question": "What does DPLL do on a conflict?"}`, `{"question": "What is the capital of Peru?"}`)
	var out, errOut bytes.Buffer
	code := Run(context.Background(), []string{"ask", "--queries", queries, "--mode", "bm25", "--jsonl", jsonl, "--report", report, "--pdf", pdf}, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "1 of 3 questions failed") {
		t.Fatalf("exit %d, want 1 (one failed)\nstderr:\n%s", code, errOut.String())
	}
	items := readItems(t, jsonl)
	if len(items) != 3 {
		t.Fatalf("%d JSON lines, want 3", len(items))
	}
	first, failed, abstained := items[0], items[1], items[2]
	if first.ID != "up" || first.Index != 1 || first.Error != "" || first.Answer == nil || first.Answer.ModelUsed != "gemini/gemini-2.5-flash-lite" ||
		len(first.Answer.Citations) != 1 || !first.Answer.Citations[0].Verified || first.Answer.Metrics.TotalLatencyMs <= 0 || first.Answer.Metrics.QueryIndex != 1 {
		t.Errorf("first item %+v", first)
	}
	if failed.Error == "" || failed.Index != 2 {
		t.Errorf("failed item %+v", failed)
	}
	if abstained.Answer == nil || abstained.Answer.Kind != "abstained" || abstained.Error != "" {
		t.Errorf("third item %+v", abstained)
	}
	page, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	// Hit@5, Recall@5 and MRR come from the cross-encoder's scores when one
	// is installed (the box's), and are unknown otherwise.
	proxy := metrics.ProxyNone
	if first.Answer.Metrics.RerankApplied {
		proxy = metrics.ProxyReranker
	}
	for _, want := range []string{"Content-Security-Policy", "<h1>Vika batch report</h1>", "<tr><th>PDFs</th><td>sat.pdf</td></tr>",
		"<tr><th>questions</th><td>3 (1 failed)</td></tr>", "gemini/gemini-2.5-flash-lite (1)",
		"<h2>1. What does unit propagation do?</h2>", "<h2>2. What does DPLL do on a conflict?</h2>", "Failed: ",
		`<span class="cite" title="verified against [sat.pdf p.1]">[sat.pdf p.1]</span>`, "Citations: 1 of 1 verified",
		"According to the document, <strong>Unit propagation assigns the</strong> only remaining literal", "relevance proxy: " + html.EscapeString(proxy)} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(string(page), "<script") {
		t.Error("report holds a script")
	}
}

// TestBatchSharedPDFs: ten questions of our own over four papers of
// ../shared/data/pdfs, answered by the quoting fake Gemini after one
// ingestion. VIKA_BATCH_REPORT_DIR keeps the JSON lines and the report
// (answers.jsonl, report.html) for a look in a browser.
func TestBatchSharedPDFs(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data", "pdfs")
	names := []string{"vaswani2017_attention_is_all_you_need.pdf", "devlin2019_bert.pdf", "he2015_resnet.pdf", "shannon1948_mathematical_theory_of_communication.pdf"}
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Skipf("the shared PDFs are absent (%v): this test needs ../shared/data/pdfs", err)
		}
	}
	askEnv(t, quotingModel(t), nil)
	out := os.Getenv("VIKA_BATCH_REPORT_DIR")
	if out == "" {
		out = t.TempDir()
	}
	questions := []string{
		"How does multi-head attention work in the Transformer?",
		"Why does the Transformer use positional encodings?",
		"What BLEU score does the Transformer reach on English-to-German translation?",
		"What is masked language modeling in BERT?",
		"What is the next sentence prediction task?",
		"How do residual connections ease the training of deep networks?",
		"What is the degradation problem of deeper networks?",
		"How does Shannon define the entropy of an information source?",
		"What is the capacity of a noisy channel?",
		"Quelle est la recette de la tarte tatin ?",
	}
	var lines []string
	for i, q := range questions {
		b, _ := json.Marshal(map[string]string{"id": "q" + string(rune('0'+i)), "question": q})
		lines = append(lines, string(b))
	}
	args := []string{"ask", "--queries", writeQueries(t, lines...), "--mode", "bm25",
		"--jsonl", filepath.Join(out, "answers.jsonl"), "--report", filepath.Join(out, "report.html")}
	for _, n := range names {
		args = append(args, "--pdf", filepath.Join(dir, n))
	}
	var stdout, errOut bytes.Buffer
	if code := Run(context.Background(), args, &stdout, &errOut); code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, errOut.String())
	}
	t.Logf("stderr:\n%s", errOut.String())
	items := readItems(t, filepath.Join(out, "answers.jsonl"))
	if len(items) != len(questions) {
		t.Fatalf("%d answers for %d questions", len(items), len(questions))
	}
	verified, answered := 0, 0
	for _, it := range items {
		a := it.Answer
		if it.Error != "" || a == nil {
			t.Errorf("%s failed: %s", it.Question, it.Error)
			continue
		}
		if a.Kind == "llm" {
			answered++
		}
		for _, c := range a.Citations {
			if c.Verified {
				verified++
			}
		}
	}
	// The last question is about nothing in the papers: it abstains or
	// is answered "not found"; the nine others are answered and cited.
	if answered < 9 || verified < 9 {
		t.Errorf("%d answered by the model, %d verified citations; want at least 9 of each", answered, verified)
	}
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(page), "<section>"); n != len(questions) {
		t.Errorf("report has %d sections, want %d", n, len(questions))
	}

	// The same answers as the window's conversation export would save them.
	var turns []rag.Answer
	for _, it := range items {
		turns = append(turns, *it.Answer)
	}
	var conv bytes.Buffer
	if err := export.Conversation(&conv, export.FormatHTML, turns, time.Now()); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(conv.String(), "<details class=\"sources\">"); n < 9 {
		t.Errorf("conversation export has %d source sections", n)
	}
	if err := os.WriteFile(filepath.Join(out, "conversation.html"), conv.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
