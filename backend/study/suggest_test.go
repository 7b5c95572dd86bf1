package study

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vika/backend/llm/llmtest"
	"vika/backend/message"
)

// TestSuggest: over each provider's wire format, the prompt carries
// Vaswani's section titles and the question lines come back parsed:
// bullets and numbering dropped, blanks and repeats left out, a long one
// cut, at most MaxSuggestions. Without a model: the coded error.
func TestSuggest(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	docs, err := eng.Documents(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, d := range docs {
		if d.ID == vaswani {
			for _, e := range d.Outline {
				if e.Page > 0 && e.Depth == 0 {
					titles = append(titles, e.Title)
				}
			}
		}
	}
	if len(titles) < 3 {
		t.Fatalf("Vaswani's outline: %v", titles)
	}
	long := "Why " + strings.Repeat("does attention matter ", 20) + "?"
	reply := "1. How does multi-head attention work?\n\n- Why drop recurrence?\n* why drop recurrence?\n" + long +
		"\nWhat is positional encoding?\nHow is the model trained?\nWhat were the BLEU scores?\n"
	for _, w := range wires {
		t.Run(w.provider, func(t *testing.T) {
			var prompts []string
			f := fake(t, w, func(body string) llmtest.Reply {
				prompts = append(prompts, texts(body))
				return llmtest.Reply{Chunks: w.stream(reply)}
			})
			qs, err := New(eng, service(t, map[string]*llmtest.Server{w.provider: f})).Suggest(context.Background(), vaswani, "fr")
			if err != nil {
				t.Fatal(err)
			}
			if len(prompts) != 1 {
				t.Fatalf("%d requests", len(prompts))
			}
			for _, title := range titles {
				if !strings.Contains(prompts[0], strings.Join(strings.Fields(title), " ")) {
					t.Errorf("the prompt lacks the section %q", title)
				}
			}
			if !strings.Contains(prompts[0], "Write in English") {
				t.Errorf("the prompt does not follow the document's language")
			}
			want := []string{"How does multi-head attention work?", "Why drop recurrence?", cutRunes(strings.Join(strings.Fields(long), " "), MaxSuggestionRune),
				"What is positional encoding?", "How is the model trained?"}
			if strings.Join(qs, "\n") != strings.Join(want, "\n") {
				t.Errorf("questions %q", qs)
			}
			if n := len([]rune(qs[2])); n != MaxSuggestionRune {
				t.Errorf("a long question kept %d runes", n)
			}
		})
	}
	_, err = New(eng, service(t, nil)).Suggest(context.Background(), vaswani, "en")
	if !errors.Is(err, ErrNeedsModel) || message.Of(err).Code != message.StudyNeedsModel {
		t.Errorf("without a model: %v (%s)", err, message.Of(err).Code)
	}
}
