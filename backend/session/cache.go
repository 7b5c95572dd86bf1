package session

import (
	"context"

	"vika/backend/cache"
	"vika/backend/engine"
	"vika/backend/message"
)

// The processed-document cache is the session's to switch: it opens the
// one in the user's cache directory when the settings say (Remember) and
// closes it with the session, or uses the one the command line opened
// (UseCache). While one is in use, adds read and fill it (the engine:
// what an add reads, its vectors, the models' outputs about its PDF, the
// study guides made: Open hands the study jobs the engine as their
// store), except what is made of a document a course file gave text to.

// remember turns the document cache in the user's cache directory on or
// off as the settings say (with the cap maxBytes); its notices go out as
// EventCacheNotice. A cache that cannot be opened leaves it off (the
// error says why; adds go on without it). The same settings saved again
// change nothing, so a cache that turned itself off (a full disk) stays
// off until the student turns it off and on or Vika restarts, as its
// notice says.
func (s *Session) remember(ctx context.Context, st Settings) error {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	cur := s.cacheOpened
	if cur != nil && st.Remember && cur.MaxBytes() == st.CacheMaxBytes() {
		return nil
	}
	if cur != nil {
		s.eng.ReleaseCache(cur) // a cache the command line set since (UseCache) stays
		cur.Close()
		s.cacheOpened = nil
	}
	if !st.Remember || s.life.Err() != nil {
		return nil
	}
	dir, err := cache.Dir()
	if err != nil {
		return err
	}
	c, err := cache.Open(ctx, dir, cache.Options{MaxBytes: st.CacheMaxBytes(), Notice: func(m message.Message) { s.emit(EventCacheNotice, m) }})
	if err != nil {
		return message.Wrap(err, message.CacheOpen, "detail", err.Error())
	}
	s.cacheOpened = c
	s.useCache(c)
	return nil
}

// UseCache makes adds read and fill c (the command line's --cache; nil:
// none), in place of the settings' cache; the caller closes it.
func (s *Session) UseCache(c *cache.Cache) { s.useCache(c) }

func (s *Session) useCache(c *cache.Cache) { s.eng.SetCache(c) }

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
