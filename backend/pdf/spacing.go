package pdf

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// stextInhibitSpaces stops MuPDF from inserting a space wherever two
// glyphs are further apart than it expects (FZ_STEXT_INHIBIT_SPACES).
const stextInhibitSpaces = 8

// A page whose text layer places every glyph on its own (the text layer
// some scanning tools add, or wide tracking) comes out of MuPDF with a
// space between every two letters ("T h e t o w n o f"), word spaces
// lost among them: no word of such a page can match a question
// (measured on an 1880s paper of MMLongBench-Doc, backend/eval/PAGES.md,
// where 15 of 17 pages came out so). Such a layer usually holds its word
// spaces as glyphs: read without inserted spaces, the page reads
// "The town of". letterSpaced tells such a text apart: most of its words
// are one letter long, and many different letters (normal prose has few
// one-letter words: "a", "I", a variable; a table of contents' dot
// leaders are not letters; a scatter plot's points are one letter, "G",
// over and over). wordy tells whether the second reading has words of a
// normal length.
const (
	letterSpacedMinWords   = 40
	letterSpacedShare      = 0.6
	letterSpacedMinLetters = 10
)

func letterSpaced(text string) bool {
	words := strings.Fields(text)
	if len(words) < letterSpacedMinWords {
		return false
	}
	single := 0
	letters := map[rune]bool{}
	for _, w := range words {
		if r, n := utf8.DecodeRuneInString(w); n == len(w) && unicode.IsLetter(r) {
			single++
			letters[unicode.ToLower(r)] = true
		}
	}
	return float64(single) >= letterSpacedShare*float64(len(words)) && len(letters) >= letterSpacedMinLetters
}

// wordy reports whether text reads as words: enough of them, of a mean
// length between 2 and 12 runes (not letter-spaced, not run together).
func wordy(text string) bool {
	words := strings.Fields(text)
	if len(words) < letterSpacedMinWords/4 || letterSpaced(text) {
		return false
	}
	mean := float64(utf8.RuneCountInString(strings.Join(words, ""))) / float64(len(words))
	return mean >= 2 && mean <= 12
}
