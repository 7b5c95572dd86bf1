package session

import (
	"errors"
	"testing"

	"vika/backend/cache"
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

// TestRememberKeepsACacheThatTurnedOff: saving the same settings again
// (a change of K, say) leaves a cache that turned itself off (a full
// disk; closing it stands for that here) off, as its notice promises; a
// new cap opens it again; turning it off closes it.
func TestRememberKeepsACacheThatTurnedOff(t *testing.T) {
	ctx := t.Context()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	s := open(t, "", &heard{})
	st := DefaultSettings()
	st.Remember = true
	if err := s.remember(ctx, st); err != nil {
		t.Fatal(err)
	}
	off := s.cacheOpened
	off.Close()
	if err := s.remember(ctx, st); err != nil {
		t.Fatal(err)
	}
	if s.cacheOpened != off {
		t.Error("the same settings saved again reopened a cache that had turned off")
	}
	st.CacheMaxMB = 4096
	if err := s.remember(ctx, st); err != nil || s.cacheOpened == off || s.cacheOpened.Off() {
		t.Errorf("a new cap did not open the cache again: %v", err)
	}
	on := s.cacheOpened
	st.Remember = false
	if err := s.remember(ctx, st); err != nil || s.cacheOpened != nil || !on.Off() {
		t.Errorf("turned off: %v, cache %v, the old one closed %v", err, s.cacheOpened, on.Off())
	}
	if info, err := s.CacheInfo(ctx); err != nil || info.On {
		t.Errorf("CacheInfo once off = %+v, %v", info, err)
	}
}

// TestRememberLeavesTheCommandLinesCache: turning the settings' cache
// off closes it but does not take away a cache the command line set
// since (UseCache): adds go on reading and filling that one.
func TestRememberLeavesTheCommandLinesCache(t *testing.T) {
	ctx := t.Context()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	s := open(t, "", &heard{})
	st := DefaultSettings()
	st.Remember = true
	if err := s.remember(ctx, st); err != nil {
		t.Fatal(err)
	}
	mine := s.cacheOpened
	dir := t.TempDir()
	cli, err := cache.Open(ctx, dir, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	s.UseCache(cli)
	st.Remember = false
	if err := s.remember(ctx, st); err != nil || !mine.Off() {
		t.Fatalf("turned off: %v, the settings' cache closed %v", err, mine.Off())
	}
	want, _ := cli.Info(ctx)
	if info, err := s.CacheInfo(ctx); err != nil || !info.On || info.Dir != want.Dir {
		t.Errorf("the command line's cache was taken away: %+v, %v", info, err)
	}
}
