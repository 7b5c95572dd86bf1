package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode"

	"vika/backend/corpus"
	"vika/backend/engine"
)

// Summaries of eval pages --summaries: "lead" writes each passage's
// summary without a model, as the test fake does (leadSummary); "model"
// asks the models the app would (keys and VIKA_<PROVIDER>_BASE_URL from
// the environment).
const (
	summariesLead  = "lead"
	summariesModel = "model"
)

// leadWords bounds a lead summary.
const leadWords = 40

// leadSummary is a passage's stand-in summary: its section title and its
// first sentence (at most leadWords words). It is what the fake providers
// of the tests and screenshots answer (frontend/e2e/fake-gemini.mjs), not
// what a model would write: it measures the summary list's plumbing and
// its fusion, not a model's summaries.
func leadSummary(c corpus.Chunk) string {
	text := strings.Join(strings.Fields(c.Text), " ")
	if i := sentenceEnd(text); i > 0 {
		text = text[:i]
	}
	words := strings.Fields(text)
	if len(words) > leadWords {
		words = words[:leadWords]
	}
	s := strings.Join(words, " ")
	if t := strings.TrimSpace(c.SectionTitle); t != "" {
		s = t + ": " + s
	}
	return s
}

// sentenceEnd is the index just after the first sentence of s (a '.',
// '!' or '?' followed by a space and a capital letter), or 0.
func sentenceEnd(s string) int {
	rs := []rune(s)
	for i := 0; i+2 < len(rs); i++ {
		if strings.ContainsRune(".!?", rs[i]) && rs[i+1] == ' ' && unicode.IsUpper(rs[i+2]) {
			return len(string(rs[:i+1]))
		}
	}
	return 0
}

// summaryCounts is what eval pages --summaries did.
type summaryCounts struct {
	How        string `json:"how"`
	Model      string `json:"model,omitempty"`
	Summarized int    `json:"summarized"`
	Refused    int    `json:"refused"`
	Passages   int    `json:"passages"` // summarizable passages in all
}

// summarizeDocs writes the summaries of every summarizable passage of
// docs (at most max a document) and indexes them in each document's
// retriever (retrieve.AddSummaries).
func summarizeDocs(ctx context.Context, docs map[string]*pagesDoc, how string, max int, open func(ctx context.Context) (engine.Summarizer, string, error), errOut io.Writer) (summaryCounts, error) {
	out := summaryCounts{How: how}
	var sum engine.Summarizer
	switch how {
	case summariesLead:
		sum = func(_ context.Context, c corpus.Chunk) (string, string, error) { return leadSummary(c), "lead", nil }
	case summariesModel:
		var err error
		if sum, out.Model, err = open(ctx); err != nil {
			return out, err
		}
	default:
		return out, fmt.Errorf("%w: --summaries %q: want lead or model", errUsage, how)
	}
	files := make([]string, 0, len(docs))
	for f := range docs {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		d := docs[f]
		var batch []corpus.Chunk
		for _, c := range d.res.Chunks {
			if !engine.Summarizable(c) {
				continue
			}
			out.Passages++
			if len(batch) >= max {
				continue
			}
			text, _, err := sum(ctx, c)
			switch {
			case errors.Is(err, engine.ErrRefused) || err == nil && strings.TrimSpace(text) == "":
				out.Refused++
				continue
			case err != nil:
				return out, fmt.Errorf("summarise %s: %w", f, err)
			}
			sc := c
			sc.Text = text
			batch = append(batch, sc)
		}
		vecs, err := d.r.Embed(ctx, batch, nil)
		if err != nil {
			return out, err
		}
		if err := d.r.AddSummaries(batch, vecs); err != nil {
			return out, err
		}
		out.Summarized += len(batch)
		fmt.Fprintf(errOut, "summarised %d passages of %s (%s)\n", len(batch), f, how)
	}
	return out, nil
}
