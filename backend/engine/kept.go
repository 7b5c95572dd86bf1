package engine

import (
	"context"
	"errors"
	"log"

	"vika/backend/cache"
	"vika/backend/ingest"
	"vika/backend/kept"
)

// What Vika keeps of a PDF outside the session (package kept's encoding)
// comes to an add from one source: a course file's entry (courseEntry,
// its content claims that claims.go checks against the PDF) or the
// processed-document cache (cacheSource, made by this machine and taken
// as read), or none (noSource). What an add reads from the PDF itself
// (derived) is kept in the cache when the session turned it on; nothing a
// course gave, nor what is computed from it, ever is.

// keptSource is where an add finds what was kept of its PDF.
type keptSource interface {
	// read returns the processed document of the PDF in data: the
	// source's (hit), or read by the workers (opts), with what the
	// source claims reused once checked. derived reports that all of it
	// was read here from the PDF's bytes.
	read(ctx context.Context, e *Engine, name string, data []byte, opts ingest.Options, progress func(ingest.Progress)) (res ingest.Result, hit, derived bool, err error)
	// vectors returns res's passage and figure vectors by set's models
	// when the source keeps vectors that may stand for them.
	vectors(ctx context.Context, set *modelSet, res ingest.Result) ([][]float32, figureVecs, bool)
	// output returns the model output the source keeps under key
	// (outputs.go), for document docID.
	output(ctx context.Context, docID, key string) (kept.Output, bool)
}

// source is where an add of document id without a course entry finds
// what was kept of it: the cache when it is on, else nothing.
func (e *Engine) source(id string) keptSource {
	if c := e.cache.Load(); c != nil {
		return cacheSource{c: c, id: id, setup: e.setup()}
	}
	return noSource{}
}

// noSource keeps nothing: the PDF is read.
type noSource struct{}

func (noSource) read(ctx context.Context, _ *Engine, name string, data []byte, opts ingest.Options, progress func(ingest.Progress)) (ingest.Result, bool, bool, error) {
	res, err := ingest.Run(ctx, name, data, opts, progress)
	return res, false, true, err
}

func (noSource) vectors(context.Context, *modelSet, ingest.Result) ([][]float32, figureVecs, bool) {
	return nil, figureVecs{}, false
}

func (noSource) output(context.Context, string, string) (kept.Output, bool) {
	return kept.Output{}, false
}

// cacheSource is the processed-document cache's entries of document id
// made with the pipeline setup.
type cacheSource struct {
	c         *cache.Cache
	id, setup string
}

// read returns the processed document from the cache when it holds it (a
// hit), else runs the ingest and keeps its result (a document with
// failed pages is not kept: a page over its time budget may read next
// time). A cache that fails is logged and left out: the add goes on.
func (s cacheSource) read(ctx context.Context, e *Engine, name string, data []byte, opts ingest.Options, progress func(ingest.Progress)) (ingest.Result, bool, bool, error) {
	k := cache.Key{Doc: s.id, Setup: s.setup, Part: cache.PartDocument}
	var kd kept.Document
	if ok, err := s.c.Get(ctx, k, &kd); ok && kd.Belongs(s.id, e.opts.Limits.MaxPages) {
		res := kd.Result()
		res.Doc.File, res.Doc.Label = name, name
		return res, true, true, nil
	} else if err != nil && !errors.Is(err, cache.ErrOff) {
		log.Printf("document cache: %v", err)
	}
	res, err := ingest.Run(ctx, name, data, opts, progress)
	if err != nil || len(res.Doc.FailedPages) > 0 {
		return res, false, true, err
	}
	if err := s.c.Put(ctx, k, kept.NewDocument(res)); err != nil && !errors.Is(err, cache.ErrOff) {
		log.Printf("document cache: keep %s: %v", name, err)
	}
	return res, false, true, nil
}

// vectorsKey is the key of the vectors of document id by the models
// named mk (modelSet.modelsKey) in the cache.
func (s cacheSource) vectorsKey(mk string) cache.Key {
	return cache.Key{Doc: s.id, Setup: fingerprint(s.setup, mk), Part: cache.PartVectors}
}

func (s cacheSource) vectors(ctx context.Context, set *modelSet, res ingest.Result) ([][]float32, figureVecs, bool) {
	mk := set.modelsKey()
	if mk == "" {
		return nil, figureVecs{}, false
	}
	var kv kept.Vectors
	if ok, _ := s.c.Get(ctx, s.vectorsKey(mk), &kv); !ok || len(kv.Vecs) != len(res.Chunks) {
		return nil, figureVecs{}, false
	}
	figs, ok := keptFigures(kv, res.Chunks)
	return kv.Vecs, figs, ok
}

// keepVectors keeps the vectors by set's models of res in the cache
// (nothing when a model is not pinned).
func (s cacheSource) keepVectors(ctx context.Context, set *modelSet, res ingest.Result, vecs [][]float32, figs figureVecs) {
	mk := set.modelsKey()
	if mk == "" {
		return
	}
	kv := kept.Vectors{Vecs: vecs, FigVectors: figs.vecs}
	for _, ch := range figs.chunks {
		kv.FigChunks = append(kv.FigChunks, ch.ID)
	}
	if err := s.c.Put(ctx, s.vectorsKey(mk), kv); err != nil && !errors.Is(err, cache.ErrOff) {
		log.Printf("document cache: keep the vectors of %s: %v", res.Doc.File, err)
	}
}

func (s cacheSource) output(ctx context.Context, docID, key string) (kept.Output, bool) {
	var o kept.Output
	ok, err := s.c.Get(ctx, cache.Key{Doc: docID, Setup: key, Part: cache.PartOutput}, &o)
	if err != nil && !errors.Is(err, cache.ErrOff) {
		log.Printf("document cache: read a model's output: %v", err)
	}
	return o, ok && o.Key == key
}

// keepOutput keeps o, a model's output about document docID made in this
// session, in the cache.
func (s cacheSource) keepOutput(ctx context.Context, docID string, o kept.Output) {
	if err := s.c.Put(ctx, cache.Key{Doc: docID, Setup: o.Key, Part: cache.PartOutput}, o); err != nil && !errors.Is(err, cache.ErrOff) {
		log.Printf("document cache: keep a model's output: %v", err)
	}
}
