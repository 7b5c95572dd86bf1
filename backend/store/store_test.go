package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"vika/backend/corpus"
	"vika/backend/message"
)

func open(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var truncated = message.New(message.Truncated)

// fixture returns a document with n pages of one chunk each; page 2 failed.
func fixture(id, label string, n int) (corpus.Document, []corpus.Page, []corpus.Chunk) {
	doc := corpus.Document{ID: id, File: "cours.pdf", Label: label, Bytes: 1234, Pages: n, Chunks: n,
		PageTypes: map[corpus.PageType]int{corpus.PageText: n - 1, corpus.PageScanned: 1}, OCRPages: 1,
		Lang: "fr", LangShares: map[string]float64{"fr": 0.8, "en": 0.2}, LangMixed: true, Warning: &truncated,
		Meta:    corpus.Meta{Title: "Cours de statistique", Author: "A. Martin", Created: "2024-01-02"},
		Outline: []corpus.OutlineEntry{{Title: "1 Intro", Page: 1}, {Title: "1.1 Échantillons", Page: n, Depth: 1}}}
	conf := 0.91
	var pages []corpus.Page
	var chunks []corpus.Chunk
	for p := 1; p <= n; p++ {
		page := corpus.Page{DocID: id, Number: p, Type: corpus.PageText, Text: fmt.Sprintf("text of %s page %d", id, p), Width: 595, Height: 842,
			Lang: "fr", LangConfidence: 0.97, Lines: []corpus.Line{{Start: 0, End: 4, BBox: [4]float64{10, 20, 30, 32}, Size: 10.5, Bold: true}}}
		if p == n {
			page.Type, page.OCRConfidence, page.Lines = corpus.PageScanned, &conf, nil
		}
		if p == 2 {
			why := message.New(message.PageTimeout, "page", 2, "limit", "30s")
			page.Text, page.Problem = "", &why
		}
		pages = append(pages, page)
		chunks = append(chunks, corpus.Chunk{ID: fmt.Sprintf("%s-p%d-c1", id, p), DocID: id, Page: p, CharStart: 0, CharEnd: 5,
			Text: page.Text, SectionTitle: "1 Intro", PageType: corpus.PageText, Lang: "en", Kind: corpus.ChunkBody, Pages: []int{p, p + 1}})
	}
	return doc, pages, chunks
}

// stored is a document as AddDocument takes it.
type stored struct {
	doc    corpus.Document
	pages  []corpus.Page
	chunks []corpus.Chunk
}

// addAll adds each document in turn.
func addAll(t *testing.T, s *Store, docs ...stored) {
	t.Helper()
	for _, d := range docs {
		if err := s.AddDocument(context.Background(), d.doc, d.pages, d.chunks); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	a, aPages, aChunks := fixture("aaa", "cours.pdf", 3)
	b, bPages, bChunks := fixture("bbb", "cours.pdf (2)", 1)
	addAll(t, s, stored{a, aPages, aChunks}, stored{b, bPages, bChunks})
	a.FailedPages = []int{2}

	docs, err := s.Documents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]corpus.Document{a, b}, docs); diff != "" {
		t.Errorf("Documents (-want +got):\n%s", diff)
	}
	got, err := s.DocumentByID(ctx, "aaa")
	if err != nil || !cmp.Equal(a, got) {
		t.Errorf("DocumentByID = %+v, %v", got, err)
	}
	pages, err := s.Pages(ctx, "aaa")
	if err != nil {
		t.Fatal(err)
	}
	// A page's problem comes back as the same JSON (its numbers as
	// json.Number) and the same English.
	asJSON := cmp.Transformer("json", func(m *message.Message) string {
		js, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return string(js)
	})
	if diff := cmp.Diff(aPages, pages, asJSON); diff != "" {
		t.Errorf("Pages (-want +got):\n%s", diff)
	}
	if got := pages[1].Problem.English(); got != "page 2 took too long and was skipped (more than 30s)" || pages[0].Failed() {
		t.Errorf("page 2's problem reads %q; page 1 failed: %v", got, pages[0].Failed())
	}
	chunks, err := s.Chunks(ctx, []string{"aaa-p3-c1", "bbb-p1-c1", "missing"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]corpus.Chunk{"aaa-p3-c1": aChunks[2], "bbb-p1-c1": bChunks[0]}
	if diff := cmp.Diff(want, chunks); diff != "" {
		t.Errorf("Chunks (-want +got):\n%s", diff)
	}
	ordered, err := s.DocumentChunks(ctx, "aaa")
	if err != nil || !cmp.Equal(aChunks, ordered) {
		t.Errorf("DocumentChunks = %v, %v", ordered, err)
	}
}

func TestStoreErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		op   func(*Store) error
		want error
	}{
		{"same id twice", func(s *Store) error {
			d, p, c := fixture("aaa", "other.pdf", 1)
			return s.AddDocument(ctx, d, p, c)
		}, ErrExists},
		{"same label twice", func(s *Store) error {
			d, p, c := fixture("ccc", "cours.pdf", 1)
			return s.AddDocument(ctx, d, p, c)
		}, ErrExists},
		{"delete unknown", func(s *Store) error { return s.DeleteDocument(ctx, "nope") }, corpus.ErrNotFound},
		{"get unknown", func(s *Store) error { _, err := s.DocumentByID(ctx, "nope"); return err }, corpus.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := open(t)
			d, p, c := fixture("aaa", "cours.pdf", 2)
			if err := s.AddDocument(ctx, d, p, c); err != nil {
				t.Fatal(err)
			}
			if err := tt.op(s); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if docs, _ := s.Documents(ctx); len(docs) != 1 || docs[0].ID != "aaa" {
				t.Errorf("session changed: %+v", docs)
			}
		})
	}
}

// A failure half-way through AddDocument leaves nothing behind.
func TestAddDocumentIsAtomic(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	d, p, c := fixture("aaa", "cours.pdf", 3)
	c[2].ID = c[0].ID // duplicate primary key on the third insert
	if err := s.AddDocument(ctx, d, p, c); err == nil {
		t.Fatal("AddDocument accepted duplicate chunk ids")
	}
	docs, _ := s.Documents(ctx)
	pages, _ := s.Pages(ctx, "aaa")
	chunks, _ := s.Chunks(ctx, []string{c[0].ID, c[1].ID})
	if len(docs)+len(pages)+len(chunks) != 0 {
		t.Errorf("leftovers after a failed add: %d docs, %d pages, %d chunks", len(docs), len(pages), len(chunks))
	}
	d, p, c = fixture("aaa", "cours.pdf", 3)
	if err := s.AddDocument(ctx, d, p, c); err != nil {
		t.Fatalf("retry after rollback: %v", err)
	}
}

func TestDeleteCascades(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	for _, id := range []string{"aaa", "bbb"} {
		d, p, c := fixture(id, id+".pdf", 2)
		if err := s.AddDocument(ctx, d, p, c); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteDocument(ctx, "aaa"); err != nil {
		t.Fatal(err)
	}
	pages, _ := s.Pages(ctx, "aaa")
	chunks, _ := s.Chunks(ctx, []string{"aaa-p1-c1", "bbb-p1-c1"})
	if len(pages) != 0 || cmp.Diff([]string{"bbb-p1-c1"}, keys(chunks), cmpopts.SortSlices(func(a, b string) bool { return a < b })) != "" {
		t.Errorf("after delete: %d pages, chunks %v", len(pages), keys(chunks))
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM pages`).Scan(&n); err != nil || n != 2 {
		t.Errorf("pages left = %d, %v; want 2 (cascade)", n, err)
	}
}

func keys(m map[string]corpus.Chunk) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestManyChunkIDs(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	d, p, c := fixture("aaa", "big.pdf", 1234)
	if err := s.AddDocument(ctx, d, p, c); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, ch := range c {
		ids = append(ids, ch.ID)
	}
	got, err := s.Chunks(ctx, ids)
	if err != nil || len(got) != len(ids) {
		t.Fatalf("Chunks(%d ids) = %d, %v", len(ids), len(got), err)
	}
	if got, _ := s.Chunks(ctx, nil); len(got) != 0 {
		t.Errorf("Chunks(nil) = %v", got)
	}
}

func TestInMemoryAndConcurrent(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	var file string
	var seq int
	var name string
	if err := s.db.QueryRowContext(ctx, `PRAGMA database_list`).Scan(&seq, &name, &file); err != nil || file != "" {
		t.Fatalf("database file = %q, %v; want in-memory", file, err)
	}
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("doc%d", w)
			d, p, c := fixture(id, id+".pdf", 5)
			if err := s.AddDocument(ctx, d, p, c); err != nil {
				t.Error(err)
			}
			if _, err := s.Documents(ctx); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if docs, _ := s.Documents(ctx); len(docs) != 8 {
		t.Errorf("%d documents, want 8", len(docs))
	}
}

// ReplaceText puts a document read further in place of what was stored of
// it: its pages, passages, counts and meta change; its label, its file
// and its place in the session stay; a document not stored fails.
func TestReplaceText(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	a, aPages, aChunks := fixture("aaa", "cours.pdf", 2)
	b, bPages, bChunks := fixture("bbb", "notes.pdf", 1)
	addAll(t, s, stored{a, aPages[:1], aChunks[:1]}, stored{b, bPages, bChunks})
	if err := s.PutFile(ctx, "aaa", []byte("%PDF-1.7")); err != nil {
		t.Fatal(err)
	}
	whole := a
	whole.Label, whole.OCRPages, whole.Lang, whole.Warning = "ignored.pdf", 2, "en", nil
	if err := s.ReplaceText(ctx, whole, aPages, aChunks); err != nil {
		t.Fatal(err)
	}
	docs, err := s.Documents(ctx)
	if err != nil || len(docs) != 2 || docs[0].ID != "aaa" || docs[0].Label != "cours.pdf" || docs[0].OCRPages != 2 || docs[0].Lang != "en" || docs[0].Warning != nil {
		t.Errorf("after replace: %+v, %v", docs, err)
	}
	pages, _ := s.Pages(ctx, "aaa")
	chunks, _ := s.DocumentChunks(ctx, "aaa")
	if len(pages) != 2 || len(chunks) != 2 || chunks[1].ID != "aaa-p2-c1" {
		t.Errorf("after replace: %d pages, passages %v", len(pages), chunks)
	}
	if data, err := s.File(ctx, "aaa"); err != nil || string(data) != "%PDF-1.7" {
		t.Errorf("file after replace: %q, %v", data, err)
	}
	if other, _ := s.DocumentChunks(ctx, "bbb"); len(other) != 1 {
		t.Errorf("the other document's passages: %v", other)
	}
	missing, p, c := fixture("ccc", "gone.pdf", 1)
	if err := s.ReplaceText(ctx, missing, p, c); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("replace of a document not stored: %v", err)
	}
}
