package session

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"vika/backend/course"
	"vika/backend/review"
	"vika/backend/srs"
	"vika/backend/study"
)

// TestFullDeckFitsACourse: the largest deck a session keeps (review.MaxCards
// cards of long questions and answers, review.MaxLog log rows) encodes
// within a course file's bound on reviews, and decodes whole within
// review.Decode's bounds: a session's own deck is never left out of the
// course it saves.
func TestFullDeckFitsACourse(t *testing.T) {
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	d := review.NewDeck()
	doc := strings.Repeat("ab", 32)
	cards := make([]review.Card, review.MaxCards)
	for i := range cards {
		q := fmt.Sprintf("What does the passage %d of the section on sampling distributions say about the standard error of the mean?", i)
		cards[i] = review.Card{ID: study.CardID(doc, 1+i%400, q), DocID: doc, File: "statistique_inferentielle_cours_complet.pdf", Page: 1 + i%400,
			Section: "Chapitre 3 : Estimation ponctuelle et intervalles de confiance", Question: q,
			Answer: strings.Repeat("The standard error of the mean falls as the square root of the sample size grows. ", 3) + "[statistique_inferentielle_cours_complet.pdf p.12]",
			Label:  "[statistique_inferentielle_cours_complet.pdf p.12]"}
	}
	if n, err := d.Add(cards, now); err != nil || n != review.MaxCards {
		t.Fatalf("Add = %d, %v", n, err)
	}
	at := now
	for i := range review.MaxLog {
		at = at.Add(time.Minute)
		if _, err := d.Grade(cards[i%review.MaxCards].ID, srs.Grades[i%4], at); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	b, err := d.Encode()
	if err != nil {
		t.Fatal(err)
	}
	encoded := time.Since(start)
	if max := course.DefaultLimits.MaxReviewBytes; int64(len(b)) > max {
		t.Fatalf("the largest deck encodes to %d bytes, over a course's %d", len(b), max)
	}
	start = time.Now()
	got, err := review.Decode(b, at)
	if err != nil || len(got.Cards) != review.MaxCards || len(got.Log) != review.MaxLog || got.Dropped != 0 {
		t.Fatalf("Decode: %d cards, %d rows, %d dropped, %v", len(got.Cards), len(got.Log), got.Dropped, err)
	}
	t.Logf("%d cards, %d log rows: %.1f MiB encoded in %v, decoded and checked in %v", review.MaxCards, review.MaxLog, float64(len(b))/(1<<20), encoded.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}
