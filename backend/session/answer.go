package session

import (
	"context"
	"errors"
	"io"

	"vika/backend/llm"
	"vika/backend/rag"
	"vika/backend/secrets"
)

// Ask answers question and waits (the command line's ask); emit, when
// set, sees the answer's events as they happen.
func (s *Session) Ask(ctx context.Context, question string, o rag.Options, emit func(rag.Event)) (rag.Answer, error) {
	return s.assistant.Ask(ctx, question, o, s.turnKept(emit))
}

// StartAnswer starts answering question under id, which the listener
// chose so that it hears EventAnswerPrefix+id before the first event, and
// returns that id; the answer's events go out on that channel.
func (s *Session) StartAnswer(ctx context.Context, id, question string, o rag.Options) (string, error) {
	if id == "" {
		return "", errors.New("an answer started in the background needs the id its listener hears")
	}
	channel := EventAnswerPrefix + id
	return s.assistant.StartID(ctx, id, question, o, s.turnKept(func(ev rag.Event) { s.emit(channel, ev) }))
}

// CancelAnswer stops an answer; what arrived is kept. It reports whether
// the answer was running.
func (s *Session) CancelAnswer(id string) bool { return s.assistant.Cancel(id) }

// Conversation returns the finished turns, oldest first.
func (s *Session) Conversation() []rag.Answer { return s.assistant.Conversation() }

// ClearConversation forgets the turns.
func (s *Session) ClearConversation() { s.assistant.ClearConversation() }

// Metrics returns the session's metrics records and their summary.
func (s *Session) Metrics(ctx context.Context) (rag.MetricsView, error) {
	return s.assistant.Metrics(ctx)
}

// ExportMetrics writes the metrics as "csv" or "json".
func (s *Session) ExportMetrics(ctx context.Context, w io.Writer, format string) error {
	return s.assistant.ExportMetrics(ctx, w, format)
}

// LLMs lists the catalogue's models (and those pulled into Ollama) with
// whether each can be used now; without a model service, none and the
// configuration problem.
func (s *Session) LLMs(ctx context.Context) ([]llm.ModelStatus, error) {
	if s.svc == nil {
		return []llm.ModelStatus{}, s.problem
	}
	ms := s.svc.Models(ctx)
	if ms == nil {
		ms = []llm.ModelStatus{}
	}
	return ms, nil
}

// KeyStatus says, for each provider that takes a key, whether one is
// configured and where from; a key never leaves Go. A keyring that cannot
// be read is reported on each status (keyring_error), not as a failure:
// keys from the environment still show.
func (s *Session) KeyStatus() ([]secrets.Status, error) {
	sts, err := s.keys.StatusAll()
	if errors.Is(err, secrets.ErrKeyring) {
		err = nil
	}
	return sts, err
}

// SetKey stores a provider's key in the keyring; its models are tried
// again.
func (s *Session) SetKey(provider, key string) error {
	if err := s.keys.Set(provider, key); err != nil {
		return err
	}
	s.keyChanged(provider)
	return nil
}

// ClearKey removes a provider's key from the keyring.
func (s *Session) ClearKey(provider string) error {
	if err := s.keys.Clear(provider); err != nil {
		return err
	}
	s.keyChanged(provider)
	return nil
}

func (s *Session) keyChanged(provider string) {
	if s.svc != nil {
		s.svc.KeyChanged(provider)
	}
}
