// Package rag answers questions about the session's documents: it is the
// orchestrator of one session's conversation. For each question it
// rewrites a follow-up into a standalone question (cheapest model, or a
// heuristic), retrieves passages through the engine, abstains when none is
// close enough, builds the prompt with the last turns, streams the answer
// from the routed model with fallback (or quotes the best passages when no
// model is available), checks the citations, and records the question's
// metrics in the session. Events report the progress, batched.
//
// Call sites read: rag.New(eng, svc, cfg).Ask(ctx, question, opts, emit).
package rag

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"vika/backend/cite"
	"vika/backend/config"
	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/jobs"
	"vika/backend/jsonbound"
	"vika/backend/llm"
	"vika/backend/metrics"
	"vika/backend/prompt"
	"vika/backend/retrieve"
)

// Engine is what an Assistant needs of the session engine (*engine.Engine).
type Engine interface {
	Search(ctx context.Context, q retrieve.Query, o engine.SearchOptions) (engine.SearchResult, error)
	AddMetric(ctx context.Context, rec metrics.Record) (metrics.Record, error)
	Metrics(ctx context.Context) ([]metrics.Record, error)
	Documents(ctx context.Context) ([]corpus.Document, error)
	Chunks(ctx context.Context, docID string) ([]corpus.Chunk, error)
}

// Config tunes an Assistant. Zero fields take their defaults.
type Config struct {
	// MinBM25 is the abstention threshold on the best BM25 score
	// (prompt.Abstain); 0 means prompt.DefaultMinBM25.
	MinBM25 float64
	// AuxTimeout bounds the auxiliary model calls made before retrieval
	// (follow-up rewrite, HyDE, multi-query); 0 means 20 s.
	AuxTimeout time.Duration
	// Flush is the delta batching interval; 0 means FlushInterval.
	Flush time.Duration
	// Now is the clock of the metrics; nil means time.Now.
	Now metrics.Clock
	// Warning, when set, is a configuration problem told with every answer
	// (a bad VIKA_* value: its default is used, or no model is asked): the
	// problem itself; the notice says it is one (message.NoticeConfig).
	Warning string
}

// ConfigFromEnv reads VIKA_ABSTAIN_MIN_BM25 (a number from 0 to 100).
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	var cfg Config
	if v := config.AbstainMinBM25.Get(getenv); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 100 {
			return cfg, fmt.Errorf("%s: %q is not a number from 0 to 100", config.AbstainMinBM25.Name, v)
		}
		cfg.MinBM25 = f
		if f == 0 {
			cfg.MinBM25 = -1 // never abstain on the score
		}
	}
	return cfg, nil
}

// DefaultConfig is ConfigFromEnv of the process environment; an invalid
// value is reported and the default used.
func DefaultConfig() (Config, error) { return ConfigFromEnv(config.Getenv) }

func (c Config) withDefaults() Config {
	if c.MinBM25 == 0 {
		c.MinBM25 = prompt.DefaultMinBM25
	}
	if c.AuxTimeout <= 0 {
		c.AuxTimeout = 20 * time.Second
	}
	if c.Flush <= 0 {
		c.Flush = FlushInterval
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Assistant holds one conversation over the engine's documents. Its methods
// are safe for concurrent use.
type Assistant struct {
	eng Engine
	llm *llm.Service // nil: no model, answers are extractive
	cfg Config

	answers jobs.Runner // answers started with Start, by id ("a1", "a2", ... when the caller chose none)

	mu    sync.Mutex
	turns []Answer // guarded by mu: finished turns, oldest first
	// conv counts the conversations: ClearConversation starts a new one,
	// and an answer started in an earlier one is not kept. Guarded by mu.
	conv int
}

// New returns an Assistant answering from eng's documents with svc's models
// (svc may be nil: every answer is then extractive).
func New(eng Engine, svc *llm.Service, cfg Config) *Assistant {
	return &Assistant{eng: eng, llm: svc, cfg: cfg.withDefaults(), answers: jobs.Runner{Prefix: "a"}}
}

func (s *Assistant) now() time.Time { return s.cfg.Now() }

// Start answers question in the background and returns the answer's id at
// once; the answer's events go to emit, the last one of type done or
// error. ctx bounds the answer; Cancel stops it.
func (s *Assistant) Start(ctx context.Context, question string, o Options, emit func(Event)) (string, error) {
	return s.StartID(ctx, "", question, o, emit)
}

// StartID is Start with an id chosen by the caller ("" picks one), so that
// a listener can subscribe to the answer's events before it starts: the
// frontend does, and misses none. An id malformed or in use fails with jobs.ErrBadID.
func (s *Assistant) StartID(ctx context.Context, id, question string, o Options, emit func(Event)) (string, error) {
	if strings.TrimSpace(question) == "" {
		return "", ErrEmptyQuestion
	}
	if err := o.validate(); err != nil {
		return "", err
	}
	o, err := s.resolveScope(ctx, o)
	if err != nil {
		return "", err
	}
	if id == "" {
		id = s.answers.NewID()
	}
	return s.answers.Start(ctx, id, func(ctx context.Context) error {
		_, err := s.ask(ctx, id, question, o, emit)
		return err
	}, nil)
}

// Cancel stops the answer with that id; what arrived is kept and the turn
// is recorded as partial. It reports whether the answer was running.
func (s *Assistant) Cancel(id string) bool { return s.answers.Cancel(id) }

// Close cancels the answers in flight and waits for them to end.
func (s *Assistant) Close() { s.answers.Close() }

// Conversation returns the finished turns, oldest first.
func (s *Assistant) Conversation() []Answer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Answer{}, s.turns...)
}

// Bounds of RestoreConversation: the most turns it takes, the largest
// turn (its JSON: a real answer is at most llm.DefaultMaxAnswerBytes of
// text and its sources), and the most bytes of turns in all.
const (
	MaxRestoredTurns     = 1000
	MaxRestoredTurnBytes = 1 << 20
	MaxRestoredBytes     = 32 << 20
)

// DecodeConversation decodes a conversation's encoding (a course file's:
// untrusted) one turn at a time, within RestoreConversation's bounds: more
// than MaxRestoredTurns turns, or one over MaxRestoredTurnBytes, fail
// (jsonbound.ErrBounds) as soon as they are met, so that a few megabytes
// of empty turns never become gigabytes of them. A course Vika saved
// never holds more (session.SaveCourse keeps the newest within them).
func DecodeConversation(data []byte) ([]Answer, error) {
	// The whole text first, counted without decoding: the turn bounds
	// alone let a turn of a megabyte of empty sources ("{},") become
	// gigabytes of structs.
	if err := jsonbound.Check(data, conversationBounds); err != nil {
		return nil, fmt.Errorf("the conversation kept: %w", err)
	}
	var turns []Answer
	err := jsonbound.Array(data, MaxRestoredTurns, MaxRestoredTurnBytes, func(raw json.RawMessage) error {
		var a Answer
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		turns = append(turns, a)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("the conversation kept: %w", err)
	}
	return turns, nil
}

// conversationBounds bound a saved conversation as a whole before it is
// decoded: a real turn holds some hundred objects and arrays (its
// sources, their boxes, its citations, its metrics), so a thousand turns
// fit; the worst a conversation within them costs is about 120 MB of
// structs and 64 MB of strings and numbers.
var conversationBounds = jsonbound.Limits{MaxValues: 4 << 20, MaxContainers: 400_000, MaxArray: MaxRestoredTurns, MaxDepth: 16}

// Newest returns the newest of turns that RestoreConversation would take:
// what a course file keeps of a conversation.
func Newest(turns []Answer) []Answer { return newest(turns) }

// RestoreConversation puts turns (from a course file: untrusted, shown
// like any answer, through the sanitizing renderer) after the finished
// ones: the newest of them within MaxRestoredTurns and MaxRestoredBytes,
// leaving out any turn over MaxRestoredTurnBytes (an answer Vika wrote
// holds at most llm.DefaultMaxAnswerBytes of text). The last of them become the history of the next question, as the
// student sees them. Their sources and citations are not taken as given
// (recheck): each source is the session's passage its chunk id names, and
// each citation is checked again against them. It returns how many it
// took.
func (s *Assistant) RestoreConversation(turns []Answer) int {
	kept := newest(turns)
	s.recheck(context.Background(), kept)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, kept...)
	return len(kept)
}

// newest returns the newest of turns within MaxRestoredTurns and
// MaxRestoredBytes, leaving out any turn over MaxRestoredTurnBytes.
func newest(turns []Answer) []Answer {
	var kept []Answer
	total := 0
	for i := len(turns) - 1; i >= 0 && len(kept) < MaxRestoredTurns; i-- {
		b, err := json.Marshal(turns[i])
		if err != nil || len(b) > MaxRestoredTurnBytes {
			continue
		}
		if total += len(b); total > MaxRestoredBytes {
			break
		}
		kept = append(kept, turns[i])
	}
	slices.Reverse(kept)
	return kept
}

// CitedPages returns the pages that the turns of a saved conversation (a
// course file's, as DecodeConversation gives them) name in their sources
// and citations, by document id, of the turns a restore takes and only
// those: the pages whose OCR a course must prove (engine.OpenCourse).
func CitedPages(turns []Answer) map[string][]int {
	turns = newest(turns)
	seen := map[string]map[int]bool{}
	add := func(docID string, page int) {
		if docID == "" || page < 1 {
			return
		}
		if seen[docID] == nil {
			seen[docID] = map[int]bool{}
		}
		seen[docID][page] = true
	}
	for _, a := range turns {
		for _, s := range a.Sources {
			add(s.DocID, s.Page)
		}
		for _, c := range a.Citations {
			add(c.DocID, c.Page)
		}
	}
	out := make(map[string][]int, len(seen))
	for id, pages := range seen {
		for p := range pages {
			out[id] = append(out[id], p)
		}
	}
	return out
}

// recheck makes the sources of turns (a course file's: untrusted) the
// session's passages their chunk ids name, in the session's document's
// name, and checks their citations again against them (cite.Check, as
// the answer was): a source that is not a passage of the session (another
// document's, a selection, a passage removed) keeps no text and no page,
// so that no citation of it is verified.
func (s *Assistant) recheck(ctx context.Context, turns []Answer) {
	docs := map[string]corpus.Document{}
	if s.eng != nil {
		if ds, err := s.eng.Documents(ctx); err == nil {
			for _, d := range ds {
				docs[d.ID] = d
			}
		}
	}
	passages := map[string]map[string]corpus.Chunk{}
	passagesOf := func(docID string) map[string]corpus.Chunk {
		m, ok := passages[docID]
		if ok {
			return m
		}
		m = map[string]corpus.Chunk{}
		if _, known := docs[docID]; known {
			if chunks, err := s.eng.Chunks(ctx, docID); err == nil {
				for _, c := range chunks {
					m[c.ID] = c
				}
			}
		}
		passages[docID] = m
		return m
	}
	for i := range turns {
		a := &turns[i]
		a.Sources = slices.Clone(a.Sources)
		hits := make([]corpus.Hit, len(a.Sources))
		for j := range a.Sources {
			h := &a.Sources[j].Hit
			c, ok := passagesOf(h.DocID)[h.ChunkID]
			// The page a source states is the one whose OCR was checked
			// (CitedPages): a source naming another page than its
			// passage's is not taken.
			if ok && c.DocID == h.DocID && h.Page == c.Page {
				d := docs[h.DocID]
				h.File, h.Page, h.Text, h.Kind, h.PageType, h.BBox = d.File, c.Page, c.Text, c.Kind, c.PageType, c.BBox
				h.Label, h.Unit = corpus.CitationLabel(d.Label, d.Unit, c.Page), d.Unit
			} else {
				h.Page, h.Text, h.BBox = 0, "", nil
			}
			hits[j] = *h
		}
		a.Citations = cite.Check(a.Answer, hits)
		if a.Citations == nil {
			a.Citations = []cite.Citation{}
		}
	}
}

// ClearConversation forgets the turns (the metrics stay in the session) and
// stops the answers in flight: they belong to the conversation cleared, and
// are not kept when they end.
func (s *Assistant) ClearConversation() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = nil
	s.conv++
	s.answers.CancelAll()
}

// conversation returns the number of the current conversation.
func (s *Assistant) conversation() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conv
}

// history returns the last prompt.MaxTurns turns, for prompts.
func (s *Assistant) history() []prompt.Turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	turns := s.turns
	if len(turns) > prompt.MaxTurns {
		turns = turns[len(turns)-prompt.MaxTurns:]
	}
	out := make([]prompt.Turn, len(turns))
	for i, t := range turns {
		out[i] = prompt.Turn{Question: t.Question, Answer: t.Answer, Standalone: t.StandaloneQuestion}
	}
	return out
}

func (s *Assistant) addTurn(a Answer, conv int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if conv == s.conv {
		s.turns = append(s.turns, a)
	}
}

// Metrics returns the session's metrics records and their summary.
func (s *Assistant) Metrics(ctx context.Context) (MetricsView, error) {
	recs, err := s.eng.Metrics(ctx)
	if recs == nil {
		recs = []metrics.Record{}
	}
	return MetricsView{Records: recs, Summary: metrics.Summarize(recs)}, err
}
