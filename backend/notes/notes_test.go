package notes

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"vika/backend/corpus"
)

const doc = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

var (
	now  = time.Date(2026, 12, 6, 11, 0, 0, 0, time.UTC)
	a4   = PageSize{Width: 595, Height: 842}
	good = Note{DocID: doc, Page: 3, Kind: Highlight, Color: "yellow", Quote: "Entropy is the average surprise.",
		Boxes: []Box{{72, 100, 300, 112}, {72, 114, 200, 126}}, Text: "exam!"}
)

func TestCleanRejectsWhatIsNotANote(t *testing.T) {
	for name, edit := range map[string]func(*Note){
		"page 0":           func(n *Note) { n.Page = 0 },
		"page past end":    func(n *Note) { n.Page = 11 },
		"colour":           func(n *Note) { n.Color = "red;background:url(x)" },
		"kind":             func(n *Note) { n.Kind = "script" },
		"no quote":         func(n *Note) { n.Quote = "  \x00 " },
		"no boxes":         func(n *Note) { n.Boxes = nil },
		"too many boxes":   func(n *Note) { n.Boxes = make([]Box, MaxBoxes+1) },
		"box off the page": func(n *Note) { n.Boxes[0] = Box{500, 800, 900, 900} },
		"NaN box":          func(n *Note) { n.Boxes[0] = Box{math.NaN(), 1, 2, 3} },
		"inverted box":     func(n *Note) { n.Boxes[0] = Box{300, 100, 72, 112} },
		"long quote":       func(n *Note) { n.Quote = strings.Repeat("é", MaxQuoteRunes+1) },
		"long text":        func(n *Note) { n.Text = strings.Repeat("x", MaxTextRunes+1) },
		"not UTF-8":        func(n *Note) { n.Text = "a\xffb" },
		"page note box":    func(n *Note) { n.Kind = PageNote },
		"empty page note":  func(n *Note) { n.Kind, n.Quote, n.Boxes, n.Text = PageNote, "", nil, "" },
		"document id":      func(n *Note) { n.DocID = "../../etc/passwd" },
	} {
		n := good
		n.ID = NewID()
		n.Boxes = append([]Box(nil), good.Boxes...)
		edit(&n)
		if _, err := Clean(n, 10, a4); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
}

func TestCleanKeepsTextPlain(t *testing.T) {
	n := good
	n.ID = NewID()
	n.Text = "  <script>alert(1)</script>\r\nline two\u202e\x07  "
	c, err := Clean(n, 10, a4)
	if err != nil {
		t.Fatal(err)
	}
	// Markup stays as the characters typed (the window and the exports
	// escape it); control and bidi-override characters go.
	if want := "<script>alert(1)</script>\nline two"; c.Text != want {
		t.Errorf("text %q, want %q", c.Text, want)
	}
}

func TestBookAndPassage(t *testing.T) {
	b := NewBook()
	n, err := b.Add(good, 10, a4, now)
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.Add(Note{DocID: doc, Page: 3, Kind: PageNote, Color: "blue", Text: "whole page: revise"}, 10, a4, now)
	if err != nil {
		t.Fatal(err)
	}
	list := b.List(doc)
	if len(list) != 2 || list[0].ID != p.ID || list[1].ID != n.ID {
		t.Errorf("list %v: want the page note, then the highlight", list)
	}
	if _, err := b.Edit(n.ID, "edited", "green", now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Edit(n.ID, "", "purple", now); !errors.Is(err, ErrInvalid) {
		t.Errorf("a colour off the palette: %v", err)
	}
	if _, err := b.Edit("nope", "x", "green", now); !errors.Is(err, ErrUnknown) {
		t.Errorf("an unknown note: %v", err)
	}
	got, _ := b.Get(n.ID)
	c := Passage(got, "en")
	if c.Kind != corpus.ChunkMine || c.ID != ChunkPrefix+n.ID || c.Page != 3 || !strings.Contains(c.Text, "Entropy is the average") || !strings.Contains(c.Text, "edited") {
		t.Errorf("passage %+v", c)
	}
	if c.BBox == nil || *c.BBox != (Box{72, 100, 300, 126}) {
		t.Errorf("passage box %v, want the union of the highlight's", c.BBox)
	}
	if b.Forget(doc) != 2 || b.Len() != 0 {
		t.Error("Forget left notes")
	}
}

func TestDecodeLeavesOutHostileNotes(t *testing.T) {
	b := NewBook()
	n, _ := b.Add(good, 10, a4, now)
	bad := n
	bad.ID = NewID()
	bad.Boxes = []Box{{0, 0, 5000, 5000}}
	future := n
	future.ID = NewID()
	future.Created = now.AddDate(1, 0, 0)
	other := n
	other.ID = NewID()
	other.DocID = strings.Repeat("b", 64)
	data, err := Encode([]Note{n, n, bad, future, other})
	if err != nil {
		t.Fatal(err)
	}
	check := func(id string, page int) (int, PageSize, bool) { return 10, a4, id == doc }
	kept, dropped, err := Decode(data, now, check)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 1 || kept[0].ID != n.ID || dropped != 4 {
		t.Errorf("kept %d (dropped %d), want the one good note", len(kept), dropped)
	}
	for name, data := range map[string][]byte{
		"not JSON":    []byte("<notes>"),
		"version":     []byte(`{"version":9,"notes":[]}`),
		"deep":        []byte(`{"version":1,"notes":[{"boxes":[[[[[[1]]]]]]}]}`),
		"huge":        make([]byte, MaxEncodedBytes+1),
		"wrong types": []byte(`{"version":1,"notes":[{"page":"3"}]}`),
	} {
		if _, _, err := Decode(data, now, check); !errors.Is(err, ErrDecode) {
			t.Errorf("%s: %v, want ErrDecode", name, err)
		}
	}
	many := make([]Note, 0, MaxNotes+1)
	for range MaxNotes + 1 {
		x := n
		x.ID = NewID()
		many = append(many, x)
	}
	data, _ = json.Marshal(encoded{Version: 1, Notes: many})
	if _, _, err = Decode(data, now, check); !errors.Is(err, ErrDecode) {
		t.Errorf("%d notes: %v, want ErrDecode", MaxNotes+1, err)
	}
	data, _ = json.Marshal(encoded{Version: 1, Notes: many[:MaxNotes]})
	if kept, dropped, err = Decode(data, now, check); err != nil || len(kept) != MaxNotes || dropped != 0 {
		t.Errorf("%d notes: kept %d, dropped %d, %v", MaxNotes, len(kept), dropped, err)
	}
}

// FuzzDecode: whatever a course file's notes table holds, Decode returns
// an error or notes that each pass Clean again unchanged, never more than
// MaxNotes, and never panics.
func FuzzDecode(f *testing.F) {
	b := NewBook()
	n, _ := b.Add(good, 10, a4, now)
	ok, _ := Encode([]Note{n})
	f.Add(ok)
	f.Add([]byte(`{"version":1,"notes":[{"id":"00000000000000000000000000000000","doc_id":"` + doc + `","page":1,"kind":"page","color":"blue","text":"x\u0000\u202e<b>","created":"2026-01-01T00:00:00Z","edited":"2026-01-01T00:00:00Z"}]}`))
	f.Add([]byte(`{"version":1,"notes":[{"boxes":[[1e308,-1e308,"x",null]]}]}`))
	f.Add([]byte(`[]`))
	check := func(id string, page int) (int, PageSize, bool) { return 10, a4, id == doc }
	f.Fuzz(func(t *testing.T, data []byte) {
		list, _, err := Decode(data, now, check)
		if err != nil {
			return
		}
		if len(list) > MaxNotes {
			t.Fatalf("%d notes", len(list))
		}
		for _, n := range list {
			c, err := Clean(n, 10, a4)
			if err != nil || c.Text != n.Text || c.Quote != n.Quote {
				t.Fatalf("a decoded note does not pass Clean again: %+v, %v", n, err)
			}
		}
	})
}
