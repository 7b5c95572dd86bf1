// Package kept is the one encoding of what Vika keeps of a processed PDF
// outside a session: the processed-document cache's entries (package
// cache), a course file's processed data, vectors and model outputs
// (package course), and the page evaluation's copies of its documents
// (vika eval pages). It is JSON: a course file comes from someone else
// and is read within bounds counted before anything is decoded (package
// jsonbound); the cache and the evaluation's copies, written by this
// machine, are read with the same decoder and Trusted's wider bounds.
package kept

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"vika/backend/atomicfile"
	"vika/backend/jsonbound"
)

// Trusted bounds data this machine wrote (the cache, checked by its
// checksums; the evaluation's copies): wide enough for any document the
// ingest's budgets allow, a bound still against a file damaged into
// something else.
var Trusted = jsonbound.Limits{MaxValues: 1 << 30, MaxContainers: 1 << 26, MaxArray: 1 << 26, MaxDepth: 32}

// Marshal encodes v.
func Marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode kept data: %w", err)
	}
	return b, nil
}

// Unmarshal decodes data into v (a pointer) once it is checked against
// lim.
func Unmarshal(data []byte, v any, lim jsonbound.Limits) error {
	return jsonbound.Unmarshal(data, v, lim)
}

// WriteFile encodes v into the file at path (0600), replacing any only
// once it is written whole; its directory is made (0700) when missing.
func WriteFile(path string, v any) error {
	b, err := Marshal(v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, b, 0o600)
}

// ReadFile decodes the file at path, written by WriteFile, into v within
// Trusted's bounds.
func ReadFile(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return Unmarshal(b, v, Trusted)
}
