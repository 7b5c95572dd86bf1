package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/testpdf"
)

// TestCourseSaveInfoOpen: vika course save, info and open on two PDFs;
// a course whose PDF was changed is refused with the reason.
func TestCourseSaveInfoOpen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var pdfs []string
	for name, text := range map[string]string{"a.pdf": "Sampling distributions of an estimator.", "b.pdf": "Channel capacity of a noisy line."} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, testpdf.Text(text), 0o644); err != nil {
			t.Fatal(err)
		}
		pdfs = append(pdfs, p)
	}
	path := filepath.Join(dir, "stats.vika")
	run := func(want int, args ...string) courseReport {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := Run(ctx, args, &out, &errOut); code != want {
			t.Fatalf("%v: exit %d, want %d: %s%s", args, code, want, out.String(), errOut.String())
		}
		var rep courseReport
		if want == 0 {
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatalf("%v: %v: %s", args, err, out.String())
			}
		} else {
			rep.File = errOut.String()
		}
		return rep
	}
	saved := run(0, append([]string{"course", "save", "--json", path}, pdfs...)...)
	if len(saved.Documents) != 2 || saved.Bytes == 0 {
		t.Fatalf("save: %+v", saved)
	}
	info := run(0, "course", "info", "--json", path)
	if len(info.Documents) != 2 || !info.Documents[0].Setup || !info.Documents[0].Vectors || info.Documents[0].Chunks == 0 {
		t.Errorf("info: %+v", info)
	}
	opened := run(0, "course", "open", "--json", path)
	if len(opened.Documents) != 2 || opened.Documents[0].DocID != saved.Documents[0].DocID {
		t.Errorf("open: %+v", opened)
	}

	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE documents SET pdf = CAST(pdf || CAST('x' AS BLOB) AS BLOB) WHERE seq = 1`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	refused := run(1, "course", "open", path)
	if !strings.Contains(refused.File, "does not match its fingerprint") {
		t.Errorf("tampered: %s", refused.File)
	}
}
