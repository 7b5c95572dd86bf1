package notes

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"vika/backend/jsonbound"
)

// FormatVersion is the version of Encode's layout.
const FormatVersion = 1

type encoded struct {
	Version int    `json:"version"`
	Notes   []Note `json:"notes"`
}

// Encode returns notes as a course file keeps them, nil for none.
func Encode(notes []Note) ([]byte, error) {
	if len(notes) == 0 {
		return nil, nil
	}
	return json.Marshal(encoded{Version: FormatVersion, Notes: notes})
}

// MaxEncodedBytes bounds an encoding Decode reads: MaxNotes notes of the
// longest texts and most boxes (a course file's notes table).
const MaxEncodedBytes = 64 << 20

// decodeBounds are counted before anything is decoded: a note is at most
// 11 keys, 10 values and MaxBoxes boxes of 4 numbers.
var decodeBounds = jsonbound.Limits{
	MaxValues:     MaxNotes*(24+MaxBoxes*5) + 16,
	MaxContainers: MaxNotes*(3+MaxBoxes) + 8,
	MaxArray:      MaxNotes,
	MaxDepth:      5,
}

// ErrDecode is an encoding that is not JSON of this layout, or is over
// its bounds.
var ErrDecode = errors.New("the notes cannot be read")

// Check tells Decode a document's page count and its pages' sizes; ok is
// false for a document not in the session (its notes are left out).
type Check func(docID string, page int) (pages int, size PageSize, ok bool)

// Decode reads encoded notes (a course file's: untrusted) at now: within
// its bounds (at most MaxNotes notes), else nothing (ErrDecode); then each note is cleaned and
// checked (Clean, against its document's pages by check; its dates none
// before 2020 nor more than a day after now) and left out when it fails,
// as is a second note of one id. It returns the
// notes kept and how many were left out.
func Decode(data []byte, now time.Time, check Check) ([]Note, int, error) {
	if len(data) > MaxEncodedBytes {
		return nil, 0, fmt.Errorf("%w: %d bytes, at most %d", ErrDecode, len(data), MaxEncodedBytes)
	}
	var e encoded
	if err := jsonbound.Unmarshal(data, &e, decodeBounds); err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrDecode, err)
	}
	if e.Version < 1 || e.Version > FormatVersion {
		return nil, 0, fmt.Errorf("%w: version %d", ErrDecode, e.Version)
	}
	epoch, latest := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), now.Add(24*time.Hour)
	inRange := func(t time.Time) bool { return !t.Before(epoch) && !t.After(latest) }
	var out []Note
	dropped := 0
	seen := map[string]bool{}
	for _, n := range e.Notes {
		pages, size, ok := check(n.DocID, n.Page)
		if ok && !seen[n.ID] && len(out) < MaxNotes && inRange(n.Created) && inRange(n.Edited) {
			if c, err := Clean(n, pages, size); err == nil {
				seen[c.ID] = true
				out = append(out, c)
				continue
			}
		}
		dropped++
	}
	return out, dropped, nil
}
