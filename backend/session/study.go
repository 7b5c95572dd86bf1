package session

import (
	"context"

	"vika/backend/corpus"
	"vika/backend/study"
)

// studier makes study material from the session's documents with the
// session's models: the same engine, router, fallback and checker as
// answers.
func (s *Session) studier() *study.Studier { return study.New(s.eng, s.svc) }

// StudyPlan says what a study guide of sc will cost before it starts: its
// requests and tokens (study.Plan).
func (s *Session) StudyPlan(ctx context.Context, sc study.Scope, o study.Options) (study.Plan, error) {
	return s.studier().PlanGuide(ctx, sc, o)
}

// StudyGuide makes the study guide of sc (an extractive outline without a
// model); progress hears of each request; ctx cancels it.
func (s *Session) StudyGuide(ctx context.Context, sc study.Scope, o study.Options, progress func(study.Progress)) (study.Guide, error) {
	return s.studier().Guide(ctx, sc, o, progress)
}

// StudyCards makes flashcards from sc (study.ErrNeedsModel without a
// model).
func (s *Session) StudyCards(ctx context.Context, sc study.Scope, o study.Options, progress func(study.Progress)) (study.Deck, error) {
	return s.studier().Cards(ctx, sc, o, progress)
}

// StudySections lists a document's outline entries that point to a page.
func (s *Session) StudySections(ctx context.Context, docID string) ([]corpus.OutlineEntry, error) {
	return s.studier().Sections(ctx, docID)
}
