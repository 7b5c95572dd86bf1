package engine

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/message"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// describedPaper commits a two-page paper with a figure (with its crop) and
// a table (without) and returns its id.
func describedPaper(t *testing.T, e *Engine) string {
	t.Helper()
	data := testpdf.Text("Residual networks ease the training of deep networks.", "The architectures are listed below.")
	id := ingest.DocID(data)
	figBox, tabBox := [4]float64{72, 100, 300, 260}, [4]float64{72, 80, 520, 200}
	res := ingest.Result{
		Doc: corpus.Document{ID: id, File: "paper.pdf", Pages: 2, Chunks: 4},
		Pages: []corpus.Page{
			{DocID: id, Number: 1, Type: corpus.PageText, Text: "Residual networks ease the training of deep networks.",
				Regions: []corpus.Region{{Kind: corpus.ChunkFigure, Page: 1, BBox: figBox, Caption: "Figure 1: Residual learning: a building block.", Image: pngOf(t, 60)}}},
			{DocID: id, Number: 2, Type: corpus.PageText, Text: "The architectures are listed below.",
				Regions: []corpus.Region{{Kind: corpus.ChunkTable, Page: 2, BBox: tabBox, Caption: "Table 1: Architectures.", Text: "| layer | 18-layer | 34-layer |\n|---|---|---|\n| conv1 | 7x7, 64 | 7x7, 64 |"}}},
		},
		Chunks: []corpus.Chunk{
			{ID: id + "-p1-c0", DocID: id, Page: 1, Text: "Residual networks ease the training of deep networks.", Kind: corpus.ChunkBody, Lang: "en", PageType: corpus.PageText},
			{ID: id + "-p1-f0", DocID: id, Page: 1, Text: "Figure 1: Residual learning: a building block.", Kind: corpus.ChunkFigure, BBox: &figBox, Lang: "en", PageType: corpus.PageText},
			{ID: id + "-p2-t0", DocID: id, Page: 2, Text: "Table 1: Architectures.\n| layer | 18-layer | 34-layer |", Kind: corpus.ChunkTable, BBox: &tabBox, Lang: "en", PageType: corpus.PageText},
			// The second piece of the same (long) table: one summary for both.
			{ID: id + "-p2-t1", DocID: id, Page: 2, Text: "Table 1: Architectures.\n| layer | 18-layer | 34-layer |\n| conv1 | 7x7, 64 | 7x7, 64 |", Kind: corpus.ChunkTable, BBox: &tabBox, Lang: "en", PageType: corpus.PageText},
		},
	}
	if _, err := e.commit(context.Background(), res, nil, nil, data); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestDescribeIndexesDescriptions: a figure's description and a table's
// summary become passages of their kind, page and box that search finds
// by words only they hold; the region keeps its description; describing
// again does nothing twice; the cap counts what it leaves out.
func TestDescribeIndexesDescriptions(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	id := describedPaper(t, e)
	var asked []string
	var progress [][2]int
	d := func(ctx context.Context, r corpus.Region, lang string) (string, error) {
		asked = append(asked, string(r.Kind)+":"+lang)
		if r.Kind == corpus.ChunkFigure {
			if len(r.Image) == 0 {
				t.Error("a figure was described without its crop")
			}
			return "A shortcut connection adds the input x to the output of two weight layers.", nil
		}
		return "Both architectures start with a seven by seven convolution of sixty-four filters.", nil
	}
	rep, err := e.Describe(ctx, id, d, DescribeOptions{Max: 10, Tables: true, Progress: func(done, total int) { progress = append(progress, [2]int{done, total}) }})
	if err != nil {
		t.Fatal(err)
	}
	if rep != (DescribeReport{Figures: 1, Tables: 1}) || strings.Join(asked, ",") != "figure:en,table:en" || len(progress) != 2 || progress[1] != [2]int{2, 2} {
		t.Fatalf("report %+v, asked %v, progress %v", rep, asked, progress)
	}
	hits, err := e.Search(ctx, retrieve.Query{Question: "shortcut connection weight layers"}, SearchOptions{Mode: "bm25", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits.Hits) == 0 || hits.Hits[0].ChunkID != id+"-p1-f0"+DescribedSuffix || hits.Hits[0].Kind != corpus.ChunkFigure || hits.Hits[0].Page != 1 ||
		!strings.HasPrefix(hits.Hits[0].Text, "Figure 1: Residual learning") {
		t.Fatalf("search for the description: %+v", hits.Hits)
	}
	if r, ok := e.RegionOf(ctx, hits.Hits[0].ChunkID); !ok || len(r.Image) == 0 || !strings.HasPrefix(r.Description, "A shortcut") {
		t.Errorf("the description's passage does not lead to the figure: %+v %v", r.Caption, ok)
	}
	if rs := e.RegionsOn(ctx, id, 1); len(rs) != 1 || rs[0].Description == "" {
		t.Error("the page's figure lost its description")
	}
	tabs, err := e.Search(ctx, retrieve.Query{Question: "seven convolution sixty-four filters"}, SearchOptions{Mode: "bm25", K: 3})
	if err != nil || len(tabs.Hits) == 0 || tabs.Hits[0].Kind != corpus.ChunkTable || tabs.Hits[0].Page != 2 {
		t.Fatalf("search for the table summary: %+v %v", tabs.Hits, err)
	}

	asked = nil
	rep, err = e.Describe(ctx, id, d, DescribeOptions{Max: 10, Tables: true})
	if err != nil || rep != (DescribeReport{Already: 2}) || len(asked) != 0 {
		t.Errorf("second run: %+v %v, asked %v", rep, err, asked)
	}
}

func TestDescribeCapAndFailure(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	id := describedPaper(t, e)
	rep, err := e.Describe(ctx, id, func(context.Context, corpus.Region, string) (string, error) { return "A block diagram.", nil },
		DescribeOptions{Max: 1, Tables: true})
	if err != nil || rep != (DescribeReport{Figures: 1, OverCap: 1}) {
		t.Errorf("cap 1: %+v %v", rep, err)
	}
	boom := errors.New("rate limited")
	rep, err = e.Describe(ctx, id, func(context.Context, corpus.Region, string) (string, error) { return "", boom },
		DescribeOptions{Max: 5, Tables: true})
	if !errors.Is(err, boom) || rep.Already != 1 || rep.Tables != 0 {
		t.Errorf("failing describer: %+v %v", rep, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.Describe(cctx, id, nil, DescribeOptions{Max: 5, Tables: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := e.Describe(ctx, "nope", nil, DescribeOptions{Max: 5}); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("unknown document: %v", err)
	}
	if rep, err := e.Describe(ctx, id, nil, DescribeOptions{Max: 5}); err != nil || rep != (DescribeReport{Already: 1}) {
		t.Errorf("tables off: %+v %v", rep, err)
	}
}

func TestStartDescribe(t *testing.T) {
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	id := describedPaper(t, e)
	events := make(chan Progress, 16)
	e.StartDescribe(id, func(context.Context, corpus.Region, string) (string, error) { return "A block diagram.", nil },
		DescribeOptions{Max: 5, Tables: true}, func(p Progress) { events <- p })
	var stages []string
	for p := range events {
		stages = append(stages, p.Stage)
		if p.File != "paper.pdf" {
			t.Errorf("file = %q", p.File)
		}
		if p.Stage == StageDone {
			if p.Doc == nil || p.Doc.ID != id {
				t.Fatalf("done without the document: %+v", p)
			}
			// The library's card shows this count: it includes the two
			// passages written now.
			if chunks, err := e.Chunks(context.Background(), id); err != nil || p.Doc.Chunks != len(chunks) || p.Doc.Chunks != 6 {
				t.Errorf("done: the document counts %d passages, the session holds %d (%v), want 6", p.Doc.Chunks, len(chunks), err)
			}
			break
		}
		if p.Stage == StageFailed {
			t.Fatalf("failed: %s", p.Error)
		}
	}
	if got := strings.Join(stages, ","); got != "queued,describing,describing,describing,done" {
		t.Errorf("stages = %s", got)
	}

	// A describer that waits: Cancel stops the job, which ends cancelled.
	e2 := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	id2 := describedPaper(t, e2)
	started := make(chan struct{})
	final := make(chan Progress, 1)
	job := e2.StartDescribe(id2, func(ctx context.Context, _ corpus.Region, _ string) (string, error) {
		close(started)
		<-ctx.Done()
		return "", ctx.Err()
	}, DescribeOptions{Max: 5}, func(p Progress) {
		if p.Stage == StageDone || p.Stage == StageCancelled || p.Stage == StageFailed {
			final <- p
		}
	})
	<-started
	if !e2.Cancel(job) {
		t.Fatal("the job was not running")
	}
	if p := <-final; p.Stage != StageCancelled {
		t.Errorf("final stage %s (%s)", p.Stage, p.Error)
	}
}

// TestDescribeEmptyIsRefused: an empty description of a figure is a
// refusal recorded on the figure, not the end of the run (the table after
// it is summarised); the same model is not asked again about it, another
// one is.
func TestDescribeEmptyIsRefused(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	id := describedPaper(t, e)
	var asked []string
	d := func(_ context.Context, r corpus.Region, _ string) (string, error) {
		asked = append(asked, string(r.Kind))
		if r.Kind == corpus.ChunkFigure {
			return "  \n", nil
		}
		return "Both architectures start with a seven by seven convolution.", nil
	}
	rep, err := e.Describe(ctx, id, d, DescribeOptions{Max: 10, Tables: true, Model: "ollama/llava"})
	if err != nil || rep != (DescribeReport{Tables: 1, Refused: 1}) || strings.Join(asked, ",") != "figure,table" {
		t.Fatalf("first run: %+v %v, asked %v", rep, err, asked)
	}
	rs := e.RegionsOn(ctx, id, 1)
	if len(rs) != 1 || rs[0].Description != "" || rs[0].Refusal == nil ||
		!reflect.DeepEqual(*rs[0].Refusal, corpus.Refusal{Model: "ollama/llava", Reason: message.New(message.RefusedEmpty)}) {
		t.Fatalf("the figure: %+v", rs)
	}
	asked = nil
	rep, err = e.Describe(ctx, id, d, DescribeOptions{Max: 10, Tables: true, Model: "ollama/llava"})
	if err != nil || rep != (DescribeReport{Already: 1, RefusedBefore: 1}) || len(asked) != 0 {
		t.Fatalf("the same model again: %+v %v, asked %v", rep, err, asked)
	}
	rep, err = e.Describe(ctx, id, d, DescribeOptions{Max: 10, Tables: true, Model: "gemini/gemini-2.5-flash"})
	if err != nil || rep != (DescribeReport{Already: 1, Refused: 1}) || strings.Join(asked, ",") != "figure" {
		t.Fatalf("another model: %+v %v, asked %v", rep, err, asked)
	}
	if rs := e.RegionsOn(ctx, id, 1); rs[0].Refusal == nil || rs[0].Refusal.Model != "gemini/gemini-2.5-flash" {
		t.Errorf("the refusal names the last model: %+v", rs[0].Refusal)
	}
}
