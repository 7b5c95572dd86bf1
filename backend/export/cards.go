package export

import (
	"encoding/csv"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
	"unicode"

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
	return "Vika::" + strings.ReplaceAll(oneLine(noControl(name)), "::", ":")
}

// deckTags are the cards' Anki tags (spaces separate tags).
func deckTags(d study.Deck) []string {
	file := strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return '_' // a line end would end the TSV's #tags header
		}
		return r
	}, strings.TrimSuffix(d.File, ".pdf"))
	return []string{"vika", file}
}

// cardsTSV writes Anki's text import format: the file headers Anki reads
// (#separator, #html, #deck, #tags, #columns), then a line per card:
// front, back, source. Fields are HTML (#html:true), escaped, on one line
// (ankiField), and a field that a
// spreadsheet would read as a formula, or Anki as a header line ("#"),
// starts with a character reference instead (tsvField).
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

// cardFields are a card's Anki fields as HTML (ankiField): front, back
// (the answer, its formulas as MathML as the window shows them, marked
// when the checker could not verify it), source. The TSV and the package
// write the same fields.
func cardFields(c study.Card) [3]string {
	back := ankiField(c.Answer, true)
	if !c.Check.Verified {
		back += " <i>(" + esc(message.New(c.Check.Reason).English()) + ")</i>"
	}
	return [3]string{ankiField(c.Question, false), back, ankiField(c.Label, false)}
}

// ankiField writes a card's text (a model's, from untrusted course files)
// as an Anki field: redacted and escaped (esc), on one line (tabs and
// line ends as spaces), without other control characters (the package's
// field separator \x1f among them), with the formulas Vika
// reads (withMath) as the MathML the HTML export writes (formulaHTML), and
// nothing else Anki would read as markup (ankiInert).
func ankiField(s string, withMath bool) string {
	s = noMarkers.Replace(noControl(strings.NewReplacer("\t", " ", "\r", " ", "\n", " ").Replace(s)))
	if !withMath {
		return ankiInert.Replace(esc(s))
	}
	s = metrics.Redact(s)
	marked, formulas := markMath(s)
	h := fillMarkers(html.EscapeString(marked), func(int, bool) string { return "" }, func(n int, _ bool) string {
		if n >= len(formulas) {
			return ""
		}
		return formulaHTML(formulas[n], s)
	})
	return ankiInert.Replace(h)
}

// ankiInert keeps Anki from reading a field's text as its markup: "[" is
// written as a character reference, so that no [sound:...], [latex],
// [$], [$$] or [anki:...] tag matches (Anki matches them on the field's
// HTML; the card shows "[" all the same), and a zero-width space splits
// \( \) \[ \], so that Anki's MathJax finds no formula in the text.
var ankiInert = strings.NewReplacer(`\(`, "\\\u200b(", `\)`, "\\\u200b)", `\[`, "\\\u200b&#91;", `\]`, "\\\u200b]", "[", "&#91;")

// noControl removes s's control characters but tabs and line ends.
func noControl(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' {
			return -1
		}
		return r
	}, s)
}

// tsvField writes a field (on one line: ankiField) as a cell; a field a
// spreadsheet would read as a formula (metrics.StartsFormula) or Anki as a
// header line ("#") starts with its first character as a reference.
func tsvField(s string) string {
	s = strings.TrimLeft(s, " ")
	if metrics.StartsFormula(s) || strings.HasPrefix(s, "#") {
		return "&#" + strconv.Itoa(int(s[0])) + ";" + s[1:]
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
