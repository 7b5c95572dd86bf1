// Package atomicfile replaces files whole: what the student keeps on disk
// (exports, settings, course files) is either the old file or the new one,
// never a truncated mix, whatever a full disk or a crash does mid-write.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile writes data to path atomically: to a temporary file beside it,
// synced, then renamed over path (Rename), so that a full disk or a crash
// leaves the old file whole (os.WriteFile truncates it first). The file
// gets perm, or keeps the mode of the file it replaces. A path that is not
// a regular file (a symbolic link, a directory) is refused rather than
// replaced.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	if fi, err := os.Lstat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", filepath.Base(path))
		}
		perm = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a failure; a no-op once renamed
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), perm)
	}
	if err != nil {
		return err
	}
	return Rename(tmp.Name(), path)
}

// Rename renames the complete, synced file tmp over path and syncs their
// directory, so that the rename itself survives a crash.
func Rename(tmp, path string) error {
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync() // not supported everywhere (Windows): the rename stands without it
		d.Close()
	}
	return nil
}
