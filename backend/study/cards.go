package study

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"

	"vika/backend/cite"
	"vika/backend/corpus"
	"vika/backend/llm"
	"vika/backend/message"
	"vika/backend/prompt"
)

// ErrNeedsModel is flashcards or a quiz asked for without a model.
var ErrNeedsModel = errors.New("flashcards and quizzes need a language model")

func init() { message.Register(ErrNeedsModel, message.StudyNeedsModel) }

// Card is a flashcard: a question, its answer, the page it cites and the
// checker's verdict on the answer.
type Card struct {
	// ID names the card for its reviews (CardID): the same question on
	// the same page of the same document is the same card.
	ID       string `json:"id"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
	Label    string `json:"label"` // the cited page, "[file.pdf p.N]"
	DocID    string `json:"doc_id"`
	Page     int    `json:"page"`
	Check    Check  `json:"check"`
}

// Refusal is a card the model wrote that was not kept: why (a message).
type Refusal struct {
	Question string          `json:"question"`
	Answer   string          `json:"answer"`
	Why      message.Message `json:"why"`
}

// Deck is the flashcards of a scope.
type Deck struct {
	DocID   string       `json:"doc_id"`
	File    string       `json:"file"`
	Section string       `json:"section,omitempty"`
	Lang    string       `json:"lang,omitempty"`
	Cards   []Card       `json:"cards"`
	Refused []Refusal    `json:"refused,omitempty"`
	Models  []string     `json:"models,omitempty"`
	Notices []llm.Notice `json:"notices,omitempty"`
}

// Cards makes flashcards from sc, one request per batch of passages
// (sized as a guide's). A card is refused when its answer cites no page
// or a page the document does not have; the others keep the checker's
// verdict. Without a model it fails with ErrNeedsModel.
func (s *Studier) Cards(ctx context.Context, sc Scope, o Options, progress func(Progress)) (Deck, error) {
	if progress == nil {
		progress = func(Progress) {}
	}
	m, err := s.resolve(ctx, sc)
	if err != nil {
		return Deck{}, err
	}
	plan, batches := s.plan(ctx, m, o)
	if plan.Extractive {
		return Deck{}, fmt.Errorf("%w: add an API key (Gemini, Mistral, Groq or OpenRouter) in Settings, or turn on a local Ollama there", ErrNeedsModel)
	}
	d := Deck{DocID: m.doc.ID, File: m.doc.File, Section: m.section, Lang: m.lang(o)}
	g := &Guide{}
	j := &job{s: s, o: o, g: g, total: len(batches), progress: progress}
	for _, b := range batches {
		p, err := j.run(ctx, "cards", prompt.StudyInput{Task: prompt.StudyCards, Sources: b, Lang: d.Lang, Count: o.Cards})
		if err != nil {
			d.Models, d.Notices = g.Models, g.Notices
			return d, err
		}
		for _, qa := range p.qas {
			if qa[1] == "" {
				continue
			}
			c, why := card(qa[0], qa[1], m.doc, m.hits)
			if why != nil {
				d.Refused = append(d.Refused, Refusal{Question: qa[0], Answer: qa[1], Why: *why})
				continue
			}
			d.Cards = append(d.Cards, c)
		}
	}
	d.Models, d.Notices = g.Models, g.Notices
	return d, nil
}

// CardID is a card's stable id: a hash of its document, its page and its
// question (case and spacing aside), 32 hex digits.
func CardID(docID string, page int, question string) string {
	h := sha256.Sum256([]byte(docID + "\x00" + strconv.Itoa(page) + "\x00" + norm(question)))
	return hex.EncodeToString(h[:16])
}

// card checks one card: its answer must cite a page of doc.
func card(q, a string, doc corpus.Document, hits []corpus.Hit) (Card, *message.Message) {
	refs := cite.Parse(a)
	if len(refs) == 0 {
		why := message.New(message.StudyCardNoCitation)
		return Card{}, &why
	}
	for _, r := range refs {
		if r.Page < 1 || r.Page > doc.Pages {
			why := message.Of(cardNoPage(doc, r.Page))
			return Card{}, &why
		}
	}
	c := Card{Question: q, Answer: a, Check: checkLine(a, hits), DocID: doc.ID, Page: refs[0].Page}
	c.ID = CardID(c.DocID, c.Page, q)
	c.Label = corpus.CitationLabel(doc.Label, c.Page)
	return c, nil
}

func cardNoPage(doc corpus.Document, page int) error {
	label := corpus.CitationLabel(doc.Label, page)
	return message.Wrap(fmt.Errorf("study: %s has no page %s", doc.File, strconv.Itoa(page)), message.StudyCardNoPage, "label", label, "page", page)
}
