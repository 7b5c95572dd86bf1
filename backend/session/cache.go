package session

import (
	"context"

	"vika/backend/cache"
	"vika/backend/engine"
	"vika/backend/message"
)

// remember turns the document cache in the user's cache directory on or
// off as the settings say; its notices go out as EventCacheNotice.
func (s *Session) remember(ctx context.Context, st Settings) error {
	return s.eng.Remember(ctx, st.Remember, st.CacheMaxBytes(), func(m message.Message) { s.emit(EventCacheNotice, m) })
}

// UseCache makes adds read and fill c (the command line's --cache; nil:
// none), in place of the settings' cache.
func (s *Session) UseCache(c *cache.Cache) { s.eng.SetCache(c) }

// CacheInfo reports whether the document cache is on and its size.
func (s *Session) CacheInfo(ctx context.Context) (engine.CacheInfo, error) {
	return s.eng.CacheInfo(ctx)
}

// ForgetCached deletes what the document cache keeps of a document.
func (s *Session) ForgetCached(ctx context.Context, docID string) error {
	return s.eng.ForgetCached(ctx, docID)
}

// ClearCache empties the document cache.
func (s *Session) ClearCache(ctx context.Context) error { return s.eng.ClearCache(ctx) }

// useLocal turns the local Ollama server on or off.
func (s *Session) useLocal(on bool) {
	if s.svc != nil {
		s.svc.SetLocal(on)
	}
}

// LocalEndpoint is the address of the local Ollama server ("" when none
// is configured); without a model service, the configuration problem.
func (s *Session) LocalEndpoint() (string, error) {
	if s.svc == nil {
		return "", s.problem
	}
	return s.svc.LocalEndpoint(), nil
}
