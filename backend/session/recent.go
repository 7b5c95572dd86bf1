package session

import (
	"encoding/json"
	"errors"
	"io/fs"
	"log"
	"os"
	"path/filepath"

	"vika/backend/atomicfile"
)

// The recent course files: those saved or opened, most recent first, kept
// in the settings file under recentKey beside the settings (never in
// Settings, which the window sends back whole). A session without a
// settings file (the command line, NoSettings) keeps none; a settings
// file that cannot be read is left as it is.

// MaxRecentCourses is how many recent course files are kept.
const MaxRecentCourses = 8

// recentKey is the settings file's field of the recent course files.
const recentKey = "recent_courses"

// RecentCourse is a course file saved or opened before.
type RecentCourse struct {
	Path string `json:"path"`
	Name string `json:"name"` // its base name
	// Missing is set when no file is at Path any more (moved, deleted, on
	// a disk not mounted): shown, not offered.
	Missing bool `json:"missing"`
}

// RecentCourses lists the course files saved or opened, most recent first
// (none without a settings file).
func (s *Session) RecentCourses() []RecentCourse {
	out := []RecentCourse{}
	if s.path == "" {
		return out
	}
	s.mu.Lock()
	paths, err := readRecent(s.path)
	s.mu.Unlock()
	if err != nil {
		return out
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		out = append(out, RecentCourse{Path: p, Name: filepath.Base(p), Missing: err != nil || !fi.Mode().IsRegular()})
	}
	return out
}

// addRecent puts path first among the recent course files (once, at most
// MaxRecentCourses kept) in the settings file, when there is one that can
// be read. A file that cannot be written is logged: the course was saved
// or opened all the same.
func (s *Session) addRecent(path string) {
	if s.path == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fields, err := readFields(s.path)
	if err != nil {
		return // damaged or unreadable: the student's file stays as it is
	}
	paths, _ := recentOf(fields)
	b, err := json.Marshal(pushRecent(paths, absPath(path)))
	if err != nil {
		return
	}
	fields[recentKey] = b
	if err := writeFields(s.path, fields); err != nil {
		log.Printf("session: the recent courses: %v", err)
	}
}

// pushRecent returns paths with path first, once, at most
// MaxRecentCourses long.
func pushRecent(paths []string, path string) []string {
	out := []string{path}
	for _, p := range paths {
		if len(out) == MaxRecentCourses {
			break
		}
		if filepath.Clean(p) != filepath.Clean(path) {
			out = append(out, p)
		}
	}
	return out
}

// readRecent reads the recent course files of the settings file at path.
func readRecent(path string) ([]string, error) {
	fields, err := readFields(path)
	if err != nil {
		return nil, err
	}
	return recentOf(fields)
}

// recentOf decodes the recent course files of the settings file's fields:
// absolute paths, at most MaxRecentCourses (a file edited by hand may
// hold anything).
func recentOf(fields map[string]json.RawMessage) ([]string, error) {
	raw, ok := fields[recentKey]
	if !ok {
		return nil, nil
	}
	var paths []string
	if err := json.Unmarshal(raw, &paths); err != nil {
		return nil, err
	}
	var out []string
	for _, p := range paths {
		if filepath.IsAbs(p) && len(out) < MaxRecentCourses {
			out = append(out, p)
		}
	}
	return out, nil
}

// readFields reads the settings file at path as its fields; a missing
// file has none.
func readFields(path string) (map[string]json.RawMessage, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]json.RawMessage{}, nil
	}
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, err
	}
	if fields == nil {
		fields = map[string]json.RawMessage{}
	}
	return fields, nil
}

// writeFields writes the settings file's fields to path as SaveSettings
// writes it (its directory created, replaced atomically). Only the fields
// given are written: a file that held no settings keeps none, and the
// defaults apply to it as before.
func writeFields(path string, fields map[string]json.RawMessage) error {
	data, err := json.MarshalIndent(fields, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(data, '\n'), 0o600)
}
