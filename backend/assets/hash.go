package assets

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"
)

// fileKey identifies one version of a file: a rewrite changes the size or the
// modification time, which invalidates the cached hash.
type fileKey struct {
	path  string
	size  int64
	mtime time.Time
}

var (
	hashMu    sync.Mutex
	hashCache = map[fileKey]string{} // guarded by hashMu
)

// FileSHA256 returns the hex SHA-256 of path, hashing it once per process and
// version of the file (info is its Stat). Concurrent
// callers may hash the same file twice; the result is the same.
func FileSHA256(path string, info fs.FileInfo) (string, error) {
	key := fileKey{path, info.Size(), info.ModTime()}
	hashMu.Lock()
	sum, ok := hashCache[key]
	hashMu.Unlock()
	if ok {
		return sum, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	sum = hex.EncodeToString(h.Sum(nil))
	hashMu.Lock()
	hashCache[key] = sum
	hashMu.Unlock()
	return sum, nil
}
