package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"vika/backend/srs"
	"vika/backend/study"
)

var t0 = time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)

const docA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
const docB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

func card(doc string, page int, section, q string) Card {
	return Card{ID: study.CardID(doc, page, q), DocID: doc, File: doc[:1] + ".pdf", Page: page, Section: section,
		Question: q, Answer: "the answer [" + doc[:1] + ".pdf p." + fmt.Sprint(page) + "]", Label: "[" + doc[:1] + ".pdf p." + fmt.Sprint(page) + "]"}
}

func deck(t *testing.T) (*Deck, []Card) {
	t.Helper()
	cards := []Card{
		card(docA, 2, "Sampling", "What is a sample?"),
		card(docA, 3, "Sampling", "What is the standard error?"),
		card(docA, 7, "Tests", "What is a p-value?"),
		card(docB, 1, "", "What is entropy?"),
	}
	d := NewDeck()
	if n, err := d.Add(cards, t0); err != nil || n != 4 {
		t.Fatalf("Add = %d, %v", n, err)
	}
	if n, _ := d.Add(cards[:2], t0.Add(time.Hour)); n != 0 {
		t.Fatalf("the same cards added again: %d", n)
	}
	return d, cards
}

// TestQueueBeforeAndAfterGrading: new cards are due at once; a card
// graded Good leaves today's queue after its learning steps, one graded
// Again comes back in a minute, and the four buttons' intervals are
// FSRS's (1 min, 6 min, 10 min, 8 days for a new card).
func TestQueueBeforeAndAfterGrading(t *testing.T) {
	d, cards := deck(t)
	endOfDay := t0.Add(14 * time.Hour)
	q := d.Queue(Scope{}, t0, endOfDay, 0)
	if len(q) != 4 {
		t.Fatalf("queue of %d cards, want 4", len(q))
	}
	if want := [4]int64{60, 360, 600, 8 * 86400}; q[0].Next != want {
		t.Errorf("a new card's intervals %v, ts-fsrs's %v", q[0].Next, want)
	}
	if got := d.Queue(Scope{DocID: docA, Section: " sampling "}, t0, endOfDay, 0); len(got) != 2 {
		t.Errorf("section queue of %d cards, want 2", len(got))
	}
	now := t0.Add(time.Minute)
	if _, err := d.Grade(cards[0].ID, srs.Easy, now); err != nil {
		t.Fatal(err)
	}
	c, err := d.Grade(cards[1].ID, srs.Again, now)
	if err != nil {
		t.Fatal(err)
	}
	if c.Memory.State != srs.Learning || !c.Memory.Due.Equal(now.Add(time.Minute)) {
		t.Errorf("Again on a new card: state %d due %s", c.Memory.State, c.Memory.Due)
	}
	q = d.Queue(Scope{}, now, endOfDay, 0)
	var ids []string
	for _, x := range q {
		ids = append(ids, x.ID)
	}
	// The card missed first (due in a minute), then the new ones; the
	// easy one is due in 8 days.
	if want := []string{cards[1].ID, cards[2].ID, cards[3].ID}; !cmp.Equal(ids, want) {
		t.Errorf("queue after grading %v, want %v", ids, want)
	}
	if _, err := d.Grade("nope", srs.Good, now); !errors.Is(err, ErrUnknownCard) {
		t.Errorf("unknown card: %v", err)
	}
	if _, err := d.Grade(cards[2].ID, 7, now); err == nil {
		t.Error("grade 7 accepted")
	}
	log := d.Log()
	if len(log) != 2 || log[1].Before.State != srs.New || log[1].After.State != srs.Learning || log[1].Grade != srs.Again || log[1].Kind != KindCard {
		t.Errorf("log %+v", log)
	}
}

// TestProgressWeakSections: reviews and quiz answers counted per document
// and section; the section missed most for its tries comes first among
// the weak ones, a section with no miss is not weak.
func TestProgressWeakSections(t *testing.T) {
	d, cards := deck(t)
	now := t0.Add(time.Minute)
	grade := func(i int, g srs.Grade) {
		t.Helper()
		if _, err := d.Grade(cards[i].ID, g, now); err != nil {
			t.Fatal(err)
		}
		now = now.Add(time.Minute)
	}
	grade(0, srs.Good)
	grade(1, srs.Again)
	grade(1, srs.Good)
	grade(2, srs.Again)
	grade(2, srs.Again)
	grade(3, srs.Easy)
	if err := d.Quiz(cards[2].ID, true, now); err != nil {
		t.Fatal(err)
	}
	if err := d.Quiz(cards[0].ID, false, now); err != nil {
		t.Fatal(err)
	}
	p := d.Progress(now.Add(12 * time.Hour))
	want := Counts{Cards: 4, Due: 3, New: 0, Reviewed: 6, Recalled: 3, Missed: 3, QuizRight: 1, QuizWrong: 1}
	if diff := cmp.Diff(want, p.Total); diff != "" {
		t.Errorf("total (-want +got):\n%s", diff)
	}
	if len(p.Docs) != 2 || len(p.Docs[0].Sections) != 2 || p.Docs[0].Sections[0].Section != "Sampling" {
		t.Fatalf("docs %+v", p.Docs)
	}
	sampling := Counts{Cards: 2, Due: 2, Reviewed: 3, Recalled: 2, Missed: 1, QuizWrong: 1}
	if diff := cmp.Diff(sampling, p.Docs[0].Sections[0].Counts); diff != "" {
		t.Errorf("Sampling (-want +got):\n%s", diff)
	}
	// Tests: 2 misses of 3 tries; Sampling: 2 of 4; b.pdf: none.
	if len(p.Weak) != 2 || p.Weak[0].Section != "Tests" || p.Weak[1].Section != "Sampling" {
		t.Fatalf("weak %+v", p.Weak)
	}
	if p.Weak[0].Missed < 0.66 || p.Weak[0].Missed > 0.67 {
		t.Errorf("Tests missed %.3f, want 2/3", p.Weak[0].Missed)
	}
	d.Forget(docA)
	if p := d.Progress(now); p.Total.Cards != 1 || p.Total.Reviewed != 1 || len(p.Weak) != 0 {
		t.Errorf("after forgetting a.pdf: %+v", p.Total)
	}
}

// TestEncodeDecode: a deck's cards and log come back equal, and restored
// into a deck that holds one of the cards, that card keeps its own.
func TestEncodeDecode(t *testing.T) {
	d, cards := deck(t)
	now := t0.Add(time.Minute)
	for i, g := range []srs.Grade{srs.Good, srs.Again, srs.Hard, srs.Easy} {
		if _, err := d.Grade(cards[i].ID, g, now); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Quiz(cards[2].ID, false, now); err != nil {
		t.Fatal(err)
	}
	b, err := d.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b, now)
	if err != nil || got.Dropped != 0 {
		t.Fatalf("Decode: dropped %d, %v", got.Dropped, err)
	}
	wantCards, wantLog := d.snapshot()
	if diff := cmp.Diff(wantCards, got.Cards); diff != "" {
		t.Errorf("cards (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantLog, got.Log); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}
	other := NewDeck()
	other.Add(cards[:1], now)
	if n := other.Restore(got); n != 3 {
		t.Errorf("restored %d cards, want 3", n)
	}
	if c, _ := other.Card(cards[0].ID); c.Memory.State != srs.New {
		t.Errorf("a card the deck held took the course's state %d", c.Memory.State)
	}
	if n := len(other.Log()); n != 4 {
		t.Errorf("log of %d rows, want 4 (the held card's row left out)", n)
	}
	if b, _ := NewDeck().Encode(); b != nil {
		t.Errorf("an empty deck encodes to %q", b)
	}
}

// TestDecodeHostile: a course's reviews are untrusted: a bomb is refused
// whole before decoding; cards and rows failing a check are left out.
func TestDecodeHostile(t *testing.T) {
	now := t0
	if _, err := Decode([]byte(`{"version":1,"cards":[],"log":[`+strings.Repeat(`{},`, MaxLog+5)+`{}]}`), now); !errors.Is(err, ErrDecode) {
		t.Errorf("a log over its bounds: %v", err)
	}
	if _, err := Decode([]byte(`{"version":1,"cards":[{"memory":{"due":"2026-01-01T00:00:00Z","stability":1e400}}]}`), now); !errors.Is(err, ErrDecode) {
		t.Errorf("a number out of float64: %v", err)
	}
	if _, err := Decode([]byte(`{"version":9,"cards":[]}`), now); !errors.Is(err, ErrDecode) {
		t.Errorf("version 9: %v", err)
	}
	good := card(docA, 2, "S", "Q?")
	good.Added, good.Memory = t0, srs.NewCard(t0)
	reviewed := card(docA, 3, "S", "R?")
	reviewed.Added = t0
	reviewed.Memory, _ = srs.Schedule(srs.NewCard(t0), srs.Good, t0)
	bad := func(f func(c *Card)) Card { c := reviewed; f(&c); return c }
	cards := []Card{good, reviewed, good, // a duplicate
		bad(func(c *Card) { c.ID = "../../x" }),
		bad(func(c *Card) { c.DocID = "short" }),
		bad(func(c *Card) { c.Page = -3 }),
		bad(func(c *Card) { c.Question = strings.Repeat("x", maxText+1) }),
		bad(func(c *Card) { c.Memory.State = 7 }),
		bad(func(c *Card) { c.Memory.Difficulty = 42 }),
		bad(func(c *Card) { c.Memory.Stability = -1 }),
		bad(func(c *Card) { c.Memory.LastReview = t0.AddDate(5, 0, 0) }),
		bad(func(c *Card) { c.Memory.Due = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC) }),
		bad(func(c *Card) { c.Memory.Reps = -1 }),
		bad(func(c *Card) { c.Memory.LastReview = time.Time{} }),
	}
	row := Entry{At: t0, Card: reviewed.ID, Kind: KindCard, Grade: srs.Good, Before: Memory{Due: t0}, After: memoryOf(reviewed.Memory)}
	badRow := func(f func(e *Entry)) Entry { e := row; f(&e); return e }
	log := []Entry{row,
		badRow(func(e *Entry) { e.Grade = 0 }),
		badRow(func(e *Entry) { e.Grade = 99 }),
		badRow(func(e *Entry) { e.Kind = "quiz"; e.Grade = srs.Hard }),
		badRow(func(e *Entry) { e.Kind = "exec" }),
		badRow(func(e *Entry) { e.At = t0.AddDate(100, 0, 0) }),
		badRow(func(e *Entry) { e.Card = "unknown" }),
		badRow(func(e *Entry) { e.After.Difficulty = 11 }),
		badRow(func(e *Entry) { e.Elapsed = -5 }),
	}
	b, err := json.Marshal(encoded{Version: FormatVersion, Cards: cards, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Cards) != 2 || got.Cards[0].ID != good.ID || got.Cards[1].ID != reviewed.ID || len(got.Log) != 1 {
		t.Fatalf("kept %d cards, %d rows (dropped %d)", len(got.Cards), len(got.Log), got.Dropped)
	}
	if want := len(cards) - 2 + len(log) - 1; got.Dropped != want {
		t.Errorf("dropped %d, want %d", got.Dropped, want)
	}
}
