package main

import (
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/engine"
	"vika/backend/message"
	"vika/backend/rag"
)

// applyRemember turns the document cache on or off as the settings say;
// its notices go to the window as engine.EventCacheNotice.
func (a *App) applyRemember(s rag.Settings) error {
	return a.eng.Remember(a.ctx, s.Remember, s.CacheMaxBytes(), func(m message.Message) {
		runtime.EventsEmit(a.ctx, engine.EventCacheNotice, m)
	})
}

// CacheInfo reports whether the document cache is on and its size.
func (a *App) CacheInfo() (engine.CacheInfo, error) { return a.eng.CacheInfo(a.ctx) }

// ForgetCached deletes what the document cache keeps of a document.
func (a *App) ForgetCached(docID string) error { return a.eng.ForgetCached(a.ctx, docID) }

// ClearCache empties the document cache.
func (a *App) ClearCache() error { return a.eng.ClearCache(a.ctx) }
