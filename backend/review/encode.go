package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"time"

	"vika/backend/jsonbound"
	"vika/backend/srs"
)

// FormatVersion is the version of Encode's layout.
const FormatVersion = 1

// encoded is the deck as a course file keeps it.
type encoded struct {
	Version int     `json:"version"`
	Cards   []Card  `json:"cards"`
	Log     []Entry `json:"log"`
}

// Encode returns the deck's cards and log as JSON, nil when it holds no
// card.
func (d *Deck) Encode() ([]byte, error) {
	cards, log := d.snapshot()
	if len(cards) == 0 {
		return nil, nil
	}
	return json.Marshal(encoded{Version: FormatVersion, Cards: cards, Log: log})
}

// Bounds of Decode, counted before anything is decoded (jsonbound counts
// an object's keys as values): a card is 42 values in 2 objects, a log
// row 33 in 3. The largest deck a session keeps is within them
// (TestFullDeckFitsACourse, in package session); a deck within them
// costs at most about 100 MB of structs once decoded.
var decodeBounds = jsonbound.Limits{
	MaxValues:     MaxCards*48 + MaxLog*40 + 64,
	MaxContainers: MaxCards*3 + MaxLog*4 + 8,
	MaxArray:      MaxLog,
	MaxDepth:      4,
}

// Bounds of one card's text.
const (
	maxText  = 8 << 10 // a question or an answer
	maxName  = 1024    // a file name, a section title, a label
	maxPage  = 100_000
	maxCount = 1_000_000 // reviews, lapses, steps
)

var (
	cardID = regexp.MustCompile(`^[0-9a-f]{32}$`)
	docID  = regexp.MustCompile(`^[0-9a-f]{64}$`)
	// epoch is the earliest date a deck may hold: none was made before.
	epoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
)

// ErrDecode is a deck's encoding that is not JSON of this layout, or is
// over its bounds.
var ErrDecode = errors.New("the flashcards' reviews cannot be read")

// Decoded is what Decode kept of an encoded deck.
type Decoded struct {
	Cards []Card
	Log   []Entry
	// Dropped counts the cards and log rows left out: failing a check,
	// a duplicate, or a log row of a card left out.
	Dropped int
}

// Decode reads an encoded deck (a course file's: untrusted) at now:
// within its bounds, else nothing (ErrDecode); then each card and log row
// is checked (its id, document, page, sizes, state, grade, numbers and
// dates: none before 2020 nor more than a day after now, none past the
// longest interval) and left out when it fails. At most MaxCards cards and
// the newest MaxLog log rows are kept.
func Decode(data []byte, now time.Time) (Decoded, error) {
	var e encoded
	if err := jsonbound.Unmarshal(data, &e, decodeBounds); err != nil {
		return Decoded{}, fmt.Errorf("%w: %v", ErrDecode, err)
	}
	if e.Version < 1 || e.Version > FormatVersion {
		return Decoded{}, fmt.Errorf("%w: version %d", ErrDecode, e.Version)
	}
	latest := now.Add(24 * time.Hour)
	var out Decoded
	seen := map[string]bool{}
	for _, c := range e.Cards {
		if seen[c.ID] || len(out.Cards) >= MaxCards || validCard(c, latest) != nil {
			out.Dropped++
			continue
		}
		seen[c.ID] = true
		out.Cards = append(out.Cards, c)
	}
	for _, l := range e.Log {
		if !seen[l.Card] || validEntry(l, latest) != nil {
			out.Dropped++
			continue
		}
		out.Log = append(out.Log, l)
	}
	slices.SortStableFunc(out.Log, func(a, b Entry) int { return a.At.Compare(b.At) })
	if over := len(out.Log) - MaxLog; over > 0 {
		out.Log, out.Dropped = out.Log[over:], out.Dropped+over
	}
	return out, nil
}

func validCard(c Card, latest time.Time) error {
	switch {
	case !cardID.MatchString(c.ID):
		return errors.New("id")
	case !docID.MatchString(c.DocID):
		return errors.New("document")
	case c.Page < 1 || c.Page > maxPage:
		return errors.New("page")
	case len(c.File) > maxName || len(c.Section) > maxName || len(c.Label) > maxName:
		return errors.New("name")
	case c.Question == "" || len(c.Question) > maxText || len(c.Answer) > maxText:
		return errors.New("text")
	case !inRange(c.Added, latest):
		return errors.New("added")
	}
	return validMemory(c.Memory, latest)
}

func validMemory(m srs.Card, latest time.Time) error {
	switch {
	case !m.State.Valid():
		return errors.New("state")
	case !inRange(m.Due, latest.AddDate(0, 0, srs.MaxInterval+1)):
		return errors.New("due")
	case m.LastReview.IsZero() != (m.State == srs.New):
		return errors.New("last review")
	case !m.LastReview.IsZero() && !inRange(m.LastReview, latest):
		return errors.New("last review")
	case m.Reps < 0 || m.Reps > maxCount || m.Lapses < 0 || m.Lapses > maxCount || m.Step < 0 || m.Step > 16:
		return errors.New("counts")
	case m.ScheduledDays < 0 || m.ScheduledDays > srs.MaxInterval || m.ElapsedDays < 0 || m.ElapsedDays > 1_000_000:
		return errors.New("days")
	}
	return validState(m.State, m.Stability, m.Difficulty)
}

// validState checks a memory state: none for a new card, else FSRS's
// ranges.
func validState(st srs.State, s, d float64) error {
	if math.IsNaN(s) || math.IsNaN(d) || math.IsInf(s, 0) || math.IsInf(d, 0) {
		return errors.New("not a number")
	}
	if st == srs.New {
		if s != 0 || d != 0 {
			return errors.New("a new card's memory")
		}
		return nil
	}
	if s < 0.001 || s > srs.MaxInterval || d < 1 || d > 10 {
		return errors.New("memory out of range")
	}
	return nil
}

func validEntry(e Entry, latest time.Time) error {
	switch {
	case e.Kind != KindCard && e.Kind != KindQuiz:
		return errors.New("kind")
	case !e.Grade.Valid() || (e.Kind == KindQuiz && e.Grade != srs.Again && e.Grade != srs.Good):
		return errors.New("grade")
	case !inRange(e.At, latest):
		return errors.New("time")
	case e.Elapsed < 0 || e.Elapsed > 1_000_000:
		return errors.New("elapsed")
	}
	for _, m := range []Memory{e.Before, e.After} {
		if !m.State.Valid() || !inRange(m.Due, latest.AddDate(0, 0, srs.MaxInterval+1)) {
			return errors.New("memory")
		}
		if err := validState(m.State, m.Stability, m.Difficulty); err != nil {
			return err
		}
	}
	return nil
}

func inRange(t, latest time.Time) bool { return !t.Before(epoch) && !t.After(latest) }

// Restore adds the cards of a course to the deck with their memory
// states, and their log rows; a card the deck already holds keeps its own
// (and its log). It returns how many cards it added.
func (d *Deck) Restore(in Decoded) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	added := map[string]bool{}
	for _, c := range in.Cards {
		if _, ok := d.cards[c.ID]; ok || len(d.cards) >= MaxCards {
			continue
		}
		d.put(c)
		added[c.ID] = true
	}
	for _, e := range in.Log {
		if added[e.Card] {
			d.log = append(d.log, e)
		}
	}
	slices.SortStableFunc(d.log, func(a, b Entry) int { return a.At.Compare(b.At) })
	if over := len(d.log) - MaxLog; over > 0 {
		d.log = slices.Delete(d.log, 0, over)
	}
	return len(added)
}
