package sandbox

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"vika/backend/testpdf"
)

var writeGenerators = flag.String("write-generators", "", "write the amplification files to this directory (for `vika ingest --json` runs by hand)")

// TestWriteGenerators writes the amplification files of SECURITY.md's
// measurements: go test -tags webkit2_41 -run TestWriteGenerators
// ./backend/sandbox -write-generators DIR. Without the flag it checks that
// each stays small (the point of an amplification).
func TestWriteGenerators(t *testing.T) {
	scan := sharedScan(t, 2000)
	files := map[string][]byte{
		"shared-text.pdf":    testpdf.SharedText(2000, 1_000_000),
		"shared-figures.pdf": testpdf.SharedFigures(100, 24),
		"shared-scan.pdf":    scan,
		"fanout.pdf":         testpdf.FanOut(10, 12), // for scripts/window/screenshots-failed-page.sh
	}
	for name, data := range files {
		if len(data) > 4<<20 {
			t.Errorf("%s is %d bytes, want a small file", name, len(data))
		}
		t.Logf("%s: %d bytes", name, len(data))
		if *writeGenerators == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(*writeGenerators, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
