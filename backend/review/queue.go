package review

import (
	"slices"
	"time"

	"vika/backend/corpus"
	"vika/backend/srs"
)

// Scope narrows the cards to a document ("" for all) and one section of
// its outline ("" for the whole document).
type Scope struct {
	DocID   string `json:"doc_id,omitempty"`
	Section string `json:"section,omitempty"`
}

func (s Scope) holds(c *Card) bool {
	return (s.DocID == "" || c.DocID == s.DocID) &&
		(s.Section == "" || corpus.NormTitle(c.Section) == corpus.NormTitle(s.Section))
}

// Due is a card of the queue with what each grade would do to it.
type Due struct {
	Card
	// Next is, for Again, Hard, Good and Easy, the seconds until the card
	// would be due again.
	Next [4]int64 `json:"next"`
}

// Queue returns the cards of scope due by until (the end of the
// student's day), the longest overdue first, new cards last in the order
// they were added; at most limit (0: all).
func (d *Deck) Queue(sc Scope, now, until time.Time, limit int) []Due {
	d.mu.Lock()
	var cards []Card
	for _, id := range d.order {
		if c := d.cards[id]; sc.holds(c) && !c.Memory.Due.After(until) {
			cards = append(cards, *c)
		}
	}
	d.mu.Unlock()
	slices.SortStableFunc(cards, func(a, b Card) int {
		an, bn := a.Memory.State == srs.New, b.Memory.State == srs.New
		switch {
		case an != bn:
			if an {
				return 1
			}
			return -1
		case an:
			return 0
		}
		return a.Memory.Due.Compare(b.Memory.Due)
	})
	if limit > 0 && len(cards) > limit {
		cards = cards[:limit]
	}
	out := make([]Due, 0, len(cards))
	for _, c := range cards {
		out = append(out, withNext(c, now))
	}
	return out
}

// Cards returns every card of scope, in the order added, each with what
// each grade would do to it now (the "study again" list of a section).
func (d *Deck) Cards(sc Scope, now time.Time) []Due {
	d.mu.Lock()
	var cards []Card
	for _, id := range d.order {
		if c := d.cards[id]; sc.holds(c) {
			cards = append(cards, *c)
		}
	}
	d.mu.Unlock()
	out := make([]Due, 0, len(cards))
	for _, c := range cards {
		out = append(out, withNext(c, now))
	}
	return out
}

func withNext(c Card, now time.Time) Due {
	at := now
	if !c.Memory.LastReview.IsZero() && at.Before(c.Memory.LastReview) {
		at = c.Memory.LastReview
	}
	out := Due{Card: c}
	if next, err := srs.Preview(c.Memory, at); err == nil {
		for i, n := range next {
			out.Next[i] = int64(n.Due.Sub(at) / time.Second)
		}
	}
	return out
}
