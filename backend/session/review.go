package session

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/review"
	"vika/backend/srs"
	"vika/backend/study"
)

// Spaced repetition. The session owns the flashcards under review and
// their log (package review): every card the study tools make joins the
// deck, with its document, page and outline section; a grade schedules
// it (FSRS, package srs) and a quiz answer is logged; each is unsaved
// work, and a course file keeps them (SaveCourse, OpenCourse).

// ErrGrade is a grade outside Again (1) to Easy (4).
var ErrGrade = errors.New("a grade is 1 (again) to 4 (easy)")

func init() {
	message.Register(review.ErrUnknownCard, message.ReviewUnknownCard)
	message.Register(review.ErrFull, message.ReviewDeckFull)
	message.Register(ErrGrade, message.ReviewBadGrade)
}

// now is the session's clock.
func (s *Session) now() time.Time {
	if s.clock != nil {
		return s.clock()
	}
	return time.Now()
}

// endOfDay is the end of the student's day at now (local midnight): the
// "due today" queue holds what falls due before it.
func endOfDay(now time.Time) time.Time {
	y, m, d := now.Local().Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, time.Local)
}

// ReviewQueue returns the cards of sc due today, the longest overdue
// first, with each grade's next interval; at most limit (0: all).
func (s *Session) ReviewQueue(sc review.Scope, limit int) []review.Due {
	now := s.now()
	return s.reviews.Queue(sc, now, endOfDay(now), limit)
}

// ReviewCards returns every card of sc under review, due or not (a
// section studied again).
func (s *Session) ReviewCards(sc review.Scope) []review.Due {
	return s.reviews.Cards(sc, s.now())
}

// GradeCard records the student's grade of card id (srs.Again to
// srs.Easy) and returns the card as scheduled.
func (s *Session) GradeCard(id string, g int) (review.Due, error) {
	if !srs.Grade(g).Valid() {
		return review.Due{}, fmt.Errorf("%w: %d", ErrGrade, g)
	}
	now := s.now()
	c, err := s.reviews.Grade(id, srs.Grade(g), now)
	if err != nil {
		return review.Due{}, err
	}
	s.changed()
	for _, d := range s.reviews.Cards(review.Scope{DocID: c.DocID}, now) {
		if d.ID == id {
			return d, nil
		}
	}
	return review.Due{Card: c}, nil
}

// AnswerQuiz records a quiz answer on card id, right or wrong.
func (s *Session) AnswerQuiz(id string, right bool) error {
	if err := s.reviews.Quiz(id, right, s.now()); err != nil {
		return err
	}
	s.changed()
	return nil
}

// ReviewProgress counts the deck by document and outline section, with
// the weak sections.
func (s *Session) ReviewProgress() review.Progress {
	return s.reviews.Progress(endOfDay(s.now()))
}

// deckMade puts the cards of a deck just made under review, each in the
// section it was made for (a deck of one document's section), else the
// outline section of its page in its own document (a deck may span
// several).
func (s *Session) deckMade(ctx context.Context, d study.Deck) {
	docs := map[string]corpus.Document{}
	if all, err := s.eng.Documents(ctx); err == nil {
		for _, x := range all {
			docs[x.ID] = x
		}
	}
	cards := make([]review.Card, 0, len(d.Cards))
	for _, c := range d.Cards {
		doc := docs[c.DocID]
		section := ""
		if d.Section != "" && d.DocID == c.DocID {
			section = d.Section
		} else {
			section = doc.SectionAt(c.Page)
		}
		file := doc.File
		if file == "" {
			file = d.File
		}
		cards = append(cards, review.Card{ID: c.ID, DocID: c.DocID, File: file, Page: c.Page, Section: section,
			Question: c.Question, Answer: c.Answer, Label: c.Label})
	}
	if _, err := s.reviews.Add(cards, s.now()); err != nil {
		log.Printf("session: flashcards not put under review: %v", err)
	}
}

// restoreReviews puts a course's cards under review with their reviews
// (decoded and checked: untrusted), those of the session's documents
// only; a card the session already reviews keeps its own. It returns how
// many cards it added.
func (s *Session) restoreReviews(ctx context.Context, data []byte) int {
	if data == nil {
		return 0
	}
	dec, err := review.Decode(data, s.now())
	if err != nil {
		log.Printf("session: course reviews left out: %v", err)
		return 0
	}
	docs, err := s.eng.Documents(ctx)
	if err != nil {
		return 0
	}
	held := map[string]bool{}
	for _, d := range docs {
		held[d.ID] = true
	}
	kept := dec.Cards[:0]
	for _, c := range dec.Cards {
		if held[c.DocID] {
			kept = append(kept, c)
		}
	}
	dec.Cards = kept
	if dec.Dropped > 0 {
		log.Printf("session: %d of the course's cards and review rows left out", dec.Dropped)
	}
	return s.reviews.Restore(dec)
}

// ReviewQuiz is a quiz on the cards of sc under review (a weak section
// studied again): study.Quiz over them, in the order they were made.
// Their citations are not checked again here: the quiz shows them as
// cited, unchecked.
func (s *Session) ReviewQuiz(sc review.Scope) []study.QuizItem {
	var cards []study.Card
	for _, d := range s.reviews.Cards(sc, s.now()) {
		cards = append(cards, study.Card{ID: d.ID, Question: d.Question, Answer: d.Answer, Label: d.Label, DocID: d.DocID, Page: d.Page})
	}
	return study.Quiz(cards)
}
