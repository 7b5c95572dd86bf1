package session

import (
	"errors"
	"testing"
	"vika/backend/corpus"
)

// TestSettingsCache: remembering is off by default with a 2 GB cap; the
// cap is bounded, 0 meaning the default (a settings file from before).
func TestSettingsCache(t *testing.T) {
	d := DefaultSettings()
	if d.Remember || d.CacheMaxBytes() != 2<<30 {
		t.Errorf("defaults: remember %v, cap %d", d.Remember, d.CacheMaxBytes())
	}
	for mb, ok := range map[int]bool{0: true, 99: false, 100: true, 4096: true, MaxCacheMaxMB + 1: false, -1: false} {
		s := d
		s.CacheMaxMB = mb
		if err := s.Validate(); (err == nil) != ok || (err != nil && !errors.Is(err, corpus.ErrInvalid)) {
			t.Errorf("CacheMaxMB %d: %v", mb, err)
		}
	}
	s := d
	s.CacheMaxMB = 0
	if s.CacheMaxBytes() != 2<<30 {
		t.Errorf("0 MB means %d bytes", s.CacheMaxBytes())
	}
}
