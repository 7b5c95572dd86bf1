package rag

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"vika/backend/engine"
	"vika/backend/llm"
	"vika/backend/llm/llmtest"
	"vika/backend/retrieve"
	"vika/backend/secrets"
)

// lockedKeyring is a keyring whose unlock prompt nobody answers: every
// call blocks until the test ends.
type lockedKeyring struct {
	secrets.Keyring
	release chan struct{}
}

func (k lockedKeyring) Get(string, string) (string, error) {
	<-k.release
	return "", secrets.ErrNotFound
}

// lockedService is a model service whose keys come from a locked keyring
// (each call bounded by 300ms) and env; Groq is served by groq.
func lockedService(t *testing.T, env map[string]string, groq *llmtest.Server) *llm.Service {
	t.Helper()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	store := secrets.NewWithTimeout(lockedKeyring{release: release}, func(k string) string { return env[k] }, 300*time.Millisecond)
	cat, err := llm.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	urls := map[string]string{"VIKA_OLLAMA_BASE_URL": llmtest.Closed()}
	if groq != nil {
		urls["VIKA_GROQ_BASE_URL"] = groq.URL + "/openai/v1"
	}
	cfg, err := llm.ConfigFromEnv(cat, func(k string) string { return urls[k] })
	if err != nil {
		t.Fatal(err)
	}
	return llm.New(cfg, store)
}

// TestLockedKeyringDoesNotBlockAsk: with a keyring that never answers,
// an answer still comes within the keyring's timeout: from a key set in
// the environment, or, with none, from the passages with a notice naming
// the keyring. Cancel and Close are not held up either.
func TestLockedKeyringDoesNotBlockAsk(t *testing.T) {
	t.Run("no key in the environment", func(t *testing.T) {
		s := New(newEngine(t), lockedService(t, nil, nil), Config{})
		start := time.Now()
		a, err := s.Ask(t.Context(), "What does unit propagation do?", testOptions(), nil)
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("Ask took %s with a locked keyring", took)
		}
		if err != nil || a.Kind != KindExtractive {
			t.Fatalf("answer %+v, %v; want the passages quoted", a.Kind, err)
		}
		var notes []string
		for _, n := range a.Notices {
			notes = append(notes, n.Message)
		}
		if !strings.Contains(strings.Join(notes, " "), "keyring could not be read") {
			t.Errorf("no notice names the keyring: %q", notes)
		}
	})
	t.Run("key in the environment", func(t *testing.T) {
		groq := llmtest.NewServer(t, "text/event-stream", func(llmtest.Request) llmtest.Reply {
			return groqSays("Unit propagation assigns the remaining literal [sat.pdf p.1].")
		})
		s := New(newEngine(t), lockedService(t, map[string]string{"GROQ_API_KEY": "gsk_envFAKE0123456789"}, groq), Config{})
		start := time.Now()
		a, err := s.Ask(t.Context(), "What does unit propagation do?", testOptions(), nil)
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("Ask took %s with a locked keyring", took)
		}
		if err != nil || !strings.HasPrefix(a.ModelUsed, "groq/") {
			t.Fatalf("answer from %q, %v; want Groq with the environment's key", a.ModelUsed, err)
		}
		if got := groq.Last().Header.Get("Authorization"); got != "Bearer gsk_envFAKE0123456789" {
			t.Errorf("Authorization = %q", got)
		}
	})
	t.Run("cancel and close", func(t *testing.T) {
		s := New(newEngine(t), lockedService(t, nil, nil), Config{})
		var ev events
		id, err := s.Start(t.Context(), "What does unit propagation do?", testOptions(), ev.emit)
		if err != nil {
			t.Fatal(err)
		}
		s.Cancel(id)
		start := time.Now()
		s.Close()
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("Close took %s with a locked keyring", took)
		}
		if last := ev.wait(t); last.Type != EventDone && last.Type != EventError {
			t.Errorf("last event %+v", last)
		}
	})
}

// panickyEngine is an engine whose search panics: a bug in any stage of
// an answer.
type panickyEngine struct{ *engine.Engine }

func (panickyEngine) Search(context.Context, retrieve.Query, engine.SearchOptions) (engine.SearchResult, error) {
	var m map[string]int
	m["boom"]++ // assignment to entry in nil map
	return engine.SearchResult{}, nil
}

// TestAnswerPanicFailsTheTurn: a panic inside an answer's goroutine ends
// that answer with an error event saying so; the process and the session
// go on (Close returns, the next question is answered the same way).
func TestAnswerPanicFailsTheTurn(t *testing.T) {
	s := New(panickyEngine{newEngine(t)}, nil, Config{})
	for range 2 {
		var ev events
		if _, err := s.Start(t.Context(), "What does unit propagation do?", testOptions(), ev.emit); err != nil {
			t.Fatal(err)
		}
		last := ev.wait(t)
		if last.Type != EventError || !strings.Contains(last.Error, "unexpected error") || !strings.Contains(last.Error, "nil map") {
			t.Errorf("last event = %+v", last)
		}
	}
	_, err := s.Ask(t.Context(), "What does unit propagation do?", testOptions(), nil)
	if !errors.Is(err, ErrInternal) {
		t.Errorf("Ask error = %v, want ErrInternal", err)
	}
	s.Close()
}
