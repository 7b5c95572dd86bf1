package engine

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"vika/backend/assets"
	"vika/backend/assets/assetstest"
	"vika/backend/message"
	"vika/backend/models"
	"vika/backend/models/modelstest"
	"vika/backend/retrieve"
)

// onlyInstalledModels requires the runtime assets and clears the model
// variables, so that an engine uses the models installed under its own
// ModelsRoot and nothing the machine's environment names.
func onlyInstalledModels(tb testing.TB) {
	tb.Helper()
	for _, k := range assets.Kinds {
		assetstest.Require(tb, k)
	}
	tb.Setenv(models.EnvModelEN, "")
	tb.Setenv(models.EnvModelMulti, "")
}

// TestReembedSwitchesWithoutRestart is the path of a user who accepts the
// model offer: the session starts with USE-lite and a French document
// searched by BM25; the tiny fixtures are installed as bge-small-en-v1.5
// and multilingual-e5-small through the real downloader; Reembed embeds
// the session's passages in the background with progress events and
// switches searches at once. Searches run without pause meanwhile: every
// one succeeds, and one asked during the embedding uses the old model.
func TestReembedSwitchesWithoutRestart(t *testing.T) {
	onlyInstalledModels(t)
	ctx := context.Background()
	root := t.TempDir()
	e := newEngine(t, Config{ModelsRoot: root})
	cats := mustAdd(t, e, "cats.pdf", catsPDF)
	cours := mustAdd(t, e, "cours.pdf", coursPDF)
	if got := e.embedders(); !slices.Equal(got, []string{"use-lite"}) {
		t.Fatalf("before: embedders %v", got)
	}
	const q = "the cat and the cell"
	if res, err := e.Search(ctx, retrieve.Query{Question: q}, SearchOptions{}); err != nil || res.Stats.Mode != retrieve.ModeBM25 {
		t.Fatalf("before: %+v, %v; want BM25 (French is not covered)", res.Stats, err)
	}

	install(t, root, "bge-small-en-v1.5", "encoder.onnx")
	install(t, root, "multilingual-e5-small", "encoder_b.onnx")
	want := []string{"bge-small-en-v1.5", "multilingual-e5-small"}

	// Questions keep coming while the passages are embedded again.
	stop := make(chan struct{})
	var searches, failures atomic.Int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := e.Search(ctx, retrieve.Query{Question: q}, SearchOptions{Mode: retrieve.ModeHybrid, K: 5}); err != nil {
					t.Errorf("search during the switch: %v", err)
					failures.Add(1)
				}
				searches.Add(1)
			}
		}()
	}

	var mu sync.Mutex
	var events []ReembedProgress
	var during []string // embedders of a question asked during the embedding
	final := make(chan ReembedProgress, 1)
	err := e.Reembed(func(p ReembedProgress) {
		mu.Lock()
		events = append(events, p)
		first := p.Stage == ReembedEmbedding && during == nil
		mu.Unlock()
		if first {
			res, err := e.Search(ctx, retrieve.Query{Question: q}, SearchOptions{Mode: retrieve.ModeHybrid})
			if err != nil {
				t.Errorf("question during the embedding: %v", err)
			}
			mu.Lock()
			during = append([]string{}, res.Stats.Embedders...)
			mu.Unlock()
		}
		if p.Stage != ReembedEmbedding {
			final <- p
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	var last ReembedProgress
	select {
	case last = <-final:
	case <-time.After(60 * time.Second):
		t.Fatal("the switch never finished")
	}
	close(stop)
	wg.Wait()

	total := cats.Chunks + cours.Chunks
	if last.Stage != ReembedDone || last.Done != total || !slices.Equal(last.Models, want) {
		t.Fatalf("final event %+v; want done, %d passages, %v", last, total, want)
	}
	mu.Lock()
	if len(events) < 2 || events[0].Stage != ReembedEmbedding || events[0].Total != total || !slices.Equal(events[0].Models, want) {
		t.Errorf("events %+v; want embedding progress over %d passages first", events, total)
	}
	for i := 1; i < len(events)-1; i++ {
		if events[i].Done < events[i-1].Done {
			t.Errorf("progress went back: %+v after %+v", events[i], events[i-1])
		}
	}
	if !slices.Equal(during, []string{"use-lite"}) {
		t.Errorf("a question during the embedding used %v, want the old use-lite", during)
	}
	mu.Unlock()
	if failures.Load() > 0 || searches.Load() == 0 {
		t.Errorf("%d of %d searches failed during the switch", failures.Load(), searches.Load())
	}

	if got := e.embedders(); !slices.Equal(got, want) {
		t.Errorf("after: embedders %v, want %v", got, want)
	}
	vecs := e.models.Load().ret.Vectors()
	if vecs["bge-small-en-v1.5"] != cats.Chunks || vecs["multilingual-e5-small"] != cours.Chunks {
		t.Errorf("vectors %v; want %d English, %d French", vecs, cats.Chunks, cours.Chunks)
	}
	res, err := e.Search(ctx, retrieve.Query{Question: q}, SearchOptions{K: 50})
	if err != nil || res.Stats.Mode != retrieve.ModeHybrid || !slices.Equal(res.Stats.Embedders, want) || len(res.Hits) != total {
		t.Errorf("after: %d hits, stats %+v, %v; want hybrid over both new models", len(res.Hits), res.Stats, err)
	}
	// A document added afterwards goes to the new models.
	mustAdd(t, e, "paper.pdf", paperA)
	if p := e.switchModels(ctx, nil); p.Stage != ReembedUnchanged {
		t.Errorf("second switch: %+v, want unchanged", p)
	}
}

// TestSwitchCatchesUpWithAnAdd: a document committed while the passages
// are being embedded again (with the old models) is embedded by the new
// ones before the swap, and one removed meanwhile is left out.
func TestSwitchCatchesUpWithAnAdd(t *testing.T) {
	assetstest.Require(t, assets.ORT)
	ctx := context.Background()
	root := t.TempDir()
	install(t, root, "all-MiniLM-L6-v2", "encoder.onnx")
	t.Setenv(models.EnvModelEN, "all-MiniLM-L6-v2")
	t.Setenv(models.EnvModelMulti, "")
	e := newEngine(t, Config{ModelsRoot: root})
	gone := mustAdd(t, e, "paper.pdf", paperA)
	cats := mustAdd(t, e, "cats.pdf", catsPDF)

	install(t, root, "bge-small-en-v1.5", "encoder_b.onnx") // another size: vectors of the old model would not fit
	t.Setenv(models.EnvModelEN, "bge-small-en-v1.5")
	var once sync.Once
	var added int
	p := e.switchModels(ctx, func(ReembedProgress) {
		once.Do(func() {
			d, err := docOf(e.add(ctx, "", "cours.pdf", coursPDF, nil))
			if err != nil {
				t.Errorf("add during the switch: %v", err)
			}
			added = d.Chunks
			if err := e.RemoveDocument(ctx, gone.ID); err != nil {
				t.Errorf("remove during the switch: %v", err)
			}
		})
	})
	if p.Stage != ReembedDone || p.Done != cats.Chunks+added {
		t.Fatalf("switch: %+v; want done over %d passages", p, cats.Chunks+added)
	}
	if vecs := e.models.Load().ret.Vectors(); vecs["bge-small-en-v1.5"] != cats.Chunks+added || len(vecs) != 1 {
		t.Errorf("vectors %v, want %d in bge-small-en-v1.5 only", vecs, cats.Chunks+added)
	}
	res, err := e.Search(ctx, retrieve.Query{Question: "la photosynthèse"}, SearchOptions{Mode: retrieve.ModeDense, K: 50})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]int{}
	for _, h := range res.Hits {
		files[h.File]++
	}
	if files["cours.pdf"] != added || files["paper.pdf"] != 0 {
		t.Errorf("dense hits per file %v; want the added document's %d passages and none of the removed one", files, added)
	}
}

// TestSwitchKeepsWorkingModels: a configured model that cannot be loaded
// (named but not installed) fails the switch with a reason and leaves the
// models in use.
func TestSwitchKeepsWorkingModels(t *testing.T) {
	assetstest.Require(t, assets.ORT)
	root := t.TempDir()
	install(t, root, "all-MiniLM-L6-v2", "encoder.onnx")
	t.Setenv(models.EnvModelEN, "all-MiniLM-L6-v2")
	t.Setenv(models.EnvModelMulti, "")
	e := newEngine(t, Config{ModelsRoot: root})
	mustAdd(t, e, "cats.pdf", catsPDF)
	t.Setenv(models.EnvModelEN, "bge-small-en-v1.5") // not installed
	p := e.switchModels(context.Background(), nil)
	if p.Stage != ReembedFailed || p.Problem == nil || p.Error == "" {
		t.Fatalf("switch to a missing model: %+v", p)
	}
	if got := e.embedders(); !slices.Equal(got, []string{"all-MiniLM-L6-v2"}) {
		t.Errorf("embedders after the failed switch: %v", got)
	}
	if _, err := e.Search(context.Background(), retrieve.Query{Question: "cat"}, SearchOptions{Mode: retrieve.ModeDense}); err != nil {
		t.Errorf("dense search after the failed switch: %v", err)
	}
	e.Close()
	if err := e.Reembed(func(ReembedProgress) {}); err != ErrClosed {
		t.Errorf("Reembed after Close: %v", err)
	}
}

// TestDownloadThenSwitch follows the window's path end to end with the
// tiny fixtures: the model manager's download from a server holding other
// bytes than the pins is refused with a coded error and changes nothing;
// from a server holding the pinned bytes it installs the model, and the
// switch that follows (what the app runs when an embedder finishes
// installing) puts it to use.
func TestDownloadThenSwitch(t *testing.T) {
	onlyInstalledModels(t)
	ctx := context.Background()
	root := t.TempDir()
	e := newEngine(t, Config{ModelsRoot: root})
	cats := mustAdd(t, e, "cats.pdf", catsPDF)

	onnx, tok := filepath.Join(bertFixtures, "encoder.onnx"), filepath.Join(bertFixtures, "tokenizer.json")
	m := modelstest.Pin(t, "bge-small-en-v1.5", onnx, tok)
	download := func(served string) models.Event {
		t.Helper()
		srv := modelstest.Serve(t, m, served, tok)
		mgr := &models.Manager{Downloader: models.Downloader{BaseURL: srv.URL, Root: root, Retries: -1}}
		defer mgr.Close()
		done := make(chan models.Event, 1)
		if err := mgr.Start(m.Name, func(ev models.Event) {
			if ev.Finished {
				done <- ev
			}
		}); err != nil {
			t.Fatal(err)
		}
		select {
		case ev := <-done:
			return ev
		case <-time.After(30 * time.Second):
			t.Fatal("the download never finished")
			return models.Event{}
		}
	}

	// Other bytes (another model's file) than the pins: refused.
	ev := download(filepath.Join(bertFixtures, "encoder_b.onnx"))
	if ev.Problem == nil || (ev.Problem.Code != message.ModelSize && ev.Problem.Code != message.ModelChecksum) {
		t.Fatalf("tampered download: %+v, want a coded refusal", ev)
	}
	if p := e.switchModels(ctx, nil); p.Stage != ReembedUnchanged || !slices.Equal(e.embedders(), []string{"use-lite"}) {
		t.Fatalf("after the refusal: %+v, embedders %v", p, e.embedders())
	}

	// The pinned bytes: installed, then used without a restart.
	if ev := download(onnx); ev.Error != "" {
		t.Fatalf("download: %+v", ev)
	}
	p := e.switchModels(ctx, nil)
	if p.Stage != ReembedDone || p.Done != cats.Chunks || !slices.Equal(e.embedders(), []string{"bge-small-en-v1.5"}) {
		t.Fatalf("switch: %+v, embedders %v", p, e.embedders())
	}
	res, err := e.Search(ctx, retrieve.Query{Question: "the cat"}, SearchOptions{Mode: retrieve.ModeDense})
	if err != nil || len(res.Hits) == 0 || !slices.Equal(res.Stats.Embedders, []string{"bge-small-en-v1.5"}) {
		t.Errorf("dense search after the switch: %+v, %v", res.Stats, err)
	}
}
