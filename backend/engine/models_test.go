package engine

// What the tests read of the models in force.

// multilingualUnavailable returns why the multilingual embedding model
// named by $VIKA_EMBED_MODEL_MULTI is not loaded, or nil (also when none is
// named nor installed: non-English documents are then searched with BM25).
func (e *Engine) multilingualUnavailable() error { return e.models.Load().multiErr }

// embedders names the loaded embedding models, English one first.
func (e *Engine) embedders() []string { return e.models.Load().ret.Embedders() }
