package anki

import (
	"bytes"
	"errors"
	"html"
	"strings"
	"testing"
)

// TestWriteTSVHeadersAndFields parses the export as Anki does: header
// lines first, then one note per line, three tab-separated columns whose
// HTML, once unescaped, is the text given.
func TestWriteTSVHeadersAndFields(t *testing.T) {
	d := sample()
	var buf bytes.Buffer
	if err := WriteTSV(&buf, d); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	headers := map[string]string{}
	var rows [][]string
	for _, l := range lines {
		if strings.HasPrefix(l, "#") {
			k, v, ok := strings.Cut(l[1:], ":")
			if !ok || len(rows) > 0 {
				t.Fatalf("header %q misplaced or malformed", l)
			}
			headers[k] = v
			continue
		}
		rows = append(rows, strings.Split(l, "\t"))
	}
	want := map[string]string{"separator": "tab", "html": "true", "notetype": "Basic", "deck": d.Name,
		"columns": "Front\tBack\tTags", "tags column": "3"}
	for k, v := range want {
		if headers[k] != v {
			t.Errorf("header #%s = %q, want %q", k, headers[k], v)
		}
	}
	if len(rows) != len(d.Notes) {
		t.Fatalf("%d rows for %d notes:\n%s", len(rows), len(d.Notes), buf.String())
	}
	for i, r := range rows {
		if len(r) != 3 {
			t.Fatalf("row %d has %d columns: %q", i, len(r), r)
		}
		n := d.Notes[i]
		if got := fromField(r[0]); got != strings.ReplaceAll(n.Front, "\t", " ") {
			t.Errorf("row %d front %q, want %q", i, got, n.Front)
		}
		if got := fromField(r[1]); got != strings.ReplaceAll(n.Back, "\n", "<br>") {
			t.Errorf("row %d back %q, want %q", i, got, n.Back)
		}
		if strings.HasPrefix(r[0], "\"") || strings.HasPrefix(r[1], "\"") {
			t.Errorf("row %d opens a quoted field: %q", i, r)
		}
	}
	if rows[0][2] != "vika attention_is_all p5" || rows[2][2] != "vika attention_is_all" {
		t.Errorf("tags %q and %q: want the deck's tags then the note's, spaces as _, no duplicate", rows[0][2], rows[2][2])
	}
}

// fromField undoes the HTML escaping but keeps <br>, which Anki shows as
// a line break.
func fromField(s string) string {
	return strings.ReplaceAll(html.UnescapeString(strings.ReplaceAll(s, "<br>", "\x00")), "\x00", "<br>")
}

func TestWriteTSVRefusesAnEmptyDeck(t *testing.T) {
	for name, d := range map[string]Deck{
		"no notes":  {Name: "x"},
		"no name":   {Notes: []Note{{Front: "q", Back: "a"}}},
		"no answer": {Name: "x", Notes: []Note{{Front: "q", Back: "  "}}},
	} {
		var buf bytes.Buffer
		if err := WriteTSV(&buf, d); !errors.Is(err, ErrEmpty) || buf.Len() != 0 {
			t.Errorf("%s: err %v, %d bytes written; want ErrEmpty and nothing", name, err, buf.Len())
		}
	}
}
