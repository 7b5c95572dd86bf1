package main

import "vika/backend/engine"

// The cache page API (frontend/src/lib/api/cache.ts): the document cache
// the settings turn on ("Remember processed documents").

// CacheInfo reports whether the document cache is on and its size.
func (a *App) CacheInfo() (engine.CacheInfo, error) { return a.s.CacheInfo(a.ctx) }

// ForgetCached deletes what the document cache keeps of a document.
func (a *App) ForgetCached(docID string) error { return a.s.ForgetCached(a.ctx, docID) }

// ClearCache empties the document cache.
func (a *App) ClearCache() error { return a.s.ClearCache(a.ctx) }
