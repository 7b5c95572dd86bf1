// Package session is Vika's composition root. Open builds one session from
// one configuration: the document engine (package engine), the OS keyring
// (secrets), the model service over the LLM catalogue (llm), the assistant
// that answers (rag) and the ONNX model manager (models), with the user's
// settings read once. The session owns every rule between those stages:
//
//   - a bad VIKA_* value never stops a session: a bad provider setting
//     leaves answers extractive, a bad threshold takes its default, and
//     every answer carries a notice saying so (Open, Problem);
//   - a document added is described when the settings ask for it, with the
//     settings held in memory, not reread at every add (StartFile, StartBytes);
//   - an embedding or image model that finishes installing is put to use
//     at once: the session's passages are embedded again (DownloadModel);
//   - accepting the model offer downloads its models (AnswerModelOffer);
//   - the settings' switches apply at Open and as soon as they are saved:
//     the local Ollama server, the document cache (SetSettings);
//   - the flashcards made join the deck under review, each grade is
//     scheduled by FSRS and logged, quiz answers too (review.go);
//   - the student's own highlights and notes are passages of their
//     documents, indexed as they change, kept in a course file (notes.go);
//   - work no course file holds (documents added or removed, turns, study
//     material, reviews) makes the session unsaved until it is saved to a course
//     file, and a course opened into an empty session leaves it saved
//     (Unsaved, unsaved.go); the courses saved or opened are remembered
//     in the settings file (RecentCourses).
//
// The window (package main's app_*.go) and the command line (package cli)
// are adapters over a Session: they convert, call and print or emit. The
// session hands out no subsystem; its methods are the whole surface.
// Events go out through Options.Emit under the names of events.go.
package session

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"vika/backend/cache"
	"vika/backend/engine"
	"vika/backend/llm"
	"vika/backend/models"
	"vika/backend/notes"
	"vika/backend/rag"
	"vika/backend/review"
	"vika/backend/secrets"
	"vika/backend/study"
)

// Options configure Open. The zero value is the desktop app's session.
type Options struct {
	// Engine configures the document engine; nil reads the VIKA_* limits
	// (engine.ConfigFromEnv: a bad value takes its default and is told).
	Engine *engine.Config
	// SettingsPath is the settings file; "" means SettingsPath(). With
	// NoSettings the defaults are used and nothing is saved.
	SettingsPath string
	NoSettings   bool
	// Keys holds the API keys; nil opens the OS keyring (secrets.New).
	Keys *secrets.Store
	// LLM configures the model service; nil reads the catalogue and the
	// VIKA_* variables (llm.FromEnv).
	LLM func(llm.Keys) (*llm.Service, error)
	// Answer configures the assistant; nil reads VIKA_ABSTAIN_MIN_BM25
	// (rag.DefaultConfig).
	Answer func() (rag.Config, error)
	// Models is the ONNX model manager; nil downloads the registry's
	// models into models.Root().
	Models *models.Manager
	// Ollama turns the local Ollama server on whatever the settings say
	// (the command line's --ollama); otherwise Settings.Ollama decides.
	Ollama bool
	// Emit sends an event (its name, from events.go, and its payload) to
	// whoever listens; nil sends none.
	Emit func(name string, payload any)
	// Clock tells the time of reviews; nil is time.Now.
	Clock func() time.Time
}

// Session is one open session. Its methods are safe for concurrent use.
type Session struct {
	eng       *engine.Engine
	assistant *rag.Assistant
	study     *study.Jobs  // study guides and flashcards in flight, guides kept
	reviews   *review.Deck // the flashcards under review and their log (review.go)
	notes     *notes.Book  // the student's own highlights and notes (notes.go)
	notesMu   sync.Mutex   // orders the indexing of the notes (indexNotes)
	clock     func() time.Time
	svc       *llm.Service // nil: no model, answers are extractive
	keys      *secrets.Store
	models    *models.Manager
	emit      func(name string, payload any)
	problem   error  // the configuration problem answers are told about
	path      string // the settings file; "" keeps none

	// saving is held by SetSettings across saving and applying, so the
	// switches in use are those of the file last saved.
	saving sync.Mutex
	mu     sync.Mutex
	// life ends at Close: the background work the session starts itself
	// (describing a document just added) runs under it.
	life context.Context
	stop context.CancelFunc
	// background counts that work, for Close to wait for; bgMu orders a
	// start against Close (none starts once life has ended).
	background sync.WaitGroup
	bgMu       sync.Mutex
	settings   Settings // guarded by mu: as last loaded or saved
	loadErr    error    // guarded by mu: why the file could not be read
	// saved tells the work no course file holds (unsaved.go).
	saved savedState
	// cacheMu serialises opening and closing the document cache the
	// settings ask for (remember); opened is that cache, closed with the
	// session, guarded by cacheMu.
	cacheMu     sync.Mutex
	cacheOpened *cache.Cache
}

// Open opens a session. Only the engine failing to open is an error; a
// configuration problem of the model service or the assistant is kept
// (Problem) and told with every answer.
func Open(ctx context.Context, o Options) (*Session, error) {
	cfg, limitsErr := engine.ConfigFromEnv(nil)
	if o.Engine != nil {
		cfg, limitsErr = *o.Engine, nil
	}
	if limitsErr != nil {
		limitsErr = fmt.Errorf("%w: the default is used", limitsErr)
	}
	eng, err := engine.New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	s := &Session{eng: eng, keys: o.Keys, models: o.Models, emit: o.Emit, reviews: review.NewDeck(), notes: notes.NewBook(), clock: o.Clock}
	s.life, s.stop = context.WithCancel(context.Background())
	if s.keys == nil {
		s.keys = secrets.New()
	}
	if s.models == nil {
		s.models = &models.Manager{}
	}
	if s.emit == nil {
		s.emit = func(string, any) {}
	}
	var answerCfg rag.Config
	s.svc, answerCfg, s.problem = configure(s.keys, o.LLM, o.Answer, limitsErr)
	s.assistant = rag.New(eng, s.svc, answerCfg)
	s.study = study.NewJobs(study.New(eng, s.svc))
	// Guides are kept with the documents' other model outputs: in a course
	// file saved, and in the document cache while it is on (cache.go).
	s.study.SetStore(eng)
	s.openSettings(o)
	st, _ := s.Settings()
	s.useLocal(o.Ollama || st.Ollama)
	eng.SetChunking(st.Chunking())
	_ = s.remember(ctx, st) // a cache that cannot open leaves it off
	return s, nil
}

// configure builds the model service and the assistant's configuration,
// degrading rather than failing: a service that cannot be configured is
// nil (answers quote the documents), a bad assistant value takes its
// default, and the problem (with limitsErr, the engine's) is returned and
// set as the answers' warning.
func configure(keys llm.Keys, newLLM func(llm.Keys) (*llm.Service, error), answer func() (rag.Config, error), limitsErr error) (*llm.Service, rag.Config, error) {
	if newLLM == nil {
		newLLM = func(k llm.Keys) (*llm.Service, error) { return llm.FromEnv(k) }
	}
	if answer == nil {
		answer = rag.DefaultConfig
	}
	svc, err := newLLM(keys)
	if err != nil {
		svc = nil
		err = fmt.Errorf("%w: no model is asked until it is fixed; answers quote your documents", err)
	}
	cfg, cfgErr := answer()
	if cfgErr != nil {
		cfgErr = fmt.Errorf("%w: the default is used", cfgErr)
	}
	problem := errors.Join(err, cfgErr, limitsErr)
	if problem != nil {
		cfg.Warning = strings.ReplaceAll(problem.Error(), "\n", "; ")
	}
	return svc, cfg, problem
}

// Problem is the configuration problem the session opened with (a bad
// VIKA_* value), nil when there is none.
func (s *Session) Problem() error { return s.problem }

// Close stops the answers, the downloads and the engine.
func (s *Session) Close() error {
	s.bgMu.Lock()
	s.stop()
	s.bgMu.Unlock()
	s.background.Wait()
	s.study.Close()
	s.assistant.Close()
	s.models.Close()
	err := s.eng.Close()
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if s.cacheOpened != nil {
		err = errors.Join(err, s.cacheOpened.Close())
		s.cacheOpened = nil
	}
	return err
}

// offerPath is where the answer to the model offer is remembered: beside
// the settings file ("" without one).
func (s *Session) offerPath() string {
	if s.path == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(s.path), "model-offer.json")
}
