package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"vika/backend/testpdf"
)

// recorder collects the events of jobs and lets a test hold a job inside
// its progress callback (which runs on the job's goroutine).
type recorder struct {
	mu     sync.Mutex
	events map[string][]Progress // by job id
	final  chan Progress
	hold   map[string]chan struct{} // stage -> released when closed
}

func newRecorder() *recorder {
	return &recorder{events: map[string][]Progress{}, final: make(chan Progress, 16), hold: map[string]chan struct{}{}}
}

func (r *recorder) holdAt(stage string) chan struct{} {
	ch := make(chan struct{})
	r.mu.Lock()
	r.hold[stage] = ch
	r.mu.Unlock()
	return ch
}

func (r *recorder) progress(p Progress) {
	r.mu.Lock()
	r.events[p.JobID] = append(r.events[p.JobID], p)
	ch := r.hold[p.Stage]
	r.mu.Unlock()
	switch p.Stage {
	case StageDone, StageFailed, StageCancelled:
		r.final <- p
	}
	if ch != nil {
		<-ch
	}
}

func (r *recorder) stages(id string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, p := range r.events[id] {
		if len(out) == 0 || out[len(out)-1] != p.Stage {
			out = append(out, p.Stage)
		}
	}
	return out
}

func (r *recorder) wait(t *testing.T) Progress {
	t.Helper()
	select {
	case p := <-r.final:
		return p
	case <-time.After(30 * time.Second):
		t.Fatal("timed out waiting for a job to finish")
		return Progress{}
	}
}

// waitFor polls until cond holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestJobDoneAndFailed(t *testing.T) {
	e := newEngine(t, Config{})
	r := newRecorder()
	ok := e.StartBytes("stats.pdf", paperA, r.progress)
	done := r.wait(t)
	if done.JobID != ok || done.Stage != StageDone || done.Doc == nil || done.Doc.Label != "stats.pdf" || done.Error != "" {
		t.Fatalf("final = %+v", done)
	}
	want := []string{StageQueued, StageValidating, StageExtracting, StageLanguage, StageChunking, StageSearchable, StageEmbedding, StageIndexing, StageDone}
	if e.DenseUnavailable() != nil { // no embedding model: nothing to embed
		want = slices.Delete(want, 6, 7)
	}
	if got := r.stages(ok); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stages = %v, want %v", got, want)
	}
	r.mu.Lock()
	for _, p := range r.events[ok] {
		if p.File != "stats.pdf" {
			t.Errorf("event %+v: File %q", p, p.File)
		}
	}
	r.mu.Unlock()

	bad := e.StartBytes("notes.txt", []byte("plain text"), r.progress)
	failed := r.wait(t)
	if failed.JobID != bad || failed.Stage != StageFailed || failed.Doc != nil ||
		failed.Error != "not a PDF: the file does not start with %PDF- (it looks like a plain text file)" {
		t.Fatalf("final = %+v", failed)
	}
	dup := e.StartBytes("copy.pdf", paperA, r.progress)
	if p := r.wait(t); p.JobID != dup || p.Error != "already added as stats.pdf" {
		t.Fatalf("duplicate job = %+v", p)
	}
	if e.Cancel(ok) {
		t.Error("Cancel of a finished job returned true")
	}
	if hits, _ := hitsOf(context.Background(), e, "quagga", 1); len(hits) != 1 {
		t.Errorf("search after jobs: %v", hits)
	}
}

// TestJobLimitAndCancel holds two jobs inside their progress callbacks:
// a third job stays queued; cancelling it and one running job leaves
// nothing of them in the session.
func TestJobLimitAndCancel(t *testing.T) {
	e := newEngine(t, Config{})
	r := newRecorder()
	release := r.holdAt(StageExtracting)
	a := e.StartBytes("a.pdf", paperA, r.progress)
	b := e.StartBytes("b.pdf", paperB, r.progress)
	waitFor(t, "two running jobs", func() bool {
		return len(r.stages(a)) >= 3 && len(r.stages(b)) >= 3
	})
	c := e.StartBytes("c.pdf", testpdf.Text("third"), r.progress)
	time.Sleep(50 * time.Millisecond)
	if got := r.stages(c); fmt.Sprint(got) != "[queued]" {
		t.Fatalf("third job stages = %v, want only queued while two run", got)
	}
	if !e.Cancel(c) || !e.Cancel(a) {
		t.Fatal("Cancel returned false for live jobs")
	}
	if p := r.wait(t); p.JobID != c || p.Stage != StageCancelled {
		t.Fatalf("first final event = %+v, want c cancelled", p)
	}
	close(release)
	got := map[string]string{}
	for i := 0; i < 2; i++ {
		p := r.wait(t)
		got[p.JobID] = p.Stage
	}
	if got[a] != StageCancelled || got[b] != StageDone {
		t.Errorf("final stages = %v", got)
	}
	docs, _ := e.Documents(context.Background())
	if len(docs) != 1 || docs[0].Label != "b.pdf" {
		t.Errorf("documents = %+v, want only b.pdf", docs)
	}
	if e.Cancel("job-999") {
		t.Error("Cancel(unknown) = true")
	}
}

func TestSameBytesInFlight(t *testing.T) {
	e := newEngine(t, Config{})
	r := newRecorder()
	release := r.holdAt(StageExtracting)
	first := e.StartBytes("a.pdf", paperA, r.progress)
	waitFor(t, "first job extracting", func() bool { return len(r.stages(first)) >= 3 })
	_, err := docOf(e.add(context.Background(), "", "again.pdf", paperA, nil))
	if !errors.Is(err, ErrDuplicate) || err.Error() != "already added as a.pdf (still being processed)" {
		t.Errorf("AddBytes while in flight = %v", err)
	}
	close(release)
	if p := r.wait(t); p.Stage != StageDone {
		t.Fatalf("first job = %+v", p)
	}
}

func TestCloseCancelsJobs(t *testing.T) {
	e, err := New(context.Background(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	r := newRecorder()
	release := r.holdAt(StageExtracting)
	id := e.StartBytes("a.pdf", paperA, r.progress)
	waitFor(t, "job extracting", func() bool { return len(r.stages(id)) >= 3 })
	closed := make(chan error)
	go func() { closed <- e.Close() }()
	time.Sleep(20 * time.Millisecond)
	close(release)
	if p := r.wait(t); p.Stage != StageCancelled {
		t.Errorf("job after Close = %+v", p)
	}
	if err := <-closed; err != nil {
		t.Errorf("Close = %v", err)
	}
	if _, err := e.Documents(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Documents after Close = %v", err)
	}
	if _, err := docOf(e.add(context.Background(), "", "b.pdf", paperB, nil)); !errors.Is(err, ErrClosed) {
		t.Errorf("AddBytes after Close = %v", err)
	}
	e.StartBytes("c.pdf", paperB, r.progress)
	if p := r.wait(t); p.Stage != StageFailed || p.Error != ErrClosed.Error() {
		t.Errorf("StartBytes after Close = %+v", p)
	}
}

func TestStartFile(t *testing.T) {
	e := newEngine(t, Config{})
	r := newRecorder()
	id := e.StartFile("/nonexistent/dir/paper.pdf", r.progress)
	p := r.wait(t)
	if p.JobID != id || p.File != "paper.pdf" || p.Stage != StageFailed {
		t.Errorf("final = %+v", p)
	}
}

// TestConcurrentUse runs jobs, searches and removals together (-race).
func TestConcurrentUse(t *testing.T) {
	e := newEngine(t, Config{})
	r := newRecorder()
	const n = 6
	for i := 0; i < n; i++ {
		e.StartBytes(fmt.Sprintf("doc%d.pdf", i), testpdf.Text(fmt.Sprintf("common words, document number %d", i)), r.progress)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 50; i++ {
			if _, err := hitsOf(context.Background(), e, "common words", 10); err != nil {
				t.Error(err)
			}
			if _, err := e.Documents(context.Background()); err != nil {
				t.Error(err)
			}
		}
	}()
	for i := 0; i < n; i++ {
		if p := r.wait(t); p.Stage != StageDone {
			t.Errorf("job = %+v", p)
		}
	}
	wg.Wait()
	docs, _ := e.Documents(context.Background())
	if len(docs) != n {
		t.Fatalf("%d documents, want %d", len(docs), n)
	}
	for _, d := range docs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := e.RemoveDocument(context.Background(), d.ID); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if hits, _ := hitsOf(context.Background(), e, "common", 10); len(hits) != 0 {
		t.Errorf("hits after removing everything: %d", len(hits))
	}
}
