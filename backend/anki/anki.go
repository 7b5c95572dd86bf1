// Package anki writes flashcards in the two forms Anki imports: its
// tab-separated text format with file headers (#separator, #html, #deck,
// #tags, #columns) and the .apkg package (a zip holding the legacy
// collection.anki2 SQLite database, schema 11, and a "media" map). Cards
// are Anki's built-in "Basic" note type: a Front and a Back field.
//
// Fields are given as plain text: the writers escape it as HTML (Anki's
// fields are HTML) and turn line breaks into <br>, so an answer holding
// "<", "&" or a tab arrives as written.
//
// Call sites read: anki.WriteTSV(w, deck) and anki.WriteAPKG(ctx, path, deck).
package anki

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"html"
	"strings"
	"time"
	"unicode"
)

// Note is one flashcard: its question (Front), its answer (Back, with its
// source as the caller writes it) and its tags.
type Note struct {
	Front string
	Back  string
	Tags  []string
}

// Deck is what an export holds: the deck's name (Anki's "::" makes a
// subdeck), tags given to every note, and the notes in order.
type Deck struct {
	Name  string
	Tags  []string
	Notes []Note
	// Created stamps the collection and the ids; zero means now.
	Created time.Time
}

// ErrEmpty is a deck without a name or without a note to write.
var ErrEmpty = errors.New("anki: a deck needs a name and at least one card with a question and an answer")

// check refuses a deck Anki would import as nothing.
func (d Deck) check() error {
	if strings.TrimSpace(d.Name) == "" || len(d.Notes) == 0 {
		return ErrEmpty
	}
	for _, n := range d.Notes {
		if strings.TrimSpace(n.Front) == "" || strings.TrimSpace(n.Back) == "" {
			return ErrEmpty
		}
	}
	return nil
}

func (d Deck) created() time.Time {
	if d.Created.IsZero() {
		return time.Now()
	}
	return d.Created
}

// field is plain text as an Anki field: HTML-escaped (quotes included, so
// that no field opens a quoted CSV field), line breaks as <br>, tabs and
// the 0x1f field separator as spaces.
func field(s string) string {
	s = html.EscapeString(strings.TrimSpace(s))
	s = strings.NewReplacer("\r\n", "<br>", "\n", "<br>", "\r", "<br>", "\t", " ", "\x1f", " ").Replace(s)
	return s
}

// tag is s as one Anki tag: Anki separates tags by spaces, so spaces
// become underscores; a tag of nothing but spaces is dropped ("").
func tag(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), "_")
}

// tagsOf joins the deck's and the note's tags, without duplicates, in order.
func tagsOf(d Deck, n Note) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range append(append([]string(nil), d.Tags...), n.Tags...) {
		if t = tag(t); t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// guid is a note's stable id: the same deck and question give the same
// guid, so importing a new export updates the cards instead of doubling
// them.
func guid(deck, front string) string {
	sum := sha256.Sum256([]byte(deck + "\x1f" + front))
	return base64.RawStdEncoding.EncodeToString(sum[:8])
}

// checksum is Anki's csum of a note: the first 8 hex digits of the SHA-1
// of its sort field with the HTML removed, as an integer.
func checksum(sortField string) int64 {
	sum := sha1.Sum([]byte(stripHTML(sortField)))
	return int64(binary.BigEndian.Uint32(sum[:4]))
}

// stripHTML undoes field: Anki compares the text, not the markup.
func stripHTML(s string) string {
	return html.UnescapeString(strings.ReplaceAll(s, "<br>", " "))
}

// deckID is the deck's id in the collection: stable for its name, above 1
// (Anki's Default deck) and within JavaScript's safe integers.
func deckID(name string) int64 {
	sum := sha256.Sum256([]byte(name))
	return int64(binary.BigEndian.Uint64(sum[:8])>>12) + 2
}
