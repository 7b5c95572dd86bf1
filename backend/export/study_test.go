package export

import (
	"archive/zip"
	"bytes"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	stdhtml "html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"vika/backend/cite"
	"vika/backend/metrics"
	"vika/backend/study"
)

func testDeck() study.Deck {
	return study.Deck{DocID: "abc", File: "vaswani2017 attention.pdf", Cards: []study.Card{
		{Question: "What does the Transformer rely on?", Answer: "Attention alone [vaswani2017 attention.pdf p.2]",
			Label: "[vaswani2017 attention.pdf p.2]", Page: 2, Check: study.Check{Verified: true}},
		{Question: "=HYPERLINK(\"http://x\")\t<script>alert(1)</script>", Answer: "It scores 7947.4 BLEU [vaswani2017 attention.pdf p.1]",
			Label: "[vaswani2017 attention.pdf p.1]", Page: 1, Check: study.Check{Reason: cite.ReasonNumbers}},
	}}
}

// TestCardsCSV: one row per card; a cell that would start a formula is
// guarded; the verdict and its reason are columns.
func TestCardsCSV(t *testing.T) {
	var b bytes.Buffer
	if err := Cards(&b, FormatCSV, testDeck()); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || strings.Join(rows[0], ",") != strings.Join(CardColumns, ",") {
		t.Fatalf("rows %q", rows)
	}
	if !strings.HasPrefix(rows[2][0], "'=") || rows[2][4] != "no" || rows[2][5] != "its numbers are not in the cited passage" || rows[1][3] != "2" {
		t.Errorf("rows %q", rows[1:])
	}
}

// TestCardsTSV: Anki's headers, then front, back and source per line,
// HTML escaped ("[" as a reference: Anki reads no tag in it), no tab
// inside a field, a formula's "=" as a reference.
func TestCardsTSV(t *testing.T) {
	var b bytes.Buffer
	if err := Cards(&b, FormatTSV, testDeck()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	head := map[string]string{}
	var body [][]string
	for _, l := range lines {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.HasPrefix(l, "#") {
			head[k] = v
			continue
		}
		body = append(body, strings.Split(l, "\t"))
	}
	want := map[string]string{"#separator": "tab", "#html": "true", "#notetype": "Basic", "#deck": "Vika::vaswani2017 attention",
		"#tags": "vika vaswani2017_attention", "#columns": "Front\tBack\tSource"}
	for k, v := range want {
		if head[k] != v {
			t.Errorf("%s = %q, want %q", k, head[k], v)
		}
	}
	if len(body) != 2 || len(body[1]) != 3 || strings.Contains(body[1][0], "<script>") ||
		!strings.Contains(body[1][1], "<i>(its numbers are not in the cited passage)</i>") || body[0][2] != "&#91;vaswani2017 attention.pdf p.2]" || body[1][0] != "&#61;HYPERLINK(&#34;http://x&#34;) &lt;script&gt;alert(1)&lt;/script&gt;" {
		t.Errorf("body %q", body)
	}
}

// TestAPKGOpensInPythonSQLite: the package is a zip of collection.anki2
// and media; Python's sqlite3 reads its notes, cards, fields and deck.
func TestAPKGOpensInPythonSQLite(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the .apkg cannot be read by another SQLite here")
	}
	var b bytes.Buffer
	if err := Cards(&b, FormatAPKG, testDeck()); err != nil {
		t.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var data bytes.Buffer
		data.ReadFrom(r)
		r.Close()
		os.WriteFile(filepath.Join(dir, f.Name), data.Bytes(), 0o600)
	}
	if strings.Join(names, ",") != "collection.anki2,media" {
		t.Fatalf("zip holds %v", names)
	}
	script := `
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
models, decks, ver = db.execute("select models, decks, ver from col").fetchone()
model = list(json.loads(models).values())[0]
notes = db.execute("select id, mid, flds, tags, csum from notes order by id").fetchall()
cards = db.execute("select nid, did, ord, type, queue from cards order by id").fetchall()
print(json.dumps({"ver": ver, "fields": [f["name"] for f in model["flds"]], "model": model["id"],
  "decks": {k: d["name"] for k, d in json.loads(decks).items()},
  "notes": [{"mid": n[1], "flds": n[2].split("\x1f"), "tags": n[3]} for n in notes],
  "cards": [{"nid": c[0], "did": c[1], "ord": c[2], "new": c[3] == 0 and c[4] == 0} for c in cards],
  "note_ids": [n[0] for n in notes],
  "tables": sorted(r[0] for r in db.execute("select name from sqlite_master where type='table'"))}))
`
	out, err := exec.Command(py, "-c", script, filepath.Join(dir, "collection.anki2")).CombinedOutput()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	var got struct {
		Ver    int
		Fields []string
		Model  int64
		Decks  map[string]string
		Notes  []struct {
			Mid  int64
			Flds []string
			Tags string
		}
		Cards []struct {
			Nid, Did int64
			Ord      int
			New      bool
		}
		NoteIDs []int64 `json:"note_ids"`
		Tables  []string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Ver != 11 || strings.Join(got.Fields, ",") != "Front,Back,Source" || strings.Join(got.Tables, ",") != "cards,col,graves,notes,revlog" {
		t.Errorf("collection %+v", got)
	}
	var deckID int64
	for id, name := range got.Decks {
		if name == "Vika::vaswani2017 attention" {
			json.Unmarshal([]byte(id), &deckID)
		}
	}
	if deckID == 0 || len(got.Notes) != 2 || len(got.Cards) != 2 {
		t.Fatalf("decks %v, %d notes, %d cards", got.Decks, len(got.Notes), len(got.Cards))
	}
	for i, n := range got.Notes {
		c := got.Cards[i]
		if n.Mid != got.Model || len(n.Flds) != 3 || n.Tags != " vika vaswani2017_attention " || c.Nid != got.NoteIDs[i] || c.Did != deckID || c.Ord != 0 || !c.New {
			t.Errorf("note %d %+v, card %+v", i, n, c)
		}
	}
	if got.Notes[0].Flds[0] != "What does the Transformer rely on?" || got.Notes[0].Flds[2] != "&#91;vaswani2017 attention.pdf p.2]" ||
		strings.Contains(got.Notes[1].Flds[0], "<script>") || !strings.Contains(got.Notes[1].Flds[1], "not in the cited passage") {
		t.Errorf("fields %q / %q", got.Notes[0].Flds, got.Notes[1].Flds)
	}
}

// TestGuideExport: the HTML page has the CSP and no script, escapes the
// lines and marks the unverified one; the Markdown keeps the sections.
func TestGuideExport(t *testing.T) {
	g := study.Guide{File: "v.pdf", From: 1, To: 15,
		Summary: []study.Line{{Text: "The Transformer uses attention <b>only</b> [v.pdf p.2]", Check: study.Check{Verified: true}},
			{Text: "It scores 7947.4 BLEU [v.pdf p.1]", Check: study.Check{Reason: cite.ReasonNumbers}}},
		Terms: []study.Term{{Term: "Self-attention", Definition: study.Line{Text: "relates positions of one sequence [v.pdf p.2]", Check: study.Check{Verified: true}}}},
		QAs:   []study.QA{{Question: "Why attention?", Answer: study.Line{Text: "It is parallel [v.pdf p.6]", Check: study.Check{Verified: true}}}},
	}
	var h, m bytes.Buffer
	if err := Guide(&h, FormatHTML, g, time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	page := h.String()
	for _, want := range []string{CSP, `<meta name="referrer" content="no-referrer">`, `<html lang="`, "&lt;b&gt;only&lt;/b&gt;", `<span class="cite unverified">not verified: its numbers are not in the cited passage</span>`, "<h2>Key terms</h2>", "Why attention?"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script") || strings.Contains(page, "<b>") {
		t.Error("page holds markup from the guide")
	}
	if err := Guide(&m, FormatMarkdown, g, time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Study guide: v.pdf", "## Summary", "*(not verified: its numbers are not in the cited passage)*", "## Likely exam questions", "1. **Why attention?**"} {
		if !strings.Contains(m.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, m.String())
		}
	}
}

// TestAPKGIdsAreStable: a deck exported twice, a day apart, has the same
// note type and deck ids, so that Anki updates the notes it imported the
// first time (same guid, same note type) instead of skipping them; another
// deck gets another deck id.
func TestAPKGIdsAreStable(t *testing.T) {
	ids := func(d study.Deck, now time.Time) (model, deck string) {
		path := filepath.Join(t.TempDir(), "collection.anki2")
		if err := writeCollection(t.Context(), path, d, now); err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var models, decks string
		if err := db.QueryRow("select models, decks from col").Scan(&models, &decks); err != nil {
			t.Fatal(err)
		}
		var m, dk map[string]json.RawMessage
		if err := json.Unmarshal([]byte(models), &m); err != nil || len(m) != 1 {
			t.Fatalf("models %s: %v", models, err)
		}
		if err := json.Unmarshal([]byte(decks), &dk); err != nil || len(dk) != 2 {
			t.Fatalf("decks %s: %v", decks, err)
		}
		for id := range m {
			model = id
		}
		for id := range dk {
			if id != "1" {
				deck = id
			}
		}
		return model, deck
	}
	d := testDeck()
	m1, d1 := ids(d, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	m2, d2 := ids(d, time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC))
	if m1 != m2 || d1 != d2 {
		t.Errorf("exported again: note type %s -> %s, deck %s -> %s", m1, m2, d1, d2)
	}
	other := d
	other.File = "shannon1948.pdf"
	if _, d3 := ids(other, time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)); d3 == d1 {
		t.Errorf("another deck has the same id %s", d3)
	}
}

// hostileDeck's cards hold what would make Anki play, fetch or typeset
// something, split a package's fields (\x1f), add a TSV header line, or
// start a spreadsheet formula.
func hostileDeck() study.Deck {
	return study.Deck{DocID: "h", File: "evil\n#html:false\x1f.pdf", Cards: []study.Card{
		{Question: "#deck:Default", Answer: "[sound:https://tracker.example/a.mp3] [latex]\\input{/etc/passwd}[/latex] [$]x[/$] [$$]y[/$$] [anki:tts lang=en]z[/anki:tts]",
			Label: "[h.pdf p.1]", Page: 1, Check: study.Check{Verified: true}},
		{Question: "+1\x1fextra field\x00\x07", Answer: `\(\href{javascript:alert(1)}{x}\) \[\unicode{x}\] and $E = mc^2$`,
			Label: "@SUM(A1)", Page: 2, Check: study.Check{Verified: true}},
		{Question: "-2", Answer: "=1+1", Label: "\t=cmd|' /C calc'!A0", Page: 3, Check: study.Check{Verified: true}},
	}}
}

// ankiTag matches the tags Anki reads in a field's HTML; mathJaxDelim the
// formula delimiters its MathJax reads in the text the card shows.
var (
	ankiTag      = regexp.MustCompile(`(?i)\[(sound:|/?latex\]|/?\$\$?\]|/?anki:)`)
	mathJaxDelim = regexp.MustCompile(`\\[()\[\]]`)
)

// TestAnkiFieldsInert: in the TSV and in the package, no field of a
// hostile card holds an Anki tag, a MathJax delimiter, a control character
// or a formula start, each note has its three fields, and the TSV has its
// own header lines only; the formula Vika reads ($E = mc^2$) is MathML, as
// in the window. Fails on main (checked by stashing the fix): the tags,
// the delimiters, \x1f (four fields in the package), the "+", "-", "="
// and "@" cells and the file name's line end (a second #html header).
func TestAnkiFieldsInert(t *testing.T) {
	check := func(where string, flds []string) {
		if len(flds) != 3 {
			t.Errorf("%s: %d fields %q", where, len(flds), flds)
		}
		for _, f := range flds {
			if ankiTag.MatchString(f) || mathJaxDelim.MatchString(stdhtml.UnescapeString(f)) {
				t.Errorf("%s: field %q holds Anki markup", where, f)
			}
			if strings.ContainsFunc(f, func(r rune) bool { return r < ' ' || r == 0x7f }) {
				t.Errorf("%s: field %q holds a control character", where, f)
			}
			if strings.HasPrefix(where, "tsv") && (metrics.StartsFormula(f) || strings.HasPrefix(f, "#")) {
				t.Errorf("%s: field %q starts a formula or a header", where, f)
			}
		}
	}
	var b bytes.Buffer
	if err := Cards(&b, FormatTSV, hostileDeck()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 6+3 {
		t.Fatalf("%d lines:\n%s", len(lines), b.String())
	}
	for i, l := range lines[6:] {
		check(fmt.Sprintf("tsv card %d", i+1), strings.Split(l, "\t"))
	}
	if strings.Count(b.String(), "\n#html:") != 1 {
		t.Errorf("TSV headers:\n%s", b.String())
	}
	if !strings.Contains(lines[7], "<math>") || strings.Contains(lines[7], "$E") {
		t.Errorf("the formula is not MathML: %s", lines[7])
	}

	path := filepath.Join(t.TempDir(), "collection.anki2")
	if err := writeCollection(t.Context(), path, hostileDeck(), exportTime); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("select flds from notes order by id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var flds string
		if err := rows.Scan(&flds); err != nil {
			t.Fatal(err)
		}
		n++
		check(fmt.Sprintf("apkg note %d", n), strings.Split(flds, "\x1f"))
	}
	if n != 3 {
		t.Errorf("%d notes", n)
	}
}

// TestGuideExportSeveral: a guide of several documents names each with
// its pages, in HTML and Markdown.
func TestGuideExportSeveral(t *testing.T) {
	g := study.Guide{File: "v.pdf, b.pdf", Docs: []study.Studied{{DocID: "1", File: "v.pdf", Label: "v.pdf", From: 1, To: 15}, {DocID: "2", File: "b.pdf", Label: "b.pdf", From: 1, To: 16}},
		Summary: []study.Line{{Text: "BERT builds on the Transformer [b.pdf p.3]", Check: study.Check{Verified: true}}}}
	for _, format := range []string{FormatHTML, FormatMarkdown} {
		var b bytes.Buffer
		if err := Guide(&b, format, g, time.Now()); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "Study guide: v.pdf, b.pdf") || !strings.Contains(b.String(), "v.pdf pages 1-15; b.pdf pages 1-16.") || strings.Contains(b.String(), "Pages 0-0") {
			t.Errorf("%s:\n%s", format, b.String())
		}
	}
}
