package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"vika/backend/assets"
	"vika/backend/cache"
	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/kept"
	"vika/backend/models"
	"vika/backend/ocr"
)

// The processed-document cache (package cache), when the student turns it
// on, holds what an add computes: the ingest result, keyed by the PDF's
// SHA-256 and the pipeline's fingerprint (setup), and the passages'
// vectors and figures' image vectors, keyed also by the models that made
// them (their pinned file hashes); and the models' outputs about the
// document (outputs.go) and its study guides. A hit skips the PDF worker
// and the embedder (kept.go: cacheSource).

// PipelineVersion names the ingest pipeline's output: change it whenever
// a change of ingest, chunk, pdf or ocr changes what an add produces, so
// that documents processed before are processed again.
// 2: form and note passages, links; 3: letter-spaced pages read again
// (pdf/spacing.go), captions at a page's top kept (chunk/furniture.go);
// 4: ruled tables whose rules lie further apart than ruleChainGap
// (pdf/table.go); 5: scanned pages straightened before OCR, their render
// bounded, a poor reading warned of (ingest/photo.go).
const PipelineVersion = "vika-ingest-5"

// SetCache turns the processed-document cache on (c) or off (nil) for the
// adds and model outputs that start from now, and returns the one it
// replaces. The cache is the caller's to open and close (the session's,
// as its settings say).
func (e *Engine) SetCache(c *cache.Cache) (previous *cache.Cache) {
	return e.cache.Swap(c)
}

// ReleaseCache stops adds using c, if it is the cache in use: one set
// since (SetCache: the command line's) stays. It reports whether c was.
func (e *Engine) ReleaseCache(c *cache.Cache) bool {
	return e.cache.CompareAndSwap(c, nil)
}

// setup is the fingerprint of every setting that changes an ingest's
// result: the pipeline version, chunking, region detection, the OCR's
// languages and image settings, the page limit.
func (e *Engine) setup() string {
	o := e.cfg.OCR
	langs := o.Languages
	if len(langs) == 0 {
		langs = ocr.DefaultLanguages
	}
	return fingerprint(PipelineVersion, e.ingestOptions().Chunk, e.opts.Regions, e.opts.OCRDPI, e.opts.Limits.MaxPages,
		langs, o.PSM, o.DPI, o.Threshold, o.Binarize, o.Variables)
}

// fingerprint is the SHA-256 of parts' JSON.
func fingerprint(parts ...any) string {
	b, err := json.Marshal(parts)
	if err != nil {
		panic(err) // plain values only
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// keptFigures finds the kept figure vectors' passages among chunks.
func keptFigures(kv kept.Vectors, chunks []corpus.Chunk) (figureVecs, bool) {
	if len(kv.FigChunks) != len(kv.FigVectors) || len(kv.FigChunks) > len(chunks) {
		return figureVecs{}, false
	}
	at := make(map[string]int, len(chunks))
	for j, c := range chunks {
		at[c.ID] = j
	}
	var out figureVecs
	for i, id := range kv.FigChunks {
		j, ok := at[id]
		if !ok {
			return figureVecs{}, false
		}
		out.chunks = append(out.chunks, chunks[j])
		out.vecs = append(out.vecs, kv.FigVectors[i])
	}
	return out, true
}

func computeVectors(ctx context.Context, set *modelSet, res ingest.Result, progress func(done, total int)) ([][]float32, figureVecs, error) {
	vecs, err := set.ret.Embed(ctx, res.Chunks, progress)
	if err != nil {
		return nil, figureVecs{}, err
	}
	figs, err := figureVectors(ctx, set.loadedModels, res.Chunks, pageRegions(res.Pages))
	return vecs, figs, err
}

// modelsKey names the set's vector spaces by their models' pinned file
// hashes, in routing order, with CLIP's; "" when a model is not pinned
// (a test's model, say): its vectors are not kept.
func (lm loadedModels) modelsKey() string {
	var parts []string
	for _, name := range lm.ret.Embedders() {
		h, ok := modelHash(name)
		if !ok {
			return ""
		}
		parts = append(parts, name+"="+h)
	}
	if lm.image != nil {
		h, ok := modelHash(lm.image.Name())
		if !ok {
			return ""
		}
		parts = append(parts, "image:"+lm.image.Name()+"="+h)
	}
	return fingerprint(parts)
}

// modelHash is the pinned SHA-256 of a model's files (verified when it
// was loaded).
func modelHash(name string) (string, bool) {
	if name == "use-lite" {
		m, err := assets.Lookup(assets.USELiteModel)
		v, err2 := assets.Lookup(assets.USELiteVocab)
		return m.SHA256 + "+" + v.SHA256, err == nil && err2 == nil && m.SHA256 != ""
	}
	m, err := models.Lookup(name)
	if err != nil || len(m.Files) == 0 {
		return "", false
	}
	var sums []string
	for _, f := range m.Files {
		if f.SHA256 == "" {
			return "", false
		}
		sums = append(sums, f.Path+":"+f.SHA256)
	}
	return fmt.Sprint(sums), true
}

// CacheInfo says whether the document cache is on and what it holds (zero
// counts when it is off).
type CacheInfo struct {
	On        bool   `json:"on"`
	Dir       string `json:"dir"`
	Documents int    `json:"documents"`  // PDFs remembered
	Bytes     int64  `json:"bytes"`      // their entries' size
	FileBytes int64  `json:"file_bytes"` // the cache's files on disk
	MaxBytes  int64  `json:"max_bytes"`  // the cap
}

// CacheInfo reports on the document cache.
func (e *Engine) CacheInfo(ctx context.Context) (CacheInfo, error) {
	c := e.cache.Load()
	if c == nil || c.Off() {
		return CacheInfo{}, nil
	}
	in, err := c.Info(ctx)
	return CacheInfo{On: err == nil, Dir: in.Dir, Documents: in.Documents, Bytes: in.Bytes, FileBytes: in.FileBytes, MaxBytes: in.MaxBytes}, err
}

// ForgetCached deletes what the document cache keeps of a PDF (by its
// SHA-256, which is its document id); nothing when the cache is off.
func (e *Engine) ForgetCached(ctx context.Context, docID string) error {
	if c := e.cache.Load(); c != nil {
		if err := c.Forget(ctx, docID); err != nil && !errors.Is(err, cache.ErrOff) {
			return err
		}
	}
	return nil
}

// ClearCache empties the document cache; nothing when it is off.
func (e *Engine) ClearCache(ctx context.Context) error {
	if c := e.cache.Load(); c != nil {
		if err := c.Clear(ctx); err != nil && !errors.Is(err, cache.ErrOff) {
			return err
		}
	}
	return nil
}
