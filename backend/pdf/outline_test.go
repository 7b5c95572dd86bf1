package pdf

import (
	"strconv"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/testpdf"
)

func TestMetaAndOutline(t *testing.T) {
	marks := []testpdf.Bookmark{
		{Title: "1 Introduction", Depth: 0, Page: 1},
		{Title: "1.1 Motivation", Depth: 1, Page: 2},
		{Title: "2 Méthodes et résultats", Depth: 0, Page: 3},
	}
	data := testpdf.Outlined(3, "Une étude des tables", "Ada Lovelace", "Tables", "tables, figures", "Vika tests", marks)
	d, err := Open(data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	m := d.Meta()
	want := corpus.Meta{Title: "Une étude des tables", Author: "Ada Lovelace", Subject: "Tables", Keywords: "tables, figures", Creator: "Vika tests"}
	got := m
	got.Producer, got.Created, got.Modified = "", "", ""
	if got != want {
		t.Errorf("Meta() = %+v, want %+v", m, want)
	}
	if !strings.Contains(m.Producer, "FPDF") {
		t.Errorf("Producer = %q, want fpdf's", m.Producer)
	}
	if m.Created != "2024-01-02" || m.Modified != m.Created {
		t.Errorf("Created, Modified = %q, %q, want 2024-01-02", m.Created, m.Modified)
	}
	out, err := d.Outline()
	if err != nil {
		t.Fatal(err)
	}
	var wantOut []corpus.OutlineEntry
	for _, b := range marks {
		wantOut = append(wantOut, corpus.OutlineEntry{Title: b.Title, Page: b.Page, Depth: b.Depth})
	}
	if !equalOutline(out, wantOut) {
		t.Errorf("Outline() = %+v, want %+v", out, wantOut)
	}
}

func equalOutline(a, b []corpus.OutlineEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestNoMetaNoOutline(t *testing.T) {
	d, err := Open(testpdf.PartlyBroken("A page without information.", 1), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if m := d.Meta(); m != (corpus.Meta{}) {
		t.Errorf("Meta() = %+v, want none", m)
	}
	if out, err := d.Outline(); err != nil || out != nil {
		t.Errorf("Outline() = %v, %v, want nil, nil", out, err)
	}
}

// A hostile outline (thousands of entries, a chain nested far too deep,
// an entry that is its own next sibling and child of itself) comes back
// bounded, in order, and without hanging.
func TestHostileOutline(t *testing.T) {
	const wide, deep = 2500, 40
	d, err := Open(testpdf.HostileOutline(wide, deep, false), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	out, err := d.Outline()
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != MaxOutline {
		t.Fatalf("%d entries, want the cap %d", len(out), MaxOutline)
	}
	for i, e := range out {
		if e.Depth != 0 || e.Page != 1 || e.Title != "Wide "+strconv.Itoa(i+1) {
			t.Fatalf("entry %d = %+v, want Wide %d at depth 0 on page 1", i, e, i+1)
		}
	}
	// With fewer wide entries the deep chain and the loop are reached:
	// the chain is cut at MaxOutlineDepth and the loop read once.
	d2, err := Open(testpdf.HostileOutline(3, deep, false), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	out, err = d2.Outline()
	if err != nil {
		t.Fatal(err)
	}
	maxDepth := 0
	for _, e := range out {
		maxDepth = max(maxDepth, e.Depth)
	}
	if maxDepth != MaxOutlineDepth-1 || len(out) != 3+MaxOutlineDepth+1 {
		t.Errorf("deepest entry at %d (want %d), %d entries (want %d)", maxDepth, MaxOutlineDepth-1, len(out), 3+MaxOutlineDepth+1)
	}
	if out[3].Title != "Deep 1" || out[4].Title != "Deep 2" || out[4].Depth != 1 || out[len(out)-1] != (corpus.OutlineEntry{Title: "Last", Page: 1}) {
		t.Errorf("entries = %+v, want Wide 1-3, Deep 1 then Deep 2 under it, ..., Last", out)
	}
	// A chain 20,000 levels deep (2.7 MB) loads and is cut the same way.
	d4, err := Open(testpdf.HostileOutline(3, 20000, false), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d4.Close()
	if out, err := d4.Outline(); err != nil || len(out) != 3+MaxOutlineDepth+1 {
		t.Errorf("20,000-deep outline: %d entries, %v; want %d", len(out), err, 3+MaxOutlineDepth+1)
	}
	// An outline that loops is refused with an error (the document opens
	// and reads; only its outline is lost).
	d3, err := Open(testpdf.HostileOutline(3, deep, true), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d3.Close()
	if out, err := d3.Outline(); err == nil || !strings.Contains(err.Error(), "outline") {
		t.Errorf("looping outline: %d entries, %v; want an error", len(out), err)
	}
	if _, err := d3.Page(1); err != nil {
		t.Errorf("page 1 under a looping outline: %v", err)
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("é", 300)
	if got := clip(long, 200); len([]rune(got)) != 200 || !strings.HasSuffix(got, "…") {
		t.Errorf("clip kept %d runes", len([]rune(got)))
	}
	if got := clip("a\x00b\u200b\tc\xff", 200); got != "ab c" {
		t.Errorf("clip = %q, want %q", got, "ab c")
	}
}

// A real paper's outline and information: the Transformer paper's 22
// bookmarks (sections to depth 2), each on the page whose text holds its
// heading, and pdfTeX's dates.
func TestRealOutline(t *testing.T) {
	d := openPath(t, testpdf.SharedPDF(t, "vaswani2017_attention_is_all_you_need.pdf"))
	defer d.Close()
	m := d.Meta()
	if m.Created != "2017-12-07" || m.Modified != "2020-03-10" || m.Creator != "LaTeX with hyperref package" {
		t.Errorf("Meta() = %+v", m)
	}
	out, err := d.Outline()
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 22 || out[0].Title != "1 Introduction" || out[len(out)-1].Title != "7 Conclusion" {
		t.Fatalf("Outline() = %+v, want 22 sections from 1 Introduction to 7 Conclusion", out)
	}
	depths := map[int]int{}
	for _, o := range out {
		depths[o.Depth]++
		p, err := d.Page(o.Page)
		if err != nil {
			t.Fatal(err)
		}
		// The heading's number and first word are on the bookmark's page.
		head := strings.Fields(o.Title)
		if !strings.Contains(p.Text, head[0]) || !strings.Contains(p.Text, head[1]) {
			t.Errorf("%q points at page %d, whose text lacks it", o.Title, o.Page)
		}
	}
	if depths[0] != 7 || depths[2] != 3 {
		t.Errorf("depths %v, want 7 sections and 3 sub-subsections", depths)
	}
}

func TestPDFDate(t *testing.T) {
	for in, want := range map[string]string{
		"D:20240102030405": "2024-01-02", "D:20230612002936-05'00'": "2023-06-12", "D:199807": "1998-07",
		"2001": "2001", "yesterday": "yesterday", "": "",
	} {
		if got := pdfDate(in); got != want {
			t.Errorf("pdfDate(%q) = %q, want %q", in, got, want)
		}
	}
}
