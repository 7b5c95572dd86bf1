package models

import (
	"errors"
	"fmt"
	"os"
	"path"

	"vika/backend/assets"
)

// Verify checks that every file of m is installed and matches its pin, and
// returns their paths by registry path. A file is looked for under root
// (with the registry's pinned size and sha256, or those of the same file
// as the box ships it: package assets' manifest, assets.ForPath), then in
// the install dirs of the box (assets.EntryCandidates: /usr/lib/vika,
// beside vika.exe). Errors wrap ErrNotInstalled, ErrChecksum or
// ErrUnverified (an entry without pins) and say what to run.
func Verify(root string, m Model) (map[string]string, error) {
	if err := checkPinned(m); err != nil {
		return nil, err
	}
	paths := make(map[string]string, len(m.Files))
	for _, f := range m.Files {
		path, err := verifyFile(root, m, f)
		if err != nil {
			return nil, err
		}
		paths[f.Path] = path
	}
	return paths, nil
}

// pin is a size and sha256 a file may have.
type pin struct {
	size   int64
	sha256 string
}

// verifyFile is Verify for one file: the first place where it matches a
// pin, else the problem found at root.
func verifyFile(root string, m Model, f File) (string, error) {
	first := m.Path(root, f)
	places := []string{first}
	pins := []pin{{f.Size, f.SHA256}}
	if e, ok := assets.ForPath("models/" + m.Name + "/" + f.Path); ok {
		pins = append(pins, pin{e.Size, e.SHA256})
		places = append(places, assets.EntryCandidates(e)[1:]...)
	}
	var atRoot error
	for i, path := range places {
		err := matchPins(path, pins)
		if err == nil {
			return path, nil
		}
		if i == 0 {
			atRoot = err
		}
	}
	switch {
	case errors.Is(atRoot, ErrNotInstalled):
		return "", problem(ErrNotInstalled, "%s is not installed (%s missing): run `vika models download %s`", m.Name, f.Path, m.Name)
	case errors.Is(atRoot, ErrSize):
		return "", problem(ErrSize, "%s: %s is corrupt (%v): run `vika models download %s`", m.Name, f.Path, atRoot, m.Name)
	case errors.Is(atRoot, ErrChecksum):
		return "", problem(ErrChecksum, "%s: %s is corrupt (%v): run `vika models download %s`", m.Name, f.Path, atRoot, m.Name)
	}
	return "", atRoot
}

// matchPins checks that path is a regular file with one of pins.
func matchPins(path string, pins []pin) error {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return ErrNotInstalled
	}
	var sized []pin
	for _, p := range pins {
		if p.size == info.Size() {
			sized = append(sized, p)
		}
	}
	if len(sized) == 0 {
		return fmt.Errorf("%w: %d bytes, want %d", ErrSize, info.Size(), pins[0].size)
	}
	sum, err := assets.FileSHA256(path, info)
	if err != nil {
		return err
	}
	for _, p := range sized {
		if sum == p.sha256 {
			return nil
		}
	}
	return fmt.Errorf("%w: sha256 %s, want %s", ErrChecksum, sum, sized[0].sha256)
}

// Installed reports whether m verifies under root.
func Installed(root string, m Model) bool {
	_, err := Verify(root, m)
	return err == nil
}

// userError is a message safe to show that errors.Is matches with a sentinel.
type userError struct {
	msg  string
	kind error
}

func (e *userError) Error() string { return e.msg }
func (e *userError) Unwrap() error { return e.kind }

func problem(kind error, format string, args ...any) error {
	return &userError{fmt.Sprintf(format, args...), kind}
}

// Locate verifies m under root (see Verify) and returns the paths of its
// ONNX model and its tokenizer.json.
func Locate(root string, m Model) (model, tokenizer string, err error) {
	paths, err := Verify(root, m)
	if err != nil {
		return "", "", err
	}
	for rel, p := range paths {
		switch {
		case isONNX(rel):
			model = p
		case path.Base(rel) == "tokenizer.json":
			tokenizer = p
		}
	}
	if model == "" || tokenizer == "" {
		return "", "", fmt.Errorf("%s: the registry lists no .onnx file or no tokenizer.json", m.Name)
	}
	return model, tokenizer, nil
}
