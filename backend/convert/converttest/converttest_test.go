package converttest

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"
)

// TestZipBomb: the bomb is a valid ZIP whose document part inflates to
// what it says, with its checksum right (a reader that checks it reads
// all of it).
func TestZipBomb(t *testing.T) {
	b := ZipBomb(64 << 20)
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range z.File {
		if f.Name != "word/document.xml" {
			continue
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, r)
		if err != nil || uint64(n) != f.UncompressedSize64 || n < 64<<20-5<<20 {
			t.Fatalf("inflated %d bytes of %d: %v", n, f.UncompressedSize64, err)
		}
		t.Logf("%d bytes inflate to %d", len(b), n)
		return
	}
	t.Fatal("no word/document.xml")
}
