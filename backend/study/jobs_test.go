package study

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/jobs"
	"vika/backend/llm/llmtest"
	"vika/backend/message"
	"vika/backend/sharedtest"
)

type recorder struct {
	mu  sync.Mutex
	evs []Event
}

func (r *recorder) emit(e Event) { r.mu.Lock(); r.evs = append(r.evs, e); r.mu.Unlock() }

func (r *recorder) last(t *testing.T) Event {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		r.mu.Lock()
		n := len(r.evs)
		var e Event
		if n > 0 {
			e = r.evs[n-1]
		}
		r.mu.Unlock()
		if e.Type == EventDone || e.Type == EventError {
			return e
		}
	}
	t.Fatal("the job did not end")
	return Event{}
}

// TestJobs: a guide job reports progress then done and is kept; a cards
// job ends with its deck and quiz; a cancelled job ends with the
// cancelled code; an id in use is refused.
func TestJobs(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	w := wires[0]
	var slow atomic.Bool
	f := fake(t, w, func(body string) llmtest.Reply {
		r := llmtest.Reply{Chunks: w.stream(faithful(texts(body)))}
		if slow.Load() {
			r.FirstDelay = 30 * time.Second
		}
		return r
	})
	j := NewJobs(New(eng, service(t, map[string]*llmtest.Server{w.provider: f})))
	var r recorder
	if err := j.StartGuide(context.Background(), "g1", Scope{DocID: vaswani}, Options{}, r.emit); err != nil {
		t.Fatal(err)
	}
	if e := r.last(t); e.Type != EventDone || e.Guide == nil || r.evs[0].Type != EventProgress {
		t.Fatalf("events %+v", r.evs)
	}
	if g, ok := j.Kept(context.Background(), Scope{DocID: vaswani}); !ok || len(g.QAs) == 0 {
		t.Error("the guide is not kept")
	}
	var c recorder
	j.StartCards(context.Background(), "c1", Scope{DocID: vaswani}, Options{}, c.emit)
	if e := c.last(t); e.Deck == nil || len(e.Quiz) != len(e.Deck.Cards) || len(e.Quiz) == 0 {
		t.Errorf("cards event %+v", e)
	}
	slow.Store(true)
	var x recorder
	j.StartGuide(context.Background(), "g2", Scope{DocID: vaswani, Section: "1 Introduction"}, Options{}, x.emit)
	if err := j.StartGuide(context.Background(), "g2", Scope{DocID: vaswani}, Options{}, x.emit); err == nil {
		t.Error("an id in use was accepted")
	}
	for deadline := time.Now().Add(5 * time.Second); f.Count() < 3 && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
	}
	if !j.Cancel("g2") {
		t.Fatal("g2 was not running")
	}
	if e := x.last(t); e.Type != EventError || e.Error.Code != message.Cancelled {
		t.Errorf("cancelled job ended with %+v", e)
	}
	j.Forget(vaswani)
	if _, ok := j.Kept(context.Background(), Scope{DocID: vaswani}); ok {
		t.Error("a removed document's guide is still kept")
	}
}

// TestJobsClose: Close cancels a job still waiting for its model and waits
// for it to end (its last event sent), and a job started after Close is
// refused.
func TestJobsClose(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	w := wires[0]
	f := fake(t, w, func(body string) llmtest.Reply {
		return llmtest.Reply{Chunks: w.stream(faithful(texts(body))), FirstDelay: 30 * time.Second}
	})
	j := NewJobs(New(eng, service(t, map[string]*llmtest.Server{w.provider: f})))
	var r recorder
	if err := j.StartGuide(context.Background(), "slow", Scope{DocID: vaswani}, Options{}, r.emit); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); f.Count() == 0 && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
	}
	j.Close()
	r.mu.Lock()
	n := len(r.evs)
	var last Event
	if n > 0 {
		last = r.evs[n-1]
	}
	r.mu.Unlock()
	if last.Type != EventError || last.Error.Code != message.Cancelled {
		t.Errorf("after Close the job's last event is %+v, want it cancelled and ended", last)
	}
	if err := j.StartGuide(context.Background(), "late", Scope{DocID: vaswani}, Options{}, r.emit); !errors.Is(err, jobs.ErrClosed) {
		t.Errorf("a job started after Close: %v, want ErrClosed", err)
	}
}

// panicky is Docs whose reads panic while boom is set (a bug reached by
// odd input), and hold nothing otherwise.
type panicky struct{ boom atomic.Bool }

func (p *panicky) Documents(context.Context) ([]corpus.Document, error) {
	if p.boom.Load() {
		var d *corpus.Document
		_ = d.ID // a nil pointer: a runtime panic
	}
	return nil, nil
}

func (p *panicky) Chunks(context.Context, string) ([]corpus.Chunk, error) {
	if p.boom.Load() {
		panic("chunks")
	}
	return nil, nil
}

func (p *panicky) Embed(context.Context, string, []string) (string, [][]float32, error) {
	return "", nil, nil
}

// TestJobPanicEndsTheJob: a panic in a study job ends that job with
// error.internal, and the jobs go on (a later job runs, Close returns).
// On main the panic was not recovered and ended the test binary (the app).
func TestJobPanicEndsTheJob(t *testing.T) {
	docs := &panicky{}
	docs.boom.Store(true)
	j := NewJobs(New(docs, nil))
	defer j.Close()
	var r recorder
	if err := j.StartGuide(context.Background(), "boom", Scope{DocID: "d1"}, Options{}, r.emit); err != nil {
		t.Fatal(err)
	}
	if e := r.last(t); e.Type != EventError || e.Error.Code != message.Internal {
		t.Fatalf("a panicking job ended with %+v, want error.internal", e)
	}
	docs.boom.Store(false)
	var after recorder
	if err := j.StartCards(context.Background(), "boom", Scope{DocID: "d1"}, Options{}, after.emit); err != nil {
		t.Fatalf("the id of the panicked job is still held: %v", err)
	}
	if e := after.last(t); e.Type != EventError || e.Error.Code == message.Internal {
		t.Errorf("the next job ended with %+v", e)
	}
}

// heldGuide is a Store holding one guide under any key, as a course file
// gives it: its verdicts are whatever the file says.
type heldGuide struct{ g Guide }

func (h heldGuide) KeepStudy(context.Context, string, string, any) {}

func (h heldGuide) KeptStudy(_ context.Context, docID, _ string, v any) bool {
	*v.(*Guide) = h.g
	return h.g.DocID == docID
}

// TestKeptGuideIsCheckedAgain: a guide read back from its store (a course
// file, the cache) is shown with this session's verdicts, not the ones it
// was kept with: a line citing a page that does not say it is not
// verified, whatever the file claimed; a line of the PDF stays verified;
// a forged outline is made again from the document.
func TestKeptGuideIsCheckedAgain(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	j := NewJobs(New(eng, nil))
	made, err := j.Studier().Guide(context.Background(), Scope{DocID: vaswani}, Options{}, nil) // extractive: no model
	if err != nil || len(made.Outline) == 0 {
		t.Fatalf("outline %+v, %v", made.Outline, err)
	}
	label := made.Outline[0].Label
	forged := Guide{DocID: vaswani, File: "forged.pdf", From: 3, To: 99,
		Docs: []Studied{{DocID: "other", File: "other.pdf", From: 1, To: 500, Passages: 9999}},
		Summary: []Line{
			{Text: "The Transformer was first published by Charles Babbage in 1843. " + label, Check: Check{Verified: true, Label: label}},
			{Text: made.Outline[0].Quote + " " + label, Check: Check{Verified: false}},
		},
		Outline: []OutlineItem{{Title: "Forged", Quote: "Nothing of the PDF.", Label: label, DocID: vaswani, Page: 1}},
	}
	j.SetStore(heldGuide{forged})
	g, ok := j.Kept(context.Background(), Scope{DocID: vaswani})
	if !ok {
		t.Fatal("the kept guide was not read back")
	}
	if g.Summary[0].Check.Verified {
		t.Errorf("the forged line kept its verdict: %+v", g.Summary[0].Check)
	}
	if !g.Summary[1].Check.Verified {
		t.Errorf("a line quoting the PDF is not verified: %+v", g.Summary[1].Check)
	}
	if len(g.Outline) == 0 || g.Outline[0].Title == "Forged" || g.Outline[0].Quote != made.Outline[0].Quote {
		t.Errorf("the outline read back: %+v", g.Outline)
	}
	if g.File != made.File || g.From != made.From || g.To != made.To || !reflect.DeepEqual(g.Docs, made.Docs) {
		t.Errorf("the file's claims of what was studied were kept: %s p%d-%d %+v, want %s p%d-%d %+v",
			g.File, g.From, g.To, g.Docs, made.File, made.From, made.To, made.Docs)
	}
	// A guide longer than any reduce writes is not checked: it is made again.
	long := forged
	long.Summary = nil
	for range maxKeptLines + 1 {
		long.Summary = append(long.Summary, forged.Summary[1])
	}
	j = NewJobs(New(eng, nil))
	j.SetStore(heldGuide{long})
	if _, ok := j.Kept(context.Background(), Scope{DocID: vaswani}); ok {
		t.Errorf("a guide of %d lines was read back", len(long.Summary))
	}
	// A guide of another section, filed under this one's key, is not it.
	forged.Section = "3 Model Architecture"
	j = NewJobs(New(eng, nil))
	j.SetStore(heldGuide{forged})
	if g, ok := j.Kept(context.Background(), Scope{DocID: vaswani, Section: "1 Introduction"}); ok {
		t.Errorf("a guide of section %q was read back as one of 1 Introduction", g.Section)
	}
}

// TestJobParserPanicReported: a panic in the parser of a model's reply (a
// bug reached by odd model output) is contained by the job runner: the
// guide job ends with an error event coded error.internal, the session's
// jobs go on (the same id runs again and finishes), and Close returns.
func TestJobParserPanicReported(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	w := wires[0]
	f := fake(t, w, func(body string) llmtest.Reply {
		return llmtest.Reply{Chunks: w.stream(faithful(texts(body)))}
	})
	j := NewJobs(New(eng, service(t, map[string]*llmtest.Server{w.provider: f})))
	defer j.Close()
	parse := parseLines
	parseLines = func(string) parsed { panic("the parser met a line it did not expect") }
	var r recorder
	if err := j.StartGuide(context.Background(), "g1", Scope{DocID: vaswani}, Options{}, r.emit); err != nil {
		t.Fatal(err)
	}
	e := r.last(t)
	parseLines = parse
	if e.Type != EventError || e.Error == nil || e.Error.Code != message.Internal {
		t.Fatalf("a job whose parser panicked ended with %+v, want an error event coded %s", e, message.Internal)
	}
	if _, ok := j.Kept(context.Background(), Scope{DocID: vaswani}); ok {
		t.Error("the guide of a job that panicked is kept")
	}
	var again recorder
	if err := j.StartGuide(context.Background(), "g1", Scope{DocID: vaswani}, Options{}, again.emit); err != nil {
		t.Fatalf("the id of the job that panicked is still held: %v", err)
	}
	if e := again.last(t); e.Type != EventDone || e.Guide == nil {
		t.Errorf("the next job ended with %+v, want its guide", e)
	}
}

// TestGuideDocumentsChangeMidJob: a guide is kept under the documents it
// was asked of, known before it is made: a PDF added to the library
// while a guide of "all" is made does not file it as a guide of the
// new set, and a named document removed meanwhile does not turn the
// finished guide into an error; neither is kept.
func TestGuideDocumentsChangeMidJob(t *testing.T) {
	v, s := sharedtest.Require(t, vaswaniPDF), sharedtest.Require(t, shannonPDF)
	ctx := context.Background()
	eng, err := engine.New(ctx, engine.Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	r, err := eng.Ingest(ctx, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	vaswani := r.Doc.ID
	w := wires[0]
	var change atomic.Value // func(), run once on the next request
	f := fake(t, w, func(body string) llmtest.Reply {
		if fn, _ := change.Swap(func() {}).(func()); fn != nil {
			fn()
		}
		return llmtest.Reply{Chunks: w.stream(faithful(texts(body)))}
	})
	j := NewJobs(New(eng, service(t, map[string]*llmtest.Server{w.provider: f})))
	defer j.Close()

	var shannon string
	change.Store(func() {
		r, err := eng.Ingest(ctx, s, nil)
		if err != nil {
			t.Error(err)
			return
		}
		shannon = r.Doc.ID
	})
	var a recorder
	if err := j.StartGuide(ctx, "all", Scope{All: true}, Options{}, a.emit); err != nil {
		t.Fatal(err)
	}
	if e := a.last(t); e.Type != EventDone || e.Guide == nil {
		t.Fatalf("the guide of all ended with %+v", e)
	}
	if shannon == "" {
		t.Fatal("no document was added mid-job")
	}
	if g, ok := j.Kept(ctx, Scope{All: true}); ok {
		t.Errorf("a guide of one document is kept as the guide of two: %+v", g.Docs)
	}

	change.Store(func() {
		if err := eng.RemoveDocument(ctx, shannon); err != nil {
			t.Error(err)
		}
	})
	var n recorder
	if err := j.StartGuide(ctx, "named", Scope{Docs: []string{vaswani, shannon}}, Options{}, n.emit); err != nil {
		t.Fatal(err)
	}
	if e := n.last(t); e.Type != EventDone || e.Guide == nil || len(e.Guide.Docs) != 2 {
		t.Fatalf("the guide of two documents, one removed mid-job, ended with %+v", e)
	}
}
