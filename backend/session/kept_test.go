package session

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"vika/backend/cache"
	"vika/backend/engine"
	"vika/backend/llm/llmtest"
	"vika/backend/study"
	"vika/backend/testpdf"
)

// paidWork counts a fake Gemini's requests by the work they ask for.
type paidWork struct {
	mu sync.Mutex
	n  map[string]int
}

// work names the work a request asks for, from its prompt.
func work(body string) string {
	for _, w := range []struct{ marker, name string }{
		{`"maxOutputTokens":1}`, "probe"},
		{"You describe figures", "figure"},
		{"You summarise tables", "table"},
		{"You transcribe display formulas", "formula"},
		{"You summarise passages", "passage"},
		{"study assistant", "guide"},
	} {
		if strings.Contains(body, w.marker) {
			return w.name
		}
	}
	return "other"
}

func (p *paidWork) reply(r llmtest.Request) llmtest.Reply {
	w := work(r.Body)
	p.mu.Lock()
	p.n[w]++
	p.mu.Unlock()
	text := map[string]string{
		"probe":   "OK",
		"figure":  "A plot of the training error against the iterations for plain and residual networks.",
		"table":   "The table compares the error rates of the networks; the deepest residual network is best.",
		"formula": `y = \mathcal{F}(x, \{W_i\}) + x`,
		"passage": "The passage says that residual learning eases the training of deep networks.",
		"guide":   "SUMMARY: Residual learning eases the training of deep networks. [p.1]",
	}[w]
	return llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash", text)}
}

// take returns the counts so far and starts afresh.
func (p *paidWork) take() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.n
	p.n = map[string]int{}
	return n
}

// paid is the requests of n for work (every kind but the probe, which
// each session makes once to choose its describing model).
func paid(n map[string]int) int {
	total := 0
	for w, k := range n {
		if w != "probe" && w != describedWork && w != summarisedWork {
			total += k
		}
	}
	return total
}

// studySession adds each PDF to a session using c (nil: none), has its
// figures, tables and formulas described, its passages summarised and a
// study guide made, unless a guide is kept (as the window shows a kept
// guide rather than making one), and returns the requests by work.
func studySession(t *testing.T, label string, fake *paidWork, url string, c *cache.Cache, pdfs []string) map[string]int {
	return courseSession(t, label, fake, url, c, pdfs, "", "")
}

// courseSession is studySession that opens the course file from (when
// not "") in place of adding pdfs, and saves the session's documents to
// the course file to (when not "") at the end.
func courseSession(t *testing.T, label string, fake *paidWork, url string, c *cache.Cache, pdfs []string, from, to string) map[string]int {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "settings.json")
	st := DefaultSettings()
	st.DescribeModel, st.DescribeTables, st.DescribeFormulas, st.DescribeMax = "gemini/gemini-2.5-flash", true, true, MaxDescribe
	if err := SaveSettings(path, st); err != nil {
		t.Fatal(err)
	}
	h := &heard{}
	s := openWith(t, path, h, map[string]string{"GEMINI_API_KEY": "AIzaSyFAKE-kept-0123456789abcdef", "VIKA_GEMINI_BASE_URL": url})
	defer s.Close()
	s.UseCache(c)
	var docs, names []string
	if from != "" {
		res, err := s.OpenCourse(ctx, from)
		if err != nil || len(res.Failed) > 0 {
			t.Fatalf("OpenCourse = %+v, %v", res, err)
		}
		for _, d := range res.Added {
			docs, names = append(docs, d.ID), append(names, d.File)
		}
	}
	for _, pdf := range pdfs {
		if from != "" {
			break
		}
		r, err := s.Ingest(ctx, pdf, nil)
		if err != nil {
			t.Fatal(err)
		}
		docs, names = append(docs, r.Doc.ID), append(names, r.Doc.File)
	}
	total := map[string]int{}
	var done [2]int // regions described, passages summarised
	for i, doc := range docs {
		job, err := s.Describe(ctx, doc)
		if err != nil {
			t.Fatal(err)
		}
		h.wait(t, "described", func(ev event) bool {
			p, ok := ev.payload.(engine.Progress)
			return ok && p.JobID == job && (p.Stage == engine.StageDone || p.Stage == engine.StageFailed)
		})
		sum, err := s.SummarizeNow(ctx, doc)
		if err != nil {
			t.Fatal(err)
		}
		regions, err := s.Regions(ctx, doc, false)
		if err != nil {
			t.Fatal(err)
		}
		described := 0
		for _, r := range regions {
			if r.Description != "" {
				described++
			}
		}
		if _, kept := s.StudyGuideKept(ctx, study.Scope{DocID: doc}); !kept {
			makeGuide(t, s, h, fmt.Sprintf("guide%d", i), doc)
		}
		n := fake.take()
		t.Logf("%s, %s: %d paid requests %v; %d regions described, %d passages summarised", label, names[i], paid(n), n, described, sum.Summarized)
		for w, k := range n {
			total[w] += k
		}
		// What the student gets, paid or not (not requests: left out of paid).
		done[0] += described
		done[1] += sum.Summarized
	}
	if to != "" {
		if _, err := s.SaveCourse(ctx, to, false); err != nil {
			t.Fatal(err)
		}
	}
	total[describedWork], total[summarisedWork] = done[0], done[1]
	return total
}

// Counts of what a session got, beside its requests.
const (
	describedWork  = "described regions"
	summarisedWork = "summarised passages"
)

// makeGuide makes the study guide of document doc in s and waits for it.
func makeGuide(t *testing.T, s *Session, h *heard, id, doc string) {
	t.Helper()
	if err := s.StartStudyGuide(context.Background(), id, study.Scope{DocID: doc}, study.Options{}); err != nil {
		t.Fatal(err)
	}
	h.wait(t, "guide", func(ev event) bool {
		e, ok := ev.payload.(study.Event)
		return ok && ev.name == EventStudyPrefix+id && (e.Type == study.EventDone || e.Type == study.EventError)
	})
}

// TestNothingPaidTwice: with the document cache on, a second session that
// adds the same real papers and asks for the same work (their figures
// described, tables summarised, formulas transcribed, passages
// summarised, a study guide) makes no request for it: the descriptions,
// summaries, LaTeX and guides of the first are kept, keyed by document,
// model and prompt version. Without the cache, the same work is paid
// again, unless the session opens a course file saved with it; "Forget
// this PDF" forgets them too.
func TestNothingPaidTwice(t *testing.T) {
	// Three real papers with figures, tables and formulas.
	pdfs := []string{testpdf.SharedPDF(t, "he2015_resnet.pdf"), testpdf.SharedPDF(t, "vaswani2017_attention_is_all_you_need.pdf"),
		testpdf.SharedPDF(t, "devlin2019_bert.pdf")}
	fake := &paidWork{n: map[string]int{}}
	gemini := llmtest.NewServer(t, "text/event-stream", fake.reply)
	c, err := cache.Open(context.Background(), t.TempDir(), cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	first := studySession(t, "session 1, cache on", fake, gemini.URL, c, pdfs)
	second := studySession(t, "session 2, cache on", fake, gemini.URL, c, pdfs)
	off := studySession(t, "a session, cache off", fake, gemini.URL, nil, pdfs)
	t.Logf("requests by work: session 1 %v; session 2, cache on %v; a session with the cache off %v", first, second, off)
	t.Logf("paid requests: session 1 %d, session 2 %d (cache on), cache off %d", paid(first), paid(second), paid(off))
	for _, w := range []string{"figure", "table", "formula", "passage", "guide"} {
		if first[w] == 0 {
			t.Errorf("session 1 made no %s request: the papers should need them", w)
		}
	}
	if paid(second) != 0 {
		t.Errorf("session 2 with the cache on paid again: %v", second)
	}
	for _, got := range []map[string]int{second, off} {
		for _, w := range []string{describedWork, summarisedWork} {
			if got[w] != first[w] || first[w] == 0 {
				t.Errorf("%s: %d, the first session %d: the same work must be done, paid or not", w, got[w], first[w])
			}
		}
	}
	if paid(off) != paid(first) {
		t.Errorf("a session without the cache paid %d requests, the first %d", paid(off), paid(first))
	}

	// A course file carries the same work to a session without the cache:
	// a classmate's, opening it, pays nothing for it either.
	course := filepath.Join(t.TempDir(), "papers.vika")
	courseSession(t, "a session saving a course, cache off", fake, gemini.URL, nil, pdfs, "", course)
	fromCourse := courseSession(t, "a session opening the course, cache off", fake, gemini.URL, nil, nil, course, "")
	t.Logf("requests by work in a session opening the course file: %v", fromCourse)
	if paid(fromCourse) != 0 || fromCourse[describedWork] != first[describedWork] || fromCourse[summarisedWork] != first[summarisedWork] {
		t.Errorf("a session opening the course: %v, the first %v", fromCourse, first)
	}

	// Forget this PDF: its outputs go with it.
	ctx := context.Background()
	s := open(t, "", &heard{})
	s.UseCache(c)
	r, err := s.Ingest(ctx, pdfs[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ForgetCached(ctx, r.Doc.ID); err != nil {
		t.Fatal(err)
	}
	s.Close()
	again := studySession(t, "after Forget this PDF, cache on", fake, gemini.URL, c, pdfs[:1])
	for _, w := range []string{"figure", "table", "passage", "guide"} {
		if again[w] == 0 {
			t.Errorf("after Forget, the PDF's %s work was not asked again: %v", w, again)
		}
	}
}
