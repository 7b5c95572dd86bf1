package review

import (
	"cmp"
	"slices"
	"time"

	"vika/backend/corpus"
)

// Counts are the numbers of a document or a section.
type Counts struct {
	Cards     int `json:"cards"`
	Due       int `json:"due"` // due by the end of the day
	New       int `json:"new"` // never reviewed
	Reviewed  int `json:"reviewed"`
	Recalled  int `json:"recalled"` // graded Hard, Good or Easy
	Missed    int `json:"missed"`   // graded Again
	QuizRight int `json:"quiz_right"`
	QuizWrong int `json:"quiz_wrong"`
}

// misses and tries are what weakness is measured with: cards missed and
// quiz questions answered wrong, for all the reviews and answers.
func (c Counts) misses() int { return c.Missed + c.QuizWrong }
func (c Counts) tries() int  { return c.Reviewed + c.QuizRight + c.QuizWrong }

// SectionProgress is the progress made on one section of a document ("":
// its cards outside any section of its outline).
type SectionProgress struct {
	Section string `json:"section"`
	Counts
}

// DocProgress is the progress made on one document, whole and by section
// (in the order their cards were first made).
type DocProgress struct {
	DocID    string            `json:"doc_id"`
	File     string            `json:"file"`
	Counts                     // the whole document
	Sections []SectionProgress `json:"sections"`
}

// Weak is a section the student misses most, with its counts and the
// share of its reviews and quiz answers that were misses.
type Weak struct {
	DocID   string  `json:"doc_id"`
	File    string  `json:"file"`
	Section string  `json:"section"`
	Counts  Counts  `json:"counts"`
	Missed  float64 `json:"missed"` // misses / (reviews + quiz answers), 0 to 1
}

// Progress is the student's progress over the whole deck.
type Progress struct {
	Total Counts        `json:"total"`
	Docs  []DocProgress `json:"docs"`
	// Weak lists at most MaxWeak sections with misses, the largest share
	// of misses first (then the most misses).
	Weak []Weak `json:"weak"`
}

// MaxWeak is the most weak sections Progress lists.
const MaxWeak = 5

// Progress counts the deck by document and section: cards, due by until,
// new, reviews recalled and missed, quiz answers right and wrong.
func (d *Deck) Progress(until time.Time) Progress {
	cards, log := d.snapshot()
	byID := make(map[string]*Card, len(cards))
	for i := range cards {
		byID[cards[i].ID] = &cards[i]
	}
	out := Progress{Docs: []DocProgress{}, Weak: []Weak{}}
	docAt := map[string]int{}
	secAt := map[[2]string]int{}
	// counts returns the counts of c's document and section.
	counts := func(c *Card) (*Counts, *Counts) {
		di, ok := docAt[c.DocID]
		if !ok {
			di = len(out.Docs)
			docAt[c.DocID] = di
			out.Docs = append(out.Docs, DocProgress{DocID: c.DocID, File: c.File, Sections: []SectionProgress{}})
		}
		dp := &out.Docs[di]
		k := [2]string{c.DocID, corpus.NormTitle(c.Section)}
		si, ok := secAt[k]
		if !ok {
			si = len(dp.Sections)
			secAt[k] = si
			dp.Sections = append(dp.Sections, SectionProgress{Section: c.Section})
		}
		return &dp.Counts, &dp.Sections[si].Counts
	}
	for i := range cards {
		c := &cards[i]
		dc, sc := counts(c)
		for _, n := range []*Counts{&out.Total, dc, sc} {
			n.Cards++
			if !c.Memory.Due.After(until) {
				n.Due++
			}
			if c.Memory.LastReview.IsZero() {
				n.New++
			}
		}
	}
	for _, e := range log {
		c, ok := byID[e.Card]
		if !ok {
			continue
		}
		dc, sc := counts(c)
		for _, n := range []*Counts{&out.Total, dc, sc} {
			switch {
			case e.Kind == KindQuiz && e.Recalled():
				n.QuizRight++
			case e.Kind == KindQuiz:
				n.QuizWrong++
			case e.Recalled():
				n.Reviewed++
				n.Recalled++
			default:
				n.Reviewed++
				n.Missed++
			}
		}
	}
	for _, dp := range out.Docs {
		for _, s := range dp.Sections {
			if s.misses() == 0 {
				continue
			}
			out.Weak = append(out.Weak, Weak{DocID: dp.DocID, File: dp.File, Section: s.Section, Counts: s.Counts,
				Missed: float64(s.misses()) / float64(s.tries())})
		}
	}
	slices.SortStableFunc(out.Weak, func(a, b Weak) int {
		if c := cmp.Compare(b.Missed, a.Missed); c != 0 {
			return c
		}
		return cmp.Compare(b.Counts.misses(), a.Counts.misses())
	})
	if len(out.Weak) > MaxWeak {
		out.Weak = out.Weak[:MaxWeak]
	}
	return out
}
