package main

import (
	"bytes"
	"time"

	"vika/backend/corpus"
	"vika/backend/export"
	"vika/backend/study"
)

// The study API of the Study view (frontend/src/lib/api/study.ts): the
// plan of a guide, guides and flashcards started under the frontend's id
// (events on session.EventStudyPrefix + id), cancel, the guide kept, the
// exports. The command line's vika study runs the same session methods.

// StudyPlan returns the requests and tokens a guide of sc will take.
func (a *App) StudyPlan(sc study.Scope, o study.Options) (study.Plan, error) {
	return a.s.StudyPlan(a.ctx, sc, o)
}

// StudyGuide starts the guide of sc under id and returns at once.
func (a *App) StudyGuide(id string, sc study.Scope, o study.Options) error {
	return a.s.StartStudyGuide(a.ctx, id, sc, o)
}

// StudyCards starts flashcards and their quiz from sc under id.
func (a *App) StudyCards(id string, sc study.Scope, o study.Options) error {
	return a.s.StartStudyCards(a.ctx, id, sc, o)
}

// CancelStudy stops a study job; it reports whether it was running.
func (a *App) CancelStudy(id string) (bool, error) { return a.s.CancelStudy(id), nil }

// StudyGuideKept returns the guide made of sc this session (or kept in
// the document cache when it is on); a guide with no docs when there is
// none.
func (a *App) StudyGuideKept(sc study.Scope) (study.Guide, error) {
	g, _ := a.s.StudyGuideKept(a.ctx, sc)
	return g, nil
}

// StudySections lists a document's outline entries that point to a page.
func (a *App) StudySections(docID string) ([]corpus.OutlineEntry, error) {
	return a.s.StudySections(a.ctx, docID)
}

// ExportStudyGuide saves the kept guide of sc as "html" or "md" where the
// user picks; it returns the path, "" when cancelled.
func (a *App) ExportStudyGuide(sc study.Scope, format string) (string, error) {
	g, _ := a.s.StudyGuideKept(a.ctx, sc)
	var b bytes.Buffer
	if err := export.Guide(&b, format, g, time.Now()); err != nil {
		return "", err
	}
	return a.save("Export study guide", "vika-study-guide."+format, format, b.Bytes())
}

// ExportCards saves flashcards as "csv", "tsv" (Anki) or "apkg".
func (a *App) ExportCards(d study.Deck, format string) (string, error) {
	var b bytes.Buffer
	if err := export.Cards(&b, format, d); err != nil {
		return "", err
	}
	return a.save("Export flashcards", "vika-flashcards."+format, format, b.Bytes())
}

// SuggestQuestions returns the model's suggested questions for a newly
// added document (lang: the window's); the StudyNeedsModel error without
// a model, when the window keeps its offline ones.
func (a *App) SuggestQuestions(docID, lang string) ([]string, error) {
	return a.s.SuggestQuestions(a.ctx, docID, lang)
}
