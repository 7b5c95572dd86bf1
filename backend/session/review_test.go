package session

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"vika/backend/course/coursetest"
	"vika/backend/llm/llmtest"
	"vika/backend/review"
	"vika/backend/srs"
	"vika/backend/study"
	"vika/backend/testpdf"
)

// reviewSession opens a session whose flashcards come from a Gemini fake
// speaking its wire format, adds an outlined PDF (Introduction p.1,
// Méthodes p.2-3, Résultats p.4-5) and makes its cards: one per section.
func reviewSession(t *testing.T, now *time.Time) (*Session, string) {
	t.Helper()
	gemini := llmtest.NewServer(t, "text/event-stream", func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash",
			"Q: What does page 1 say?\nA: It is page 1 of the outlined document [etude.pdf p.1]\n",
			"Q: What does page 3 say?\nA: It is page 3 of the outlined document [etude.pdf p.3]\n",
			"Q: What does page 4 say?\nA: It is page 4 of the outlined document [etude.pdf p.4]\n")}
	})
	h := &heard{}
	s := openWith(t, "", h, map[string]string{"GEMINI_API_KEY": "AIzaSyFAKE-review-0123456789", "VIKA_GEMINI_BASE_URL": gemini.URL})
	s.clock = func() time.Time { return *now }
	marks := []testpdf.Bookmark{{Title: "Introduction", Page: 1}, {Title: "Méthodes", Page: 2}, {Title: "Résultats", Page: 4}}
	path := filepath.Join(t.TempDir(), "etude.pdf")
	if err := os.WriteFile(path, testpdf.Outlined(5, "Une étude", "A", "S", "k", "c", marks), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := s.Ingest(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.StartStudyCards(t.Context(), "c1", study.Scope{DocID: r.Doc.ID}, study.Options{}); err != nil {
		t.Fatal(err)
	}
	h.wait(t, "cards done", func(e event) bool {
		ev, ok := e.payload.(study.Event)
		return ok && e.name == EventStudyPrefix+"c1" && (ev.Type == study.EventDone || ev.Type == study.EventError)
	})
	return s, r.Doc.ID
}

// TestReviewsThroughCourseFile: the cards made join the deck in the
// outline section of their page, due at once; a grade and a quiz answer
// are unsaved work; saved to a course file and opened in another session,
// the deck, the log, the queue and the progress come back the same.
func TestReviewsThroughCourseFile(t *testing.T) {
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.Local)
	s, docID := reviewSession(t, &now)
	q := s.ReviewQueue(review.Scope{}, 0)
	if len(q) != 3 {
		t.Fatalf("queue of %d cards, want 3", len(q))
	}
	var sections []string
	for _, c := range q {
		sections = append(sections, c.Section)
	}
	if want := []string{"Introduction", "Méthodes", "Résultats"}; !cmp.Equal(sections, want) {
		t.Errorf("sections %q, want %q", sections, want)
	}
	path := filepath.Join(t.TempDir(), "etude.vika")
	if _, err := s.SaveCourse(t.Context(), path, false); err != nil {
		t.Fatal(err)
	}
	if s.Unsaved() {
		t.Fatal("unsaved right after saving")
	}
	now = now.Add(time.Minute)
	d, err := s.GradeCard(q[1].ID, int(srs.Again))
	if err != nil {
		t.Fatal(err)
	}
	if d.Memory.State != srs.Learning || d.Next[0] != 60 {
		t.Errorf("graded Again: state %d, next %v", d.Memory.State, d.Next)
	}
	if !s.Unsaved() {
		t.Error("a review is not unsaved work")
	}
	if _, err := s.GradeCard(q[0].ID, int(srs.Easy)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GradeCard(q[0].ID, 9); err == nil {
		t.Error("grade 9 recorded")
	}
	if err := s.AnswerQuiz(q[2].ID, false); err != nil {
		t.Fatal(err)
	}
	if got := s.ReviewQueue(review.Scope{}, 0); len(got) != 2 {
		t.Errorf("queue after grading: %d cards, want 2 (the Easy one is due in 8 days)", len(got))
	}
	if _, err := s.SaveCourse(t.Context(), path, false); err != nil {
		t.Fatal(err)
	}

	other := open(t, "", &heard{})
	other.clock = func() time.Time { return now }
	if _, err := other.OpenCourse(t.Context(), path); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s.reviews.Log(), other.reviews.Log()); diff != "" {
		t.Errorf("log through the course file (-saved +opened):\n%s", diff)
	}
	if diff := cmp.Diff(s.ReviewQueue(review.Scope{}, 0), other.ReviewQueue(review.Scope{}, 0)); diff != "" {
		t.Errorf("queue through the course file (-saved +opened):\n%s", diff)
	}
	p := other.ReviewProgress()
	if diff := cmp.Diff(s.ReviewProgress(), p); diff != "" {
		t.Errorf("progress through the course file (-saved +opened):\n%s", diff)
	}
	if p.Total.Reviewed != 2 || p.Total.Missed != 1 || p.Total.QuizWrong != 1 || len(p.Weak) != 2 {
		t.Errorf("progress %+v", p)
	}
	quiz := other.ReviewQuiz(review.Scope{DocID: docID, Section: "méthodes"})
	if len(quiz) != 1 || quiz[0].Card.ID != q[1].ID || quiz[0].Question != "What does page 3 say?" {
		t.Errorf("quiz on Méthodes %+v", quiz)
	}
	if other.Unsaved() {
		t.Error("a course opened into an empty session is unsaved")
	}
	if err := other.RemoveDocument(t.Context(), docID); err != nil {
		t.Fatal(err)
	}
	if n := len(other.ReviewCards(review.Scope{})); n != 0 {
		t.Errorf("%d cards left under review after their document was removed", n)
	}
}

// TestHostileCourseReviews: a course whose reviews are an absurd log (a
// bomb of empty rows, the checks of the course file passed) opens with
// its PDF and no reviews.
func TestHostileCourseReviews(t *testing.T) {
	s := open(t, "", &heard{})
	dir := t.TempDir()
	var bomb *coursetest.Crafted
	for _, f := range coursetest.Files(t, dir, testpdf.Text("The sampling distribution of the mean."), s.eng.Setup()) {
		if f.Name == "reviews-bomb" {
			bomb = &f
		}
	}
	if bomb == nil {
		t.Fatal("coursetest makes no reviews-bomb")
	}
	res, err := s.OpenCourse(t.Context(), bomb.Path)
	if err != nil || len(res.Added) != 1 {
		t.Fatalf("OpenCourse = %+v, %v", res, err)
	}
	if n := len(s.ReviewCards(review.Scope{})); n != 0 {
		t.Errorf("%d cards restored from a bomb", n)
	}
}
