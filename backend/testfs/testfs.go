// Package testfs holds the file-system helpers that tests of several
// packages share: listing a directory tree to prove nothing was written,
// and flipping one byte of a file to stand for on-disk corruption.
// Only tests import it.
package testfs

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Tree is every file and folder under dir with its mode, modification time
// and size, keyed by path (nil when dir does not exist): two calls compare
// equal when nothing under dir was created, removed or written.
func Tree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[path] = fmt.Sprint(fi.Mode(), " ", fi.ModTime(), " ", fi.Size())
		return nil
	})
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// FlipByte flips the lowest bit of one byte in the middle of the first
// occurrence of marker in the file at path, failing the test when the
// marker is not there (a flip that lands nowhere proves nothing).
func FlipByte(t testing.TB, path string, marker []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, marker)
	if i < 0 {
		t.Fatalf("%q not in %s", marker, path)
	}
	data[i+len(marker)/2] ^= 0x01
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
