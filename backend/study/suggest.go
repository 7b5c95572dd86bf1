package study

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"vika/backend/corpus"
	"vika/backend/prompt"
)

// Bounds of suggested questions.
const (
	MaxSuggestions    = 5
	MaxSuggestionRune = 160 // runes of one question
	suggestSections   = 40  // outline titles shown to the model
	suggestPassage    = 800 // runes of the first passage shown
	suggestTokens     = 400 // the answer's output cap
)

// Suggest asks the routed model for the questions a student would ask of
// a newly added document, from its title, its outline's section titles
// and its first passage, in lang (the window's) when the document's
// language is undetermined. One question a line: empties and repeats are
// dropped, each is cut at MaxSuggestionRune runes, at most MaxSuggestions.
// Without a model it fails with ErrNeedsModel (the window keeps the
// suggestions it made offline).
func (s *Studier) Suggest(ctx context.Context, docID, lang string) ([]string, error) {
	o := Options{}
	if _, ok := s.route(ctx, o); !ok {
		return nil, fmt.Errorf("%w: suggested questions are made offline", ErrNeedsModel)
	}
	doc, err := s.document(ctx, docID)
	if err != nil {
		return nil, err
	}
	in := prompt.SuggestInput{Title: doc.Meta.Title, Lang: doc.Lang, Count: MaxSuggestions}
	if in.Title == "" {
		in.Title = doc.File
	}
	if in.Lang == "" {
		in.Lang = lang
	}
	for _, e := range doc.Outline {
		if e.Page > 0 && e.Depth <= outlineDepth && len(in.Sections) < suggestSections {
			in.Sections = append(in.Sections, strings.Join(strings.Fields(e.Title), " "))
		}
	}
	chunks, err := s.docs.Chunks(ctx, doc.ID)
	if err != nil {
		return nil, err
	}
	for _, c := range chunks {
		if c.Kind == corpus.ChunkBody && strings.TrimSpace(c.Text) != "" {
			in.Passage = cutRunes(strings.Join(strings.Fields(c.Text), " "), suggestPassage)
			break
		}
	}
	req := prompt.StudySuggest(in)
	req.MaxTokens = suggestTokens
	a, err := s.ask(ctx, req, o, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	return suggestions(a.text), nil
}

// suggestions parses the model's lines: bullets and numbering dropped,
// empties and repeats (case aside) left out, each cut, at most
// MaxSuggestions.
func suggestions(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		q := strings.Join(strings.Fields(strings.TrimLeft(line, "-*•0123456789.) \t")), " ")
		if q == "" || seen[strings.ToLower(q)] {
			continue
		}
		seen[strings.ToLower(q)] = true
		out = append(out, cutRunes(q, MaxSuggestionRune))
		if len(out) == MaxSuggestions {
			break
		}
	}
	return out
}

func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n-1])) + "…"
}
