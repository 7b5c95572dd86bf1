package study

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"vika/backend/cite"
	"vika/backend/engine"
	"vika/backend/llm/llmtest"
	"vika/backend/message"
	"vika/backend/sharedtest"
)

// The course-wide tests' session: Vaswani, Devlin and He, which are
// studied together, and Shannon, which is not.
const (
	devlinPDF = "pdfs/devlin2019_bert.pdf"
	hePDF     = "pdfs/he2015_resnet.pdf"
)

var course struct {
	once sync.Once
	eng  *engine.Engine
	ids  map[string]string // file -> doc id
	err  error
}

func fourPDFs(t *testing.T) (*engine.Engine, map[string]string) {
	t.Helper()
	paths := []string{sharedtest.Require(t, vaswaniPDF), sharedtest.Require(t, devlinPDF), sharedtest.Require(t, hePDF), sharedtest.Require(t, shannonPDF)}
	course.once.Do(func() {
		ctx := context.Background()
		course.eng, course.err = engine.New(ctx, engine.Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
		course.ids = map[string]string{}
		for _, p := range paths {
			if course.err != nil {
				return
			}
			var r engine.Report
			r, course.err = course.eng.Ingest(ctx, p, nil)
			course.ids[r.Doc.File] = r.Doc.ID
		}
	})
	if course.err != nil {
		t.Fatal(course.err)
	}
	return course.eng, course.ids
}

// TestCourseGuide: a guide of three of the session's four PDFs, over two
// providers' wire formats: its batches span documents, each passage
// labelled with its own; the requests made are the plan's; every line is
// verified and cites one of the three; all three are cited, Shannon never.
func TestCourseGuide(t *testing.T) {
	eng, ids := fourPDFs(t)
	three := []string{ids["vaswani2017_attention_is_all_you_need.pdf"], ids["devlin2019_bert.pdf"], ids["he2015_resnet.pdf"]}
	for _, w := range []wire{wires[0], wires[1]} {
		t.Run(w.provider, func(t *testing.T) {
			f := fake(t, w, func(body string) llmtest.Reply { return llmtest.Reply{Chunks: w.stream(faithful(texts(body)))} })
			s := New(eng, service(t, map[string]*llmtest.Server{w.provider: f}))
			// In the window's order, which is not the library's: the plan is the same.
			sc := Scope{Docs: []string{three[2], three[0], three[1]}}
			plan, err := s.PlanGuide(context.Background(), sc, Options{})
			if err != nil {
				t.Fatal(err)
			}
			g, err := s.Guide(context.Background(), sc, Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			made, spanning := 0, 0
			for _, r := range f.Requests() {
				if r.Method != "POST" {
					continue
				}
				made++
				files := map[string]bool{}
				for _, src := range sources(texts(r.Body)) {
					if strings.Contains(src.label, "shannon") {
						t.Errorf("request %d sent %s", made, src.label)
					}
					files[strings.SplitN(src.label, " p.", 2)[0]] = true
				}
				spanning += b2i(len(files) > 1)
			}
			if made != plan.Requests || g.Plan != plan || plan.Documents != 3 || plan.Requests != plan.Batches+plan.Reduces {
				t.Errorf("%d requests made, plan %+v", made, plan)
			}
			if spanning == 0 {
				t.Errorf("no batch held passages of two documents (plan %+v)", plan)
			}
			if g.DocID != "" || len(g.Docs) != 3 || g.Docs[0].DocID != three[0] || g.Docs[1].DocID != three[1] || g.Docs[2].DocID != three[2] {
				t.Errorf("guide of %q, docs %+v", g.DocID, g.Docs)
			}
			cited := map[string]int{}
			eachLine(g, func(kind, text string, c Check) {
				if !c.Verified {
					t.Errorf("%s %q: %+v", kind, text, c)
				}
				for _, ct := range c.Citations {
					if !slices.Contains(three, ct.DocID) {
						t.Errorf("%s %q cites %s", kind, text, ct.Label)
					}
					cited[ct.DocID]++
				}
			})
			for _, id := range three {
				if cited[id] == 0 {
					t.Errorf("no line cites %s (cited: %v)", id, cited)
				}
			}
			t.Logf("%s: %d batches (%d spanning two documents) + %d merges = %d requests, %d tokens planned; lines citing each document: %v",
				w.provider, plan.Batches, spanning, plan.Reduces, made, plan.InputTokens, cited)
		})
	}
}

// TestCourseAll: All studies every document of the session, as the plan
// says; a section or a selection of several documents is refused, with
// its own code (study.one_document); a guide
// of several documents is kept under them and forgotten with any.
func TestCourseAll(t *testing.T) {
	eng, ids := fourPDFs(t)
	w := wires[0]
	f := fake(t, w, func(body string) llmtest.Reply { return llmtest.Reply{Chunks: w.stream(faithful(texts(body)))} })
	s := New(eng, service(t, map[string]*llmtest.Server{w.provider: f}))
	ctx := context.Background()
	all, err := s.PlanGuide(ctx, Scope{All: true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum := Plan{}
	for _, id := range ids {
		p, err := s.PlanGuide(ctx, Scope{DocID: id}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		sum.Pages += p.Pages
		sum.Passages += p.Passages
	}
	if all.Documents != 4 || all.Pages != sum.Pages || all.Passages != sum.Passages || all.Pages != 15+16+12+55 {
		t.Errorf("plan of all %+v, the documents' %+v", all, sum)
	}
	for _, sc := range []Scope{{All: true, Section: "Introduction"}, {Docs: []string{ids["devlin2019_bert.pdf"], ids["he2015_resnet.pdf"]}, Text: "Deep residual learning", Page: 1}} {
		if _, err := s.PlanGuide(ctx, sc, Options{}); !errors.Is(err, ErrOneDocument) || message.Of(err).Code != message.StudyOneDocument {
			t.Errorf("%+v: %v (%s)", sc, err, message.Of(err).Code)
		}
	}
	j := NewJobs(s)
	defer j.Close()
	two := Scope{Docs: []string{ids["he2015_resnet.pdf"], ids["devlin2019_bert.pdf"]}}
	var r recorder
	if err := j.StartGuide(ctx, "two", two, Options{}, r.emit); err != nil {
		t.Fatal(err)
	}
	if e := r.last(t); e.Type != EventDone || len(e.Guide.Docs) != 2 {
		t.Fatalf("job ended with %+v", e)
	}
	if _, ok := j.Kept(ctx, Scope{Docs: []string{ids["devlin2019_bert.pdf"], ids["he2015_resnet.pdf"]}}); !ok {
		t.Error("the guide of two documents is not kept under them")
	}
	if _, ok := j.Kept(ctx, Scope{DocID: ids["devlin2019_bert.pdf"]}); ok {
		t.Error("the guide of two documents is kept as one's")
	}
	j.Forget(ids["he2015_resnet.pdf"])
	if _, ok := j.Kept(ctx, two); ok {
		t.Error("the guide of two documents outlived one of them")
	}
}

// TestCourseCards: flashcards of three documents cite each its own; a
// card citing a page Vaswani does not have, or Shannon (in the session,
// not in the scope), is refused; the deck says how duplicates were found.
func TestCourseCards(t *testing.T) {
	eng, ids := fourPDFs(t)
	w := wires[0]
	f := fake(t, w, func(body string) llmtest.Reply {
		return llmtest.Reply{Chunks: w.stream(faithful(texts(body)) +
			"Q: What is on page 99?\nA: The Transformer uses multi-head attention [vaswani2017_attention_is_all_you_need.pdf p.99]\n" +
			"Q: What is a channel?\nA: The medium used to transmit the signal [shannon1948_mathematical_theory_of_communication.pdf p.2]\n")}
	})
	three := []string{ids["vaswani2017_attention_is_all_you_need.pdf"], ids["devlin2019_bert.pdf"], ids["he2015_resnet.pdf"]}
	d, err := New(eng, service(t, map[string]*llmtest.Server{w.provider: f})).Cards(context.Background(), Scope{Docs: three}, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]int{}
	for _, r := range d.Refused {
		codes[r.Why.Code]++
	}
	batches := f.Count()
	if codes[message.StudyCardNoPage] != batches || codes[cite.ReasonUnknownFile] != batches {
		t.Errorf("%d batches, refused %v", batches, codes)
	}
	byDoc := map[string]int{}
	for _, c := range d.Cards {
		byDoc[c.DocID]++
		if !c.Check.Verified || !strings.Contains(c.Answer, strings.Trim(c.Label, "[]")) {
			t.Errorf("card %+v", c)
		}
	}
	if len(byDoc) != 3 || d.DocID != "" || len(d.Docs) != 3 || d.Dedup != DedupText {
		t.Errorf("cards by document %v; deck of %q, %d docs, dedup %q", byDoc, d.DocID, len(d.Docs), d.Dedup)
	}
}
