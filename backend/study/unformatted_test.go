package study

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"vika/backend/llm"
	"vika/backend/llm/llmtest"
	"vika/backend/message"
)

// prose is a reply that follows no format: no SUMMARY:, TERM: or Q:/A:
// line, as a small model writes when it ignores the instructions.
const prose = "Sure! This document is about attention. It explains how the Transformer works and why it is fast.\n\n" +
	"**Summary**\n- The model uses attention.\n- It is trained on translation."

// unformattedFakes: Gemini (asked first) replies prose; Groq replies
// prose too when groqProse, else copies its sources faithfully.
func unformattedFakes(t *testing.T, groqProse bool) (*Studier, *llmtest.Server, *llmtest.Server) {
	t.Helper()
	eng, _, _ := twoPDFs(t)
	gw, qw := wires[0], wires[2]
	g := fake(t, gw, func(string) llmtest.Reply { return llmtest.Reply{Chunks: gw.stream(prose)} })
	q := fake(t, qw, func(body string) llmtest.Reply {
		if groqProse {
			return llmtest.Reply{Chunks: qw.stream(prose)}
		}
		return llmtest.Reply{Chunks: qw.stream(faithful(texts(body)))}
	})
	return New(eng, service(t, map[string]*llmtest.Server{"gemini": g, "groq": q})), g, q
}

// unformattedNotice reports whether ns hold a fallback notice for a reply
// in no format.
func unformattedNotice(ns []llm.Notice) bool {
	for _, n := range ns {
		if n.Kind == llm.NoticeFallback && n.ErrorKind == "unformatted" {
			return true
		}
	}
	return false
}

// wantUnformatted checks that err is the study.unformatted failure naming
// the models of both providers (each provider's fake answers for all its
// models of the catalogue), as the command line and the window
// (llm.Problem) see it.
func wantUnformatted(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, ErrUnformatted) {
		t.Fatalf("err = %v, want ErrUnformatted", err)
	}
	m := llm.Problem(err)
	models, _ := m.Params["models"].([]string)
	if m.Code != message.StudyUnformatted || len(models) < 2 || !strings.Contains(models[0], "Gemini") || !strings.Contains(models[1], "Llama") {
		t.Errorf("message %+v", m)
	}
	if !strings.Contains(m.English(), "did not follow the format asked for") {
		t.Errorf("English %q", m.English())
	}
}

// TestGuideUnformattedFallsBack: Gemini replies prose to every request,
// Groq in the format: each request moves on to Groq with a fallback
// notice, and the guide is Groq's. Fails on main: Gemini's prose was
// taken as the reply, and the guide was empty.
func TestGuideUnformattedFallsBack(t *testing.T) {
	s, g, q := unformattedFakes(t, false)
	_, vaswani, _ := twoPDFs(t)
	guide, err := s.Guide(context.Background(), Scope{DocID: vaswani}, Options{BatchTokens: 3000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if guide.Plan.Requests < 3 || g.Count() != guide.Plan.Requests || q.Count() != guide.Plan.Requests {
		t.Errorf("plan %d requests; gemini asked %d, groq %d", guide.Plan.Requests, g.Count(), q.Count())
	}
	if len(guide.Models) != 1 || !strings.HasPrefix(guide.Models[0], "groq/") {
		t.Errorf("models %v", guide.Models)
	}
	if len(guide.Summary) == 0 || len(guide.QAs) == 0 || !unformattedNotice(guide.Notices) {
		t.Errorf("%d summary lines, %d questions, notices %+v", len(guide.Summary), len(guide.QAs), guide.Notices)
	}
}

// TestGuideUnformattedEverywhere: every model replies prose: the guide
// fails with study.unformatted at its first request (each model asked
// once for it), and the job ends with that code, no guide shown or kept.
// Fails on main: the guide came back empty with no error.
func TestGuideUnformattedEverywhere(t *testing.T) {
	s, g, q := unformattedFakes(t, true)
	_, vaswani, _ := twoPDFs(t)
	guide, err := s.Guide(context.Background(), Scope{DocID: vaswani}, Options{BatchTokens: 3000}, nil)
	wantUnformatted(t, err)
	if g.Count()+q.Count() != len(llm.Problem(err).Params["models"].([]string)) || len(guide.Summary)+len(guide.Terms)+len(guide.QAs) != 0 {
		t.Errorf("gemini asked %d, groq %d; guide %+v", g.Count(), q.Count(), guide)
	}
	j := NewJobs(s)
	var r recorder
	if err := j.StartGuide(context.Background(), "g", Scope{DocID: vaswani}, Options{}, r.emit); err != nil {
		t.Fatal(err)
	}
	if e := r.last(t); e.Type != EventError || e.Guide != nil || e.Error.Code != message.StudyUnformatted {
		t.Errorf("job ended with %+v", e)
	}
	if _, ok := j.Kept(context.Background(), Scope{DocID: vaswani}); ok {
		t.Error("a failed guide is kept")
	}
}

// TestGuideOneBatchUnformatted: Gemini's models (the only provider)
// reply in the format except to the second batch, which each of them
// answers in prose: that batch is asked of every model, then the guide
// fails with study.unformatted rather than leaving the batch out. Fails
// on main: the guide was made without the second batch's lines, with no
// word of it.
func TestGuideOneBatchUnformatted(t *testing.T) {
	eng, vaswani, _ := twoPDFs(t)
	w := wires[0]
	var batches []string // the first source of each batch, in order asked
	f := fake(t, w, func(body string) llmtest.Reply {
		p := texts(body)
		if src := sources(p); len(src) > 0 {
			if !slices.Contains(batches, src[0].label) {
				batches = append(batches, src[0].label)
			}
			if len(batches) > 1 && src[0].label == batches[1] {
				return llmtest.Reply{Chunks: w.stream(prose)}
			}
		}
		return llmtest.Reply{Chunks: w.stream(faithful(p))}
	})
	s := New(eng, service(t, map[string]*llmtest.Server{w.provider: f}))
	_, err := s.Guide(context.Background(), Scope{DocID: vaswani}, Options{BatchTokens: 3000}, nil)
	m := llm.Problem(err)
	models, _ := m.Params["models"].([]string)
	if m.Code != message.StudyUnformatted || len(models) < 2 || f.Count() != 1+len(models) || len(batches) != 2 {
		t.Errorf("err %v (%+v), %d requests, batches %v", err, m, f.Count(), batches)
	}
}

// TestCardsUnformatted: flashcards (and the quiz made of them) come from
// Groq when Gemini replies prose, with a fallback notice; when every
// model replies prose, the cards job ends with study.unformatted and no
// deck or quiz. Fails on main: Gemini's prose gave an empty deck and an
// empty quiz, shown as done.
func TestCardsUnformatted(t *testing.T) {
	_, vaswani, _ := twoPDFs(t)
	sc, o := Scope{DocID: vaswani, Section: "1 Introduction"}, Options{}
	s, _, _ := unformattedFakes(t, false)
	d, err := s.Cards(context.Background(), sc, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Cards) == 0 || len(Quiz(d.Cards)) == 0 || len(d.Models) != 1 || !strings.HasPrefix(d.Models[0], "groq/") || !unformattedNotice(d.Notices) {
		t.Errorf("deck %+v", d)
	}

	s, _, _ = unformattedFakes(t, true)
	_, err = s.Cards(context.Background(), sc, o, nil)
	wantUnformatted(t, err)
	var r recorder
	if err := NewJobs(s).StartCards(context.Background(), "c", sc, o, r.emit); err != nil {
		t.Fatal(err)
	}
	if e := r.last(t); e.Type != EventError || e.Deck != nil || e.Quiz != nil || e.Error.Code != message.StudyUnformatted {
		t.Errorf("cards job ended with %+v", e)
	}
}
