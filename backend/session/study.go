package session

import (
	"context"

	"vika/backend/corpus"
	"vika/backend/study"
)

// Study material is made from the session's documents with the session's
// models: the same engine, router, fallback and checker as answers.

// StudyPlan says what a study guide of sc will cost before it starts: its
// requests and tokens (study.Plan).
func (s *Session) StudyPlan(ctx context.Context, sc study.Scope, o study.Options) (study.Plan, error) {
	return s.study.Studier().PlanGuide(ctx, sc, o)
}

// StudyGuide makes the study guide of sc and waits (an extractive outline
// without a model); progress hears of each request; ctx cancels it.
func (s *Session) StudyGuide(ctx context.Context, sc study.Scope, o study.Options, progress func(study.Progress)) (study.Guide, error) {
	return s.study.Studier().Guide(ctx, sc, o, progress)
}

// StudyCards makes flashcards from sc and waits (study.ErrNeedsModel
// without a model); the cards made join the deck under review, as a
// job's do.
func (s *Session) StudyCards(ctx context.Context, sc study.Scope, o study.Options, progress func(study.Progress)) (study.Deck, error) {
	d, err := s.study.Studier().Cards(ctx, sc, o, progress)
	if err == nil {
		s.deckMade(ctx, d)
		s.changed()
	}
	return d, err
}

// StartStudyGuide makes the guide of sc in the background under the id
// the window chose; its study.Event values go out on EventStudyPrefix+id.
// The guide or cards made are unsaved work (Unsaved).
// The guide is kept with the document for the session (StudyGuideKept).
func (s *Session) StartStudyGuide(ctx context.Context, id string, sc study.Scope, o study.Options) error {
	return s.study.StartGuide(ctx, id, sc, o, s.studyEmit(id))
}

// StartStudyCards makes flashcards and their quiz in the background.
func (s *Session) StartStudyCards(ctx context.Context, id string, sc study.Scope, o study.Options) error {
	return s.study.StartCards(ctx, id, sc, o, s.studyEmit(id))
}

func (s *Session) studyEmit(id string) func(study.Event) {
	return s.studyMade(func(e study.Event) { s.emit(EventStudyPrefix+id, e) })
}

// CancelStudy stops a study job; it reports whether it was running.
func (s *Session) CancelStudy(id string) bool { return s.study.Cancel(id) }

// StudyGuideKept returns the last guide made of sc (a document, one of its
// sections, several documents or all of them) this session, or, for one
// document, kept in the processed-document cache when the student turned
// it on (Remember).
func (s *Session) StudyGuideKept(ctx context.Context, sc study.Scope) (study.Guide, bool) {
	return s.study.Kept(ctx, sc)
}

// StudySections lists a document's outline entries that point to a page.
func (s *Session) StudySections(ctx context.Context, docID string) ([]corpus.OutlineEntry, error) {
	return s.study.Studier().Sections(ctx, docID)
}

// SuggestQuestions asks the routed model for the questions a student
// would ask of a newly added document, in its language (lang, the
// window's, when it has none); study.ErrNeedsModel without a model.
func (s *Session) SuggestQuestions(ctx context.Context, docID, lang string) ([]string, error) {
	return s.study.Studier().Suggest(ctx, docID, lang)
}
