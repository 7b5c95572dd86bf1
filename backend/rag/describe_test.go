package rag

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/llm"
	"vika/backend/llm/llmtest"
	"vika/backend/message"
	"vika/backend/testpdf"
)

// TestDescriberSendsTheCropToTheChosenModelOnly: a figure goes to the
// chosen vision model with its crop; a table with its text; when that
// model fails no other is asked.
func TestDescriberSendsTheCropToTheChosenModelOnly(t *testing.T) {
	eng := newEngine(t)
	crop := cropOf(t, testpdf.Text(figurePage))
	p := newProviders(t, func(r llmtest.Request) llmtest.Reply {
		if geminiModel(r.Path) == "gemini-2.5-flash" {
			return geminiSays("Two curves of training error ", "against iterations.")
		}
		return rateLimited
	}, func(llmtest.Request) llmtest.Reply { return groqSays("unused") }, 0)
	s := New(eng, p.svc, Config{})
	d, err := s.Describer(t.Context(), "gemini/gemini-2.5-flash")
	if err != nil {
		t.Fatal(err)
	}
	got, err := d(t.Context(), corpus.Region{Kind: corpus.ChunkFigure, Page: 1, Caption: "Figure 3: Training on ImageNet.", Image: crop}, "en")
	if err != nil || got != "Two curves of training error against iterations." {
		t.Fatalf("description %q, %v", got, err)
	}
	texts, images := geminiImages(t, p.gemini.Last().Body)
	if len(images) != 1 || !bytes.Equal(images[0], crop) || !strings.Contains(texts[0], "Figure 3: Training on ImageNet.") {
		t.Errorf("request: texts %q, %d images", texts, len(images))
	}
	if _, err := d(t.Context(), corpus.Region{Kind: corpus.ChunkTable, Caption: "Table 1", Text: "| a | b |"}, "en"); err != nil {
		t.Fatal(err)
	}
	if texts, images := geminiImages(t, p.gemini.Last().Body); len(images) != 0 || !strings.Contains(texts[0], "| a | b |") {
		t.Errorf("table request: %q, %d images", texts, len(images))
	}

	// Flash-Lite is rate-limited: the error comes back, Groq is never asked.
	lite, err := s.Describer(t.Context(), "gemini/gemini-2.5-flash-lite")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lite(t.Context(), corpus.Region{Kind: corpus.ChunkFigure, Image: crop}, "en"); !errors.Is(err, llm.ErrRateLimited) {
		t.Errorf("error = %v, want rate limited", err)
	}
	if p.groq.Count() != 0 {
		t.Error("a figure went to another provider than the one chosen")
	}

	if _, err := s.Describer(t.Context(), "groq/llama-3.1-8b-instant"); !errors.Is(err, ErrNotVision) {
		t.Errorf("text-only model: %v", err)
	}
	if _, err := s.Describer(t.Context(), "gemini/nope"); !errors.Is(err, llm.ErrModelNotFound) {
		t.Errorf("unknown model: %v", err)
	}
	if _, err := New(eng, nil, Config{}).Describer(t.Context(), "gemini/gemini-2.5-flash"); !errors.Is(err, llm.ErrNoModel) {
		t.Errorf("no service: %v", err)
	}
}

// TestDescriptionCutBeforeAnyText: a figure's description cut at the
// token limit before any text (a model that reasons first spent its
// budget) is refused as cut, not taken for an empty description; one cut
// after some text is kept, marked as cut.
func TestDescriptionCutBeforeAnyText(t *testing.T) {
	eng := newEngine(t)
	crop := cropOf(t, testpdf.Text(figurePage))
	var text string
	p := newProviders(t, func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Chunks: llmtest.SSE("\r\n\r\n", `{"candidates":[{"content":{"parts":[{"text":"`+text+`"}],"role":"model"},"finishReason":"MAX_TOKENS","index":0}],"usageMetadata":{"promptTokenCount":31,"candidatesTokenCount":2048,"totalTokenCount":2079}}`)}
	}, func(llmtest.Request) llmtest.Reply { return groqSays("unused") }, 0)
	d, err := New(eng, p.svc, Config{}).Describer(t.Context(), "gemini/gemini-2.5-flash")
	if err != nil {
		t.Fatal(err)
	}
	fig := corpus.Region{Kind: corpus.ChunkFigure, Page: 1, Caption: "Figure 3: Training on ImageNet.", Image: crop}
	got, err := d(t.Context(), fig, "en")
	if !errors.Is(err, engine.ErrRefused) || message.Of(err).Code != message.RefusedTruncated || got != "" {
		t.Fatalf("cut before any text: %q, %v (code %q), want a refusal coded %s", got, err, message.Of(err).Code, message.RefusedTruncated)
	}
	text = "Two curves of training error"
	if got, err := d(t.Context(), fig, "en"); err != nil || got != "Two curves of training error […]" {
		t.Fatalf("cut after some text: %q, %v", got, err)
	}
}
