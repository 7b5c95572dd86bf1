package sandbox

import (
	"context"
	"reflect"
	"testing"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/pdf"
	"vika/backend/testpdf"
)

// A document's information and outline cross the pipe whole and equal to
// what the in-process reader finds; a looping outline is dropped while
// the document is still added.
func TestAboutCrossesThePipe(t *testing.T) {
	o := newOpener(t, Config{})
	marks := []testpdf.Bookmark{{Title: "Introduction", Page: 1}, {Title: "Résultats", Depth: 1, Page: 2}}
	data := testpdf.Outlined(2, "Une étude", "Ada Lovelace", "Tables", "tables", "Vika tests", marks)
	res, err := run(context.Background(), o, "outlined.pdf", data)
	if err != nil {
		t.Fatal(err)
	}
	local, err := ingest.Run(context.Background(), "outlined.pdf", data, ingest.Options{Opener: ingest.InProcess}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []corpus.OutlineEntry{{Title: "Introduction", Page: 1}, {Title: "Résultats", Page: 2, Depth: 1}}
	if !reflect.DeepEqual(res.Doc.Outline, want) || !reflect.DeepEqual(local.Doc.Outline, want) {
		t.Errorf("outline %+v (in process %+v), want %+v", res.Doc.Outline, local.Doc.Outline, want)
	}
	if res.Doc.Meta.Title != "Une étude" || res.Doc.Meta.Author != "Ada Lovelace" || res.Doc.Meta.Created != "2024-01-02" || res.Doc.Meta != local.Doc.Meta {
		t.Errorf("meta %+v, in process %+v", res.Doc.Meta, local.Doc.Meta)
	}

	res, err = run(context.Background(), o, "loop.pdf", testpdf.HostileOutline(3, 40, true))
	if err != nil {
		t.Fatal(err)
	}
	if res.Doc.Outline != nil || len(res.Pages) != 1 || res.Pages[0].Failed() {
		t.Errorf("looping outline: outline %+v, %d pages", res.Doc.Outline, len(res.Pages))
	}
	res, err = run(context.Background(), o, "wide.pdf", testpdf.HostileOutline(5000, 40, false))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Doc.Outline) != pdf.MaxOutline {
		t.Errorf("wide outline: %d entries, want %d", len(res.Doc.Outline), pdf.MaxOutline)
	}
}

func TestBoundOutline(t *testing.T) {
	list := make([]corpus.OutlineEntry, pdf.MaxOutline+10)
	list[0] = corpus.OutlineEntry{Title: "a", Page: 9, Depth: 99}
	list[1] = corpus.OutlineEntry{Title: "b", Page: -3, Depth: -1}
	got := boundOutline(list, 5)
	if len(got) != pdf.MaxOutline || got[0].Page != 0 || got[0].Depth != pdf.MaxOutlineDepth-1 || got[1].Page != 0 || got[1].Depth != 0 {
		t.Errorf("boundOutline: %d entries, %+v %+v", len(got), got[0], got[1])
	}
}
