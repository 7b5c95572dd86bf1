package session

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPushRecent: most recent first, each path once, at most
// MaxRecentCourses.
func TestPushRecent(t *testing.T) {
	var paths []string
	for i := range 10 {
		paths = pushRecent(paths, fmt.Sprintf("/c/%d.vika", i))
	}
	if len(paths) != MaxRecentCourses || paths[0] != "/c/9.vika" || paths[MaxRecentCourses-1] != "/c/2.vika" {
		t.Fatalf("after 10: %q", paths)
	}
	paths = pushRecent(paths, "/c/5.vika")
	want := []string{"/c/5.vika", "/c/9.vika", "/c/8.vika", "/c/7.vika", "/c/6.vika", "/c/4.vika", "/c/3.vika", "/c/2.vika"}
	if !slices.Equal(paths, want) {
		t.Errorf("again /c/5.vika: %q, want %q", paths, want)
	}
}

// TestRecentCourses: the courses saved and opened are listed most recent
// first, once each, in the settings file beside the settings without
// writing any setting there; saving the settings keeps them; a course no
// longer there is listed missing. A session without a settings file keeps
// none, and a damaged settings file is left as it is.
func TestRecentCourses(t *testing.T) {
	ctx := context.Background()
	settings := filepath.Join(t.TempDir(), "vika", "settings.json")
	s := open(t, settings, &heard{})
	if got := s.RecentCourses(); len(got) != 0 {
		t.Fatalf("recent courses of a new settings file: %+v", got)
	}
	if _, err := s.Ingest(ctx, writePDF(t, "sat.pdf", satText), nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.vika"), filepath.Join(dir, "b.vika")
	for _, p := range []string{a, b, a} {
		if _, err := s.SaveCourse(ctx, p, false); err != nil {
			t.Fatal(err)
		}
	}
	names := func() []string {
		var out []string
		for _, c := range s.RecentCourses() {
			out = append(out, fmt.Sprintf("%s %s %v", c.Name, c.Path, c.Missing))
		}
		return out
	}
	want := []string{"a.vika " + a + " false", "b.vika " + b + " false"}
	if got := names(); !slices.Equal(got, want) {
		t.Fatalf("recent: %q, want %q", got, want)
	}
	data, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil || len(fields) != 1 || fields[recentKey] == nil {
		t.Errorf("the settings file holds more than the recent courses: %s (%v)", data, err)
	}
	if st, err := LoadSettings(settings); err != nil || st != DefaultSettings() {
		t.Errorf("settings read back: %+v, %v", st, err)
	}

	st := DefaultSettings()
	st.K = 12
	if err := s.SetSettings(ctx, st); err != nil {
		t.Fatal(err)
	}
	if got := names(); !slices.Equal(got, want) {
		t.Errorf("recent after saving the settings: %q, want %q", got, want)
	}
	if got, err := LoadSettings(settings); err != nil || got.K != 12 {
		t.Errorf("settings read back: %+v, %v", got, err)
	}

	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	if got := s.RecentCourses(); len(got) != 2 || got[0].Missing || !got[1].Missing {
		t.Errorf("b.vika removed: %+v", got)
	}

	// A course opened goes first too.
	if _, err := open(t, settings, &heard{}).OpenCourse(ctx, a); err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(dir, "c.vika")
	if _, err := s.SaveCourse(ctx, c, false); err != nil {
		t.Fatal(err)
	}
	reopened := open(t, settings, &heard{})
	if _, err := reopened.OpenCourse(ctx, a); err != nil {
		t.Fatal(err)
	}
	if got := reopened.RecentCourses(); len(got) != 3 || got[0].Path != a || got[1].Path != c || got[2].Path != b {
		t.Errorf("after opening a.vika: %+v", got)
	}

	// No settings file: none kept.
	none := open(t, "", &heard{})
	if _, err := none.OpenCourse(ctx, a); err != nil {
		t.Fatal(err)
	}
	if got := none.RecentCourses(); len(got) != 0 {
		t.Errorf("recent courses without a settings file: %+v", got)
	}

	// A damaged settings file stays as it was.
	damaged := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(damaged, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, damaged, &heard{}).OpenCourse(ctx, a); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(damaged); string(data) != "{not json" {
		t.Errorf("a damaged settings file was rewritten: %s", data)
	}
}
