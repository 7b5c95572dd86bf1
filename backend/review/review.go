// Package review keeps a student's flashcards under review: the deck
// (each card with its document, page, outline section and FSRS memory
// state, package srs), the review log (every grade given and every quiz
// answer, with the memory state before and after), the queue of cards
// due, and the progress made per document and per outline section, with
// the weak sections (most missed for what was reviewed).
//
// The deck travels in course files as JSON (Encode); Decode reads one as
// untrusted input: bounded as it is read (package jsonbound), every card,
// grade, state and date checked, what fails a check left out.
//
// Call sites read: deck.Grade(id, srs.Good, now); deck.Due(scope, until).
package review

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"vika/backend/srs"
)

// Card is a flashcard under review.
type Card struct {
	ID       string    `json:"id"` // study.CardID: document, page, question
	DocID    string    `json:"doc_id"`
	File     string    `json:"file"`
	Page     int       `json:"page"`
	Section  string    `json:"section,omitempty"` // the outline section it belongs to, "" when none
	Question string    `json:"question"`
	Answer   string    `json:"answer"`
	Label    string    `json:"label"` // the page it cites, "[file.pdf p.N]"
	Added    time.Time `json:"added"`
	Memory   srs.Card  `json:"memory"`
}

// Kinds of a log entry.
const (
	KindCard = "card" // a flashcard graded Again, Hard, Good or Easy
	KindQuiz = "quiz" // a quiz answer: Good when right, Again when wrong
)

// Memory is a card's memory state, before or after a review.
type Memory struct {
	State      srs.State `json:"state"`
	Stability  float64   `json:"stability"`
	Difficulty float64   `json:"difficulty"`
	Due        time.Time `json:"due"`
}

func memoryOf(c srs.Card) Memory {
	return Memory{State: c.State, Stability: c.Stability, Difficulty: c.Difficulty, Due: c.Due}
}

// Entry is one row of the review log.
type Entry struct {
	At      time.Time `json:"at"`
	Card    string    `json:"card"`
	Kind    string    `json:"kind"`
	Grade   srs.Grade `json:"grade"`
	Elapsed int       `json:"elapsed_days"` // days since the card's previous review
	Before  Memory    `json:"before"`
	After   Memory    `json:"after"`
}

// Recalled reports whether the entry is a card remembered or a quiz
// question answered right.
func (e Entry) Recalled() bool { return e.Grade >= srs.Hard }

// Bounds of a deck: a term's worth of cards and years of daily reviews.
// A session keeps at most MaxCards cards (more are not added) and the
// newest MaxLog log rows.
const (
	MaxCards = 20_000
	MaxLog   = 200_000
)

// Errors.
var (
	ErrUnknownCard = errors.New("no such card under review")
	ErrFull        = errors.New("the deck is full")
)

// Deck is the cards under review and their log. Its methods are safe for
// concurrent use.
type Deck struct {
	mu    sync.Mutex
	cards map[string]*Card // guarded by mu
	order []string         // guarded by mu: card ids, in the order added
	log   []Entry          // guarded by mu: oldest first
}

// NewDeck returns an empty deck.
func NewDeck() *Deck { return &Deck{cards: map[string]*Card{}} }

// Add puts the cards not yet in the deck in it, new (due at now), and
// returns how many it added; a card already there keeps its reviews. The
// deck holds at most MaxCards: past them the rest are not added
// (ErrFull).
func (d *Deck) Add(cards []Card, now time.Time) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for _, c := range cards {
		if c.ID == "" {
			continue
		}
		if _, ok := d.cards[c.ID]; ok {
			continue
		}
		if len(d.cards) >= MaxCards {
			return n, fmt.Errorf("%w: %d cards", ErrFull, MaxCards)
		}
		c.Added, c.Memory = now, srs.NewCard(now)
		d.put(c)
		n++
	}
	return n, nil
}

func (d *Deck) put(c Card) {
	d.cards[c.ID] = &c
	d.order = append(d.order, c.ID)
}

// Grade records a review of card id graded g at now, schedules it (FSRS)
// and returns it.
func (d *Deck) Grade(id string, g srs.Grade, now time.Time) (Card, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.cards[id]
	if !ok {
		return Card{}, fmt.Errorf("%w: %q", ErrUnknownCard, id)
	}
	if !c.Memory.LastReview.IsZero() && now.Before(c.Memory.LastReview) {
		now = c.Memory.LastReview // a clock set back: the review is now
	}
	next, err := srs.Schedule(c.Memory, g, now)
	if err != nil {
		return Card{}, err
	}
	d.record(Entry{At: now, Card: id, Kind: KindCard, Grade: g, Elapsed: next.ElapsedDays,
		Before: memoryOf(c.Memory), After: memoryOf(next)})
	c.Memory = next
	return *c, nil
}

// Quiz records a quiz answer on card id, right or wrong. It is logged and
// counted in the progress; it does not move the card's schedule, which
// its flashcard reviews set.
func (d *Deck) Quiz(id string, right bool, now time.Time) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.cards[id]
	if !ok {
		return fmt.Errorf("%w: %q", ErrUnknownCard, id)
	}
	g := srs.Again
	if right {
		g = srs.Good
	}
	m := memoryOf(c.Memory)
	elapsed := 0
	if !c.Memory.LastReview.IsZero() {
		elapsed = max(0, int(now.Sub(c.Memory.LastReview).Hours()/24))
	}
	d.record(Entry{At: now, Card: id, Kind: KindQuiz, Grade: g, Elapsed: elapsed, Before: m, After: m})
	return nil
}

// record appends e to the log, dropping the oldest rows past MaxLog.
func (d *Deck) record(e Entry) {
	d.log = append(d.log, e)
	if over := len(d.log) - MaxLog; over > 0 {
		d.log = slices.Delete(d.log, 0, over)
	}
}

// Card returns card id.
func (d *Deck) Card(id string) (Card, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.cards[id]
	if !ok {
		return Card{}, false
	}
	return *c, true
}

// Len is the number of cards.
func (d *Deck) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.cards)
}

// Log returns a copy of the review log, oldest first.
func (d *Deck) Log() []Entry {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.log)
}

// Forget drops the cards of a document removed from the session, and
// their log.
func (d *Deck) Forget(docID string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	gone := map[string]bool{}
	d.order = slices.DeleteFunc(d.order, func(id string) bool {
		if d.cards[id].DocID == docID {
			gone[id] = true
			delete(d.cards, id)
			return true
		}
		return false
	})
	d.log = slices.DeleteFunc(d.log, func(e Entry) bool { return gone[e.Card] })
}

// snapshot copies the cards (in order) and the log.
func (d *Deck) snapshot() ([]Card, []Entry) {
	d.mu.Lock()
	defer d.mu.Unlock()
	cards := make([]Card, 0, len(d.order))
	for _, id := range d.order {
		cards = append(cards, *d.cards[id])
	}
	return cards, slices.Clone(d.log)
}
