package study

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vika/backend/cite"
	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/llm/llmtest"
	"vika/backend/message"
	"vika/backend/testpdf"
)

// cardsReply is faithful's cards plus a card citing page 99 (Vaswani
// has 15), a card citing nothing and a card whose number is planted.
func cardsReply(prompt string) string {
	return planted(prompt, true) +
		"Q: What is on page 99?\nA: The Transformer uses multi-head attention [vaswani2017_attention_is_all_you_need.pdf p.99]\n" +
		"Q: Who wrote it?\nA: Eight authors at Google.\n"
}

// TestCards: over each provider's wire format, the cards keep their
// cited page and verdict; the card citing a page Vaswani does not have
// and the uncited one are refused; the planted number is flagged.
func TestCards(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	for _, w := range wires {
		t.Run(w.provider, func(t *testing.T) {
			f := fake(t, w, func(body string) llmtest.Reply { return llmtest.Reply{Chunks: w.stream(cardsReply(texts(body)))} })
			d, err := New(eng, service(t, map[string]*llmtest.Server{w.provider: f})).Cards(context.Background(), Scope{DocID: vaswani}, Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			codes := map[string]int{}
			for _, r := range d.Refused {
				codes[r.Why.Code]++
				if r.Why.Code == message.StudyCardNoPage && r.Why.Params["page"] != 99 {
					t.Errorf("refusal %+v", r.Why)
				}
			}
			batches := len(d.Models) // one model answered every batch
			if codes[message.StudyCardNoPage] == 0 || codes[message.StudyCardNoCitation] == 0 || batches != 1 {
				t.Errorf("refused %v, models %v", codes, d.Models)
			}
			flagged := 0
			for _, c := range d.Cards {
				if c.Page < 1 || c.Page > 15 || c.DocID != vaswani || !strings.Contains(c.Label, "vaswani") {
					t.Errorf("card %+v", c)
				}
				if planted := c.Question == "A planted question?"; planted != !c.Check.Verified || (planted && c.Check.Reason != cite.ReasonNumbers) {
					t.Errorf("card %q: %+v", c.Answer, c.Check)
				}
				flagged += b2i(!c.Check.Verified)
			}
			if len(d.Cards) < 3 || flagged == 0 {
				t.Errorf("%d cards, %d flagged", len(d.Cards), flagged)
			}
		})
	}
}

// TestCardsSelection: cards from a selection read only the selection; a
// selection on a page the document does not have is refused.
func TestCardsSelection(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	w := wires[0]
	var prompts []string
	f := fake(t, w, func(body string) llmtest.Reply {
		prompts = append(prompts, texts(body))
		return llmtest.Reply{Chunks: w.stream(faithful(texts(body)))}
	})
	s := New(eng, service(t, map[string]*llmtest.Server{w.provider: f}))
	sel := "Self-attention, sometimes called intra-attention, is an attention mechanism relating different positions of a single sequence in order to compute a representation of the sequence."
	d, err := s.Cards(context.Background(), Scope{DocID: vaswani, Text: sel, Page: 2}, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(prompts) != 1 || len(sources(prompts[0])) != 1 || len(d.Cards) != 1 || d.Cards[0].Page != 2 || !d.Cards[0].Check.Verified {
		t.Errorf("%d prompts, cards %+v", len(prompts), d.Cards)
	}
	_, err = s.Cards(context.Background(), Scope{DocID: vaswani, Text: sel, Page: 40}, Options{}, nil)
	if message.Of(err).Code != message.StudyCardNoPage {
		t.Errorf("selection on page 40: %v", err)
	}
	// The chat's bound on a selection (a passage, not a chapter) holds here too.
	long := strings.Repeat(sel+" ", corpus.MaxSelectionRunes/len(sel)+1)
	n := len(prompts)
	if _, err = s.Cards(context.Background(), Scope{DocID: vaswani, Text: long, Page: 2}, Options{}, nil); !errors.Is(err, corpus.ErrInvalid) || len(prompts) != n {
		t.Errorf("a selection of %d characters: %v, %d requests", len(long), err, len(prompts)-n)
	}
}

// TestWithoutModel: cards say they need a model; the guide is the
// extractive outline, each row a passage of its section, cited.
func TestWithoutModel(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	s := New(eng, service(t, nil))
	_, err := s.Cards(context.Background(), Scope{DocID: vaswani}, Options{}, nil)
	if !errors.Is(err, ErrNeedsModel) || message.Of(err).Code != message.StudyNeedsModel {
		t.Errorf("cards without a model: %v (%s)", err, message.Of(err).Code)
	}
	g, err := s.Guide(context.Background(), Scope{DocID: vaswani}, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Plan.Extractive || g.Plan.Requests != 0 || len(g.Outline) == 0 {
		t.Fatalf("plan %+v, %d outline rows", g.Plan, len(g.Outline))
	}
	chunks, _ := eng.Chunks(context.Background(), vaswani)
	for _, it := range g.Outline {
		if it.Page < it.From || it.Page > it.To || it.Label != corpus.CitationLabel("vaswani2017_attention_is_all_you_need.pdf", "", it.Page) {
			t.Errorf("row %+v", it)
		}
		found := false
		for _, c := range chunks {
			found = found || (c.Page == it.Page && strings.HasPrefix(strings.Join(strings.Fields(c.Text), " "), strings.TrimSuffix(it.Quote, " …")))
		}
		if !found {
			t.Errorf("quote %q is not a passage of page %d", it.Quote, it.Page)
		}
	}
	t.Logf("%d rows; first %q %s", len(g.Outline), g.Outline[0].Title, g.Outline[0].Label)
}

// TestLanguage: the material follows the document's language unless the
// student chooses; a section is read from its outline entry's pages.
func TestLanguage(t *testing.T) {
	eng, err := engine.New(context.Background(), engine.Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	doc, err := addPDF(t, eng, "cours.pdf", testpdf.Text(
		"La propagation unitaire affecte le seul littéral restant d’une clause unitaire et recommence tant qu’il reste une clause unitaire dans la formule.",
		"L’algorithme DPLL choisit une variable de branchement, lui donne une valeur et revient en arrière chronologiquement lors d’un conflit."))
	if err != nil {
		t.Fatal(err)
	}
	w := wires[0]
	var last string
	f := fake(t, w, func(body string) llmtest.Reply {
		last = texts(body)
		return llmtest.Reply{Chunks: w.stream(faithful(last))}
	})
	s := New(eng, service(t, map[string]*llmtest.Server{w.provider: f}))
	if _, err := s.Guide(context.Background(), Scope{DocID: doc.ID}, Options{}, nil); err != nil {
		t.Fatal(err)
	}
	if doc.Lang != "fr" || !strings.Contains(last, "Write in French.") {
		t.Errorf("document language %q; prompt asks %v", doc.Lang, strings.Contains(last, "Write in French."))
	}
	if _, err := s.Guide(context.Background(), Scope{DocID: doc.ID}, Options{Lang: "en"}, nil); err != nil || !strings.Contains(last, "Write in English.") {
		t.Errorf("chosen English: %v", err)
	}
	_, err = s.Guide(context.Background(), Scope{DocID: doc.ID, Section: "Chapitre 9"}, Options{}, nil)
	if message.Of(err).Code != message.StudyUnknownSection {
		t.Errorf("unknown section: %v", err)
	}
}

// TestSectionPages: a section runs to the next entry at its depth or above.
func TestSectionPages(t *testing.T) {
	doc := corpus.Document{File: "t.pdf", Pages: 30, Outline: []corpus.OutlineEntry{
		{Title: "1 Intro", Page: 1}, {Title: "2 Method", Page: 5}, {Title: "2.1 Data", Page: 6, Depth: 1},
		{Title: "2.2 Model", Page: 9, Depth: 1}, {Title: "3 Results", Page: 12}}}
	for _, c := range []struct {
		title    string
		from, to int
	}{{"2 method", 5, 11}, {"2.1  Data", 6, 8}, {"2.2 Model", 9, 11}, {"3 Results", 12, 30}} {
		from, to, _, err := sectionPages(doc, c.title)
		if err != nil || from != c.from || to != c.to {
			t.Errorf("%q: %d-%d %v, want %d-%d", c.title, from, to, err, c.from, c.to)
		}
	}
}

// TestQuiz: a choice item's options hold the right answer once, no
// distractor twice, none equal to the right answer; the others are
// short answer.
func TestQuiz(t *testing.T) {
	cards := []Card{
		{Question: "Q1", Answer: "Attention [a.pdf p.1]"}, {Question: "Q2", Answer: "attention."},
		{Question: "Q3", Answer: "Recurrence [a.pdf p.2]"}, {Question: "Q4", Answer: "Convolution [a.pdf p.3]"},
		{Question: "Q5", Answer: "Recurrence"}, {Question: "Q6", Answer: "Positional encoding [a.pdf p.5, p.6]"},
	}
	items := Quiz(cards)
	choice := 0
	for i, it := range items {
		if strings.Contains(it.Answer, "[") {
			t.Errorf("answer %q keeps its citation", it.Answer)
		}
		if it.Kind != KindChoice {
			continue
		}
		choice++
		seen := map[string]bool{}
		for k, o := range it.Options {
			if seen[norm(o)] {
				t.Errorf("item %d: %q twice in %q", i, o, it.Options)
			}
			seen[norm(o)] = true
			if (norm(o) == norm(it.Answer)) != (k == it.Correct) {
				t.Errorf("item %d: option %d %q, correct %d", i, k, o, it.Correct)
			}
		}
		if len(it.Options) < 3 || len(it.Options) > Choices {
			t.Errorf("item %d: %d options", i, len(it.Options))
		}
	}
	if choice == 0 || choice == len(items) {
		t.Errorf("%d choice items of %d", choice, len(items))
	}
}
