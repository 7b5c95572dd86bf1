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
	// Also are the pages of the cards merged into this one as its near
	// duplicates (Deck.Merged), another document's often: the same fact
	// found in each.
	Also []Cited `json:"also,omitempty"`
}

// Cited is a page a card cites, and whether the checker verified the
// card's answer on it.
type Cited struct {
	Label    string `json:"label"`
	DocID    string `json:"doc_id"`
	Page     int    `json:"page"`
	Verified bool   `json:"verified"`
}

// Refusal is a card the model wrote that was not kept: why (a message).
type Refusal struct {
	Question string          `json:"question"`
	Answer   string          `json:"answer"`
	Why      message.Message `json:"why"`
}

// Deck is the flashcards of a scope.
type Deck struct {
	DocID   string    `json:"doc_id"` // as Guide's: "" for several documents
	File    string    `json:"file"`
	Section string    `json:"section,omitempty"`
	Docs    []Studied `json:"docs"`
	Lang    string    `json:"lang,omitempty"`
	Cards   []Card    `json:"cards"`
	Refused []Refusal `json:"refused,omitempty"`
	// Merged counts the near-duplicate cards merged into an earlier one
	// (its Also); Dedup says how they were found: DedupEmbedding with the
	// model DedupModel, DedupText (no embedding model, or none measured)
	// or DedupTextFallback (the embedding model failed: text only).
	Merged     int          `json:"merged"`
	Dedup      string       `json:"dedup"`
	DedupModel string       `json:"dedup_model,omitempty"`
	Models     []string     `json:"models,omitempty"`
	Notices    []llm.Notice `json:"notices,omitempty"`
}

// Cards makes flashcards from sc, one request per batch of passages
// (sized as a guide's). A card is refused when its answer cites no page,
// no document of the scope or a page its document does not have; the
// others keep the checker's verdict. Near duplicates are then merged
// (merge). Without a model it fails with ErrNeedsModel.
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
	d := Deck{Section: m.section, Docs: m.studied(), Lang: m.lang(o)}
	d.DocID, d.File, _, _ = m.head()
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
			c, why := card(qa[0], qa[1], m)
			if why != nil {
				d.Refused = append(d.Refused, Refusal{Question: qa[0], Answer: qa[1], Why: *why})
				continue
			}
			d.Cards = append(d.Cards, c)
		}
	}
	d.Models, d.Notices = g.Models, g.Notices
	d.Cards, d.Merged, d.Dedup, d.DedupModel, err = s.merge(ctx, d.Cards, d.Lang)
	return d, err
}

// CardID is a card's stable id: a hash of its document, its page and its
// question (case and spacing aside), 32 hex digits.
func CardID(docID string, page int, question string) string {
	h := sha256.Sum256([]byte(docID + "\x00" + strconv.Itoa(page) + "\x00" + norm(question)))
	return hex.EncodeToString(h[:16])
}

// card checks one card: its answer must cite a page of a document of m
// (the one document, whatever name the citation gives it, when there is
// one; the document the checker resolves the name to, when several).
func card(q, a string, m material) (Card, *message.Message) {
	refs := cite.Parse(a)
	if len(refs) == 0 {
		why := message.New(message.StudyCardNoCitation)
		return Card{}, &why
	}
	check := checkLine(a, m.hits)
	var first corpus.Document
	for i, r := range refs {
		doc, ok := citedDoc(m, check.Citations, i)
		if !ok {
			why := message.New(cite.ReasonUnknownFile)
			return Card{}, &why
		}
		if r.Page < 1 || r.Page > doc.Pages {
			why := message.Of(cardNoPage(doc, r.Page))
			return Card{}, &why
		}
		if i == 0 {
			first = doc
		}
	}
	c := Card{Question: q, Answer: a, Check: check, DocID: first.ID, Page: refs[0].Page}
	c.ID = CardID(c.DocID, c.Page, q)
	c.Label = corpus.CitationLabel(first.Label, first.Unit, c.Page)
	return c, nil
}

// citedDoc is the document of m the i-th citation names.
func citedDoc(m material, cits []cite.Citation, i int) (corpus.Document, bool) {
	if len(m.docs) == 1 {
		return m.docs[0].doc, true
	}
	if i >= len(cits) || cits[i].File == "" {
		return corpus.Document{}, false
	}
	for _, d := range m.docs {
		if d.doc.File == cits[i].File {
			return d.doc, true
		}
	}
	return corpus.Document{}, false
}

func cardNoPage(doc corpus.Document, page int) error {
	label := corpus.CitationLabel(doc.Label, doc.Unit, page)
	return message.Wrap(fmt.Errorf("study: %s has no page %s", doc.File, strconv.Itoa(page)), message.StudyCardNoPage, "label", label, "page", page)
}
