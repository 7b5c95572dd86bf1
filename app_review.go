package main

import (
	"vika/backend/review"
	"vika/backend/study"
)

// The review API of the Study view and the dashboard
// (frontend/src/lib/api/review.ts): the flashcards due today, a section's
// cards, a grade, a quiz answer, the progress. The session owns the deck
// and its log (backend/session/review.go).

// ReviewQueue returns the cards of sc due today with each grade's next
// interval, at most limit (0: all).
func (a *App) ReviewQueue(sc review.Scope, limit int) ([]review.Due, error) {
	return a.s.ReviewQueue(sc, limit), nil
}

// ReviewCards returns every card of sc under review, due or not.
func (a *App) ReviewCards(sc review.Scope) ([]review.Due, error) {
	return a.s.ReviewCards(sc), nil
}

// GradeCard records a grade (1 again, 2 hard, 3 good, 4 easy) of card id
// and returns the card as scheduled.
func (a *App) GradeCard(id string, grade int) (review.Due, error) {
	return a.s.GradeCard(id, grade)
}

// AnswerQuiz records a quiz answer on card id, right or wrong.
func (a *App) AnswerQuiz(id string, right bool) error {
	return a.s.AnswerQuiz(id, right)
}

// ReviewProgress returns the progress per document and outline section,
// with the weak sections.
func (a *App) ReviewProgress() (review.Progress, error) {
	return a.s.ReviewProgress(), nil
}

// ReviewQuiz returns a quiz on the cards of sc under review.
func (a *App) ReviewQuiz(sc review.Scope) ([]study.QuizItem, error) {
	return a.s.ReviewQuiz(sc), nil
}
