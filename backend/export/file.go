package export

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile writes data to path atomically: to a temporary file beside it,
// synced, then renamed over path, so that a full disk or a crash leaves the
// old file whole (os.WriteFile truncates it first). The file gets perm, or
// keeps the mode of the file it replaces.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	if fi, err := os.Stat(path); err == nil {
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
	return os.Rename(tmp.Name(), path)
}
