package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"vika/backend/clip"
	"vika/backend/corpus"
	"vika/backend/embed"
	"vika/backend/index"
	"vika/backend/models"
	"vika/backend/rerank"
	"vika/backend/retrieve"
)

// loadedModels is the embedding set-up of a session.
type loadedModels struct {
	ret  *retrieve.Retriever
	embs []embed.Embedder // to close
	// image is CLIP, whose figure list joins the searches (nil when it
	// is not installed); it closes with the set.
	image *clip.Model
	// embErr says why dense retrieval is unavailable (nil when it is);
	// multiErr why the configured multilingual model is not loaded (nil
	// when it is, or when none is configured nor installed); imageErr why
	// an installed CLIP is not loaded.
	embErr, multiErr, imageErr error
}

// newRetriever builds the retriever over lex with the embedding models of
// the environment and of the models installed (models.EmbedderIn): the
// English one ($VIKA_EMBED_MODEL_EN, else bge-small-en-v1.5 when
// installed, else USE-lite) for English and unknown-language chunks, and
// the multilingual one ($VIKA_EMBED_MODEL_MULTI, else the preferred
// installed one) for the other languages, and CLIP's figure list when CLIP
// is installed. The multilingual model is
// loaded only when it is installed (or named: then its absence is an
// error), so a session without one does not pay its memory. An English
// model that cannot be loaded (assets missing, say) leaves BM25 working;
// the error says why dense retrieval is unavailable.
func newRetriever(lex *index.Lexical, cfg Config) loadedModels {
	if cfg.NoEmbeddings {
		return loadedModels{ret: bm25Only(lex), embErr: fmt.Errorf("%w (embeddings are off)", retrieve.ErrNoEmbedder)}
	}
	root := cfg.modelsRoot()
	enChoice, err := models.EmbedderIn(root, true)
	if err != nil {
		return loadedModels{ret: bm25Only(lex), embErr: err}
	}
	en, err := embed.Open(root, enChoice)
	if err != nil {
		return loadedModels{ret: bm25Only(lex), embErr: err}
	}
	lm := loadedModels{embs: []embed.Embedder{en}}
	spaces := []retrieve.Space{{Embedder: en, Dense: index.NewDense(en.Dim()), Languages: routed(enChoice)}}
	multi, multiChoice, err := openMulti(root, enChoice)
	if multi != nil {
		lm.embs = append(lm.embs, multi)
		spaces = append(spaces, retrieve.Space{Embedder: multi, Dense: index.NewDense(multi.Dim()), Languages: routed(multiChoice)})
	}
	lm.multiErr = err
	var opts retrieve.Options
	lm.image, opts.Figures, lm.imageErr = openFigures(root)
	if lm.ret, err = retrieve.NewRouted(lex, spaces, opts); err != nil {
		lm.closeModels()
		return loadedModels{ret: bm25Only(lex), embErr: err}
	}
	return lm
}

// openMulti loads the multilingual model unless it is the English one, or
// is the default and not installed.
func openMulti(root string, en models.Choice) (embed.Embedder, models.Choice, error) {
	c, err := models.EmbedderIn(root, false)
	if err != nil {
		return nil, c, err
	}
	if c.Name == en.Name {
		return nil, c, nil // one model serves both
	}
	if !c.Explicit && c.Model != nil && !models.Installed(root, *c.Model) {
		return nil, c, nil
	}
	m, err := embed.Open(root, c)
	if err != nil {
		return nil, c, fmt.Errorf("%s: %w", models.EnvModelMulti, err)
	}
	return m, c, nil
}

// routed returns the chunk languages a model is given: every language for
// a multilingual model, else its languages, English taking the chunks of
// unknown language too.
func routed(c models.Choice) []string {
	if c.Multilingual() {
		return nil
	}
	langs := slices.Clone(c.Languages())
	if slices.Contains(langs, "en") {
		langs = append(langs, "")
	}
	return langs
}

func (lm loadedModels) closeModels() error {
	var errs []error
	for _, e := range lm.embs {
		errs = append(errs, e.Close())
	}
	if lm.image != nil {
		errs = append(errs, lm.image.Close())
	}
	return errors.Join(errs...)
}

func bm25Only(lex *index.Lexical) *retrieve.Retriever {
	r, err := retrieve.New(lex, nil, nil, retrieve.Options{})
	if err != nil {
		panic(err) // only a nil lexical index fails, and lex is not nil
	}
	return r
}

// lazyReranker loads the installed cross-encoder on first use, once. Until
// one is installed it looks again at each use (a few file checks), so a
// cross-encoder downloaded from the window serves the next search.
type lazyReranker struct {
	root string

	mu     sync.Mutex
	loaded bool                 // guarded by mu
	closed bool                 // guarded by mu
	r      *rerank.CrossEncoder // nil when none is installed; guarded by mu
	err    error                // why an installed one failed to load; guarded by mu
}

// get returns the reranker, nil when none is installed or it failed to
// load (err says why) or the session is closed.
func (l *lazyReranker) get() (*rerank.CrossEncoder, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, ErrClosed
	}
	if !l.loaded || (l.r == nil && l.err == nil) {
		l.r, l.err = rerank.Open(l.root)
		l.loaded = true
	}
	return l.r, l.err
}

// Close releases the model; a Rerank running on it finishes first.
func (l *lazyReranker) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.r != nil {
		return l.r.Close()
	}
	return nil
}

// EmbedderNames names the embedding models in force, the English one
// first (none when dense retrieval is unavailable).
func (e *Engine) EmbedderNames() []string {
	s, release := e.acquire()
	defer release()
	names := make([]string, 0, len(s.embs))
	for _, m := range s.embs {
		names = append(names, m.Name())
	}
	return names
}

// Embed returns the vectors of texts computed by the embedding model that
// passages of lang are routed to (as passages), with that model's name;
// "" and no vectors when dense retrieval is unavailable. Study uses it to
// find near-duplicate flashcards.
func (e *Engine) Embed(ctx context.Context, lang string, texts []string) (string, [][]float32, error) {
	s, release := e.acquire()
	defer release()
	if !s.ret.HasEmbedder() {
		return "", nil, nil
	}
	chunks := make([]corpus.Chunk, len(texts))
	for i, t := range texts {
		chunks[i] = corpus.Chunk{Text: t, Lang: lang}
	}
	vecs, err := s.ret.Embed(ctx, chunks, nil)
	if err != nil {
		return "", nil, err
	}
	return s.ret.EmbedderFor(lang), vecs, nil
}
