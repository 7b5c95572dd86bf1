package export

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"vika/backend/message"
	"vika/backend/metrics"
	"vika/backend/study"
)

// Flashcard export formats.
const (
	FormatCSV  = "csv"
	FormatTSV  = "tsv"  // Anki's tab-separated import format, with its file headers
	FormatAPKG = "apkg" // an Anki package
)

// CardColumns are the flashcards' CSV header.
var CardColumns = []string{"question", "answer", "source", "page", "verified", "reason"}

// Cards writes a deck's flashcards as CSV, Anki TSV or an Anki package.
// Every text is redacted (metrics.Redact) as in every export.
func Cards(w io.Writer, format string, d study.Deck) error {
	switch format {
	case FormatCSV:
		return cardsCSV(w, d)
	case FormatTSV:
		return cardsTSV(w, d)
	case FormatAPKG:
		return APKG(w, d)
	}
	return fmt.Errorf("unknown flashcard format %q (want csv, tsv or apkg)", format)
}

// cardsCSV writes one row per card under CardColumns, each text cell
// guarded against CSV injection (metrics.CSVText).
func cardsCSV(w io.Writer, d study.Deck) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CardColumns); err != nil {
		return err
	}
	for _, c := range d.Cards {
		verified, reason := "yes", ""
		if !c.Check.Verified {
			verified, reason = "no", message.New(c.Check.Reason).English()
		}
		row := []string{metrics.CSVText(metrics.Redact(c.Question)), metrics.CSVText(metrics.Redact(c.Answer)),
			metrics.CSVText(c.Label), fmt.Sprint(c.Page), verified, reason}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// DeckName is the Anki deck a deck's cards go to: "Vika::" and the
// document's file name without its extension (and the section).
func DeckName(d study.Deck) string {
	name := strings.TrimSuffix(d.File, ".pdf")
	name = strings.TrimSuffix(name, ".PDF")
	if d.Section != "" {
		name += " - " + d.Section
	}
	return "Vika::" + strings.ReplaceAll(oneLine(name), "::", ":")
}

// deckTags are the cards' Anki tags (spaces separate tags).
func deckTags(d study.Deck) []string {
	file := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' {
			return '_'
		}
		return r
	}, strings.TrimSuffix(d.File, ".pdf"))
	return []string{"vika", file}
}

// cardsTSV writes Anki's text import format: the file headers Anki reads
// (#separator, #html, #deck, #tags, #columns), then a line per card:
// front, back, source. Fields are HTML (#html:true), escaped; tabs and
// line ends inside a field become spaces.
func cardsTSV(w io.Writer, d study.Deck) error {
	var b strings.Builder
	b.WriteString("#separator:tab\n#html:true\n#notetype:Basic\n")
	b.WriteString("#deck:" + DeckName(d) + "\n")
	b.WriteString("#tags:" + strings.Join(deckTags(d), " ") + "\n")
	b.WriteString("#columns:Front\tBack\tSource\n")
	for _, c := range d.Cards {
		f := cardFields(c)
		b.WriteString(tsvField(f[0]) + "\t" + tsvField(f[1]) + "\t" + tsvField(f[2]) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cardFields are a card's Anki fields as HTML: front, back (the answer,
// marked when the checker could not verify it), source.
func cardFields(c study.Card) [3]string {
	back := esc(c.Answer)
	if !c.Check.Verified {
		back += " <i>(" + esc(message.New(c.Check.Reason).English()) + ")</i>"
	}
	return [3]string{esc(c.Question), back, esc(c.Label)}
}

func tsvField(s string) string {
	return strings.NewReplacer("\t", " ", "\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
