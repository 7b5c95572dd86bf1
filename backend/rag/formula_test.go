package rag

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image/png"
	"strings"
	"sync"
	"testing"

	"github.com/go-pdf/fpdf"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/llm"
	"vika/backend/llm/llmtest"
	"vika/backend/message"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// attentionPaper is a page with two display formulas (numbered (1) and
// (2)), as the detector finds them.
func attentionPaper() []byte {
	return testpdf.Drawn(func(f *fpdf.Fpdf) {
		f.SetFont("Helvetica", "", 10)
		f.Text(72, 100, "We call our particular attention the scaled dot-product attention, computed as below.")
		f.SetFont("Helvetica", "", 11)
		f.Text(200, 130, "A = f(Q + K) + V")
		f.SetFont("Helvetica", "", 10)
		f.Text(500, 130, "(1)")
		f.Text(72, 160, "where the scale is the square root of the dimension of the keys, as in the text.")
		f.Text(72, 200, "The positional encodings use sine and cosine functions of different frequencies.")
		f.SetFont("Helvetica", "", 11)
		f.Text(200, 230, "P = s(p) + c")
		f.SetFont("Helvetica", "", 10)
		f.Text(500, 230, "(2)")
		f.Text(72, 260, "where p is the position and the constant is chosen so that the model can learn.")
	})
}

// attentionSession is an engine without embeddings holding attentionPaper.
func attentionSession(t *testing.T) (*engine.Engine, corpus.Document) {
	t.Helper()
	eng, err := engine.New(t.Context(), engine.Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	doc, err := addPDF(t, eng, "attention.pdf", attentionPaper())
	if err != nil {
		t.Fatal(err)
	}
	return eng, doc
}

// TestDescriberTranscribesFormulas: with formulas on, each formula's crop
// goes to the chosen vision model (Gemini's inline image part, PNG) with a
// prompt asking for LaTeX only and the formula's extracted text; the
// LaTeX kept is found by a search written in LaTeX words; an answer in
// prose is refused and the formula keeps its text.
func TestDescriberTranscribesFormulas(t *testing.T) {
	ctx := context.Background()
	eng, doc := attentionSession(t)
	var mu sync.Mutex
	var bodies []string
	p := newProviders(t, func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		bodies = append(bodies, r.Body)
		n := len(bodies)
		mu.Unlock()
		if n == 1 {
			return geminiSays("```latex\n\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}", "\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)V\n```")
		}
		return geminiSays("This formula defines the positional encoding with a sine of the position.")
	}, func(llmtest.Request) llmtest.Reply { return groqSays("unused") }, 0)
	s := New(eng, p.svc, Config{})
	d, err := s.Describer(ctx, "gemini/gemini-2.5-flash")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eng.Describe(ctx, doc.ID, d, engine.DescribeOptions{Max: 10, Formulas: true})
	if err != nil || rep != (engine.DescribeReport{Formulas: 1, Refused: 1}) {
		t.Fatalf("report %+v, %v", rep, err)
	}
	if len(bodies) != 2 {
		t.Fatalf("%d requests, want 2", len(bodies))
	}
	var sys struct {
		SystemInstruction struct {
			Parts []struct {
				Text string `json:"text"`
			} `json:"parts"`
		} `json:"systemInstruction"`
	}
	if err := json.Unmarshal([]byte(bodies[0]), &sys); err != nil || len(sys.SystemInstruction.Parts) == 0 ||
		!strings.Contains(sys.SystemInstruction.Parts[0].Text, "LaTeX") {
		t.Errorf("system instruction %+v, %v", sys, err)
	}
	texts, images := geminiImages(t, bodies[0])
	prompt := strings.Join(texts, "\n")
	if len(images) != 1 || !strings.Contains(prompt, "Answer with the LaTeX only.") || !strings.Contains(prompt, "A = f(Q + K) + V") {
		t.Fatalf("request: texts %q, %d images", texts, len(images))
	}
	img, err := png.Decode(bytes.NewReader(images[0]))
	if err != nil || img.Bounds().Dx() < 400 || img.Bounds().Dy() < 40 {
		t.Errorf("the crop sent: %v, %v", img.Bounds(), err)
	}

	hits, err := eng.Search(ctx, retrieve.Query{Question: `\frac \sqrt softmax`}, engine.SearchOptions{Mode: "bm25", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits.Hits) == 0 || hits.Hits[0].Kind != corpus.ChunkFormula || !strings.HasSuffix(hits.Hits[0].ChunkID, engine.DescribedSuffix) ||
		!strings.Contains(hits.Hits[0].Text, `\frac{QK^T}{\sqrt{d_k}}`) {
		t.Fatalf("search by LaTeX: %+v", hits.Hits)
	}
	regions, err := eng.Regions(ctx, doc.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, r := range regions {
		if r.Kind == corpus.ChunkFormula {
			kept = append(kept, r.Caption+"="+r.Description)
		}
	}
	want := []string{`(1)=\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\left(\frac{QK^T}{\sqrt{d_k}}\right)V`, "(2)="}
	if strings.Join(kept, "|") != strings.Join(want, "|") {
		t.Errorf("formulas keep %q, want %q", kept, want)
	}
}

// TestDescribeRefusalsAreNotResent: an answer refused (one blocked by
// Gemini's content filter, one in prose) is recorded on its formula with
// its reason and the model; describing again with the same model sends
// nothing (it would pay for the same answer), another model is asked and
// its LaTeX, once kept, clears the refusal.
func TestDescribeRefusalsAreNotResent(t *testing.T) {
	ctx := context.Background()
	eng, doc := attentionSession(t)
	var mu sync.Mutex
	var models []string
	p := newProviders(t, func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		models = append(models, geminiModel(r.Path))
		n := len(models)
		mu.Unlock()
		switch n {
		case 1:
			return llmtest.Reply{Chunks: llmtest.SSE("\r\n\r\n", `{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"SAFETY","index":0}],"usageMetadata":{"promptTokenCount":31,"totalTokenCount":31}}`)}
		case 2:
			return geminiSays("This formula defines the positional encoding with a sine of the position.")
		}
		return geminiSays(`x = \frac{a}{b}`)
	}, func(llmtest.Request) llmtest.Reply { return groqSays("unused") }, 0)
	s := New(eng, p.svc, Config{})
	run := func(model string) engine.DescribeReport {
		t.Helper()
		d, err := s.Describer(ctx, model)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := eng.Describe(ctx, doc.ID, d, engine.DescribeOptions{Max: 10, Formulas: true, Model: model})
		if err != nil {
			t.Fatalf("%s: %v", model, err)
		}
		return rep
	}
	refusals := func() []string {
		rs, err := eng.Regions(ctx, doc.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			if r.Refusal != nil {
				out = append(out, r.Caption+" "+r.Refusal.Model+" "+r.Refusal.Reason.Code)
			}
		}
		return out
	}

	if rep := run("gemini/gemini-2.5-flash"); rep != (engine.DescribeReport{Refused: 2}) || len(models) != 2 {
		t.Fatalf("first run: %+v, %d requests", rep, len(models))
	}
	want := []string{"(1) gemini/gemini-2.5-flash refused.blocked", "(2) gemini/gemini-2.5-flash refused.prose"}
	if got := refusals(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("refusals %q, want %q", got, want)
	}
	if rep := run("gemini/gemini-2.5-flash"); rep != (engine.DescribeReport{RefusedBefore: 2}) || len(models) != 2 {
		t.Fatalf("the same model again: %+v, %d requests (want none sent)", rep, len(models))
	}
	if rep := run("gemini/gemini-2.5-pro"); rep != (engine.DescribeReport{Formulas: 2}) || len(models) != 4 || models[3] != "gemini-2.5-pro" {
		t.Fatalf("another model: %+v, requests to %v", rep, models)
	}
	if got := refusals(); len(got) != 0 {
		t.Errorf("refusals left after the LaTeX was kept: %q", got)
	}
}

// TestDescribeFailureIsCoded: a describing model that fails (rate
// limited) stops the job with a code the window translates, naming the
// model and the kind of failure; a model that reads no images is refused
// with its own code.
func TestDescribeFailureIsCoded(t *testing.T) {
	ctx := context.Background()
	eng, doc := attentionSession(t)
	p := newProviders(t, func(llmtest.Request) llmtest.Reply { return rateLimited },
		func(llmtest.Request) llmtest.Reply { return groqSays("unused") }, 0)
	s := New(eng, p.svc, Config{})
	d, err := s.Describer(ctx, "gemini/gemini-2.5-flash")
	if err != nil {
		t.Fatal(err)
	}
	_, err = eng.Describe(ctx, doc.ID, d, engine.DescribeOptions{Max: 10, Formulas: true, Model: "gemini/gemini-2.5-flash"})
	m := message.Of(err)
	if m.Code != message.DescribeFailed || m.Params["model"] != "Gemini 2.5 Flash" || m.Params["reason"] != "rate_limited" {
		t.Fatalf("failure: %+v (%v)", m, err)
	}
	// Run again while the 429 holds: the model is not asked, and the
	// failure still says it is rate limited (not "no model available").
	asked := p.gemini.Count()
	_, err = eng.Describe(ctx, doc.ID, d, engine.DescribeOptions{Max: 10, Formulas: true, Model: "gemini/gemini-2.5-flash"})
	if m := message.Of(err); m.Code != message.DescribeFailed || m.Params["reason"] != "rate_limited" || !errors.Is(err, llm.ErrNoModel) || p.gemini.Count() != asked {
		t.Fatalf("again while rate limited: %+v (%v), %d requests", m, err, p.gemini.Count()-asked)
	}
	if _, err := s.Describer(ctx, "groq/llama-3.1-8b-instant"); message.Of(err).Code != message.DescribeNotVision || !errors.Is(err, ErrNotVision) {
		t.Errorf("a text model: %v", err)
	}
}
