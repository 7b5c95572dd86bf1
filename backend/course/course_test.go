package course

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"vika/backend/testfs"
)

func doc(name string, pdf []byte) Document {
	sum := sha256.Sum256(pdf)
	return Document{File: name, PDF: pdf, SHA256: hex.EncodeToString(sum[:]), Setup: "setup-1",
		Processed: []byte(`{"pages":"` + name + `-processed-marker"}`), Models: "m", Vectors: bytes.Repeat([]byte{1, 2, 3, 4}, 64)}
}

func sample() Course {
	return Course{Documents: []Document{
		doc("a.pdf", []byte("%PDF-1.4 the bytes of the first PDF, with a recognisable run of text")),
		doc("b.pdf", bytes.Repeat([]byte("%PDF-second "), 1000)),
	}, Conversation: []byte(`[{"question":"q"}]`), Reviews: []byte(`{"cards":[],"log":[]}`),
		Notes: []byte(`{"version":1,"notes":[]}`)}
}

func TestSaveOpenRoundTrip(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "stats"+Ext)
	want := sample()
	if err := Save(ctx, path, want); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v", fi.Mode().Perm(), err)
	}
	got, err := Read(ctx, path, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	// No conversation kept: none read back. Saving again replaces the file.
	want.Conversation = nil
	want.Documents = want.Documents[:1]
	if err := Save(ctx, path, want); err != nil {
		t.Fatal(err)
	}
	if got, err := Read(ctx, path, DefaultLimits); err != nil || got.Conversation != nil || len(got.Documents) != 1 {
		t.Errorf("second save: %d documents, conversation %q, %v", len(got.Documents), got.Conversation, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("files left beside the course: %v", entries)
	}
}

// edit opens a saved course for writing and runs stmt on it.
func edit(t *testing.T, path, stmt string, args ...any) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(stmt, args...); err != nil {
		t.Fatal(err)
	}
}

func TestOpenRefusesBadFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	saved := func(t *testing.T) string {
		p := filepath.Join(t.TempDir(), "c.vika")
		if err := Save(ctx, p, sample()); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := map[string]struct {
		make func(t *testing.T) string
		want error
	}{
		"text file": {func(t *testing.T) string {
			p := filepath.Join(dir, "notes.vika")
			os.WriteFile(p, []byte("just some notes, not a database at all"), 0o600)
			return p
		}, ErrNotCourse},
		"another database": {func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "other.vika")
			edit(t, p, `CREATE TABLE t (x); INSERT INTO t VALUES (1)`)
			return p
		}, ErrNotCourse},
		"newer version": {func(t *testing.T) string {
			p := saved(t)
			edit(t, p, `UPDATE about SET v = '99' WHERE k = 'version'`)
			return p
		}, ErrVersion},
		"PDF bytes changed, hash kept": {func(t *testing.T) string {
			p := saved(t)
			edit(t, p, `UPDATE documents SET pdf = ? WHERE seq = 1`, []byte("%PDF-1.4 something else entirely"))
			return p
		}, ErrTampered},
		"flipped byte in a PDF": {func(t *testing.T) string {
			p := saved(t)
			testfs.FlipByte(t, p, []byte("recognisable run of text"))
			return p
		}, ErrTampered},
		"flipped byte in the processed data": {func(t *testing.T) string {
			p := saved(t)
			testfs.FlipByte(t, p, []byte("a.pdf-processed-marker"))
			return p
		}, ErrDamaged},
		"truncated": {func(t *testing.T) string {
			p := saved(t)
			data, _ := os.ReadFile(p)
			os.WriteFile(p, data[:len(data)/2], 0o600)
			return p
		}, ErrDamaged},
		// A view named documents is a query run at every read: an endless
		// one, or one of zeroblobs that passes every size check.
		"documents an endless view": {func(t *testing.T) string {
			p := saved(t)
			edit(t, p, `ALTER TABLE documents RENAME TO kept;
				CREATE VIEW documents AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
				SELECT n AS seq, file, sha256, pdf, setup, processed, models, vectors, sum FROM r, kept`)
			return p
		}, ErrNotCourse},
		"documents a view of zeroblobs": {func(t *testing.T) string {
			p := saved(t)
			edit(t, p, `ALTER TABLE documents RENAME TO kept;
				CREATE VIEW documents AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3)
				SELECT n AS seq, file, sha256, zeroblob(150000000) AS pdf, setup, processed, models, vectors, sum FROM r, kept`)
			return p
		}, ErrNotCourse},
		"reviews stored as text": {func(t *testing.T) string {
			p := saved(t)
			edit(t, p, `UPDATE reviews SET data = CAST(data AS TEXT)`)
			return p
		}, ErrDamaged},
		"reviews over their size": {func(t *testing.T) string {
			p := saved(t)
			edit(t, p, `UPDATE reviews SET data = zeroblob(?)`, 1<<20+1)
			return p
		}, ErrTooLarge},
		"version 2 without its reviews table": {func(t *testing.T) string {
			p := saved(t)
			edit(t, p, `DROP TABLE notes; DROP TABLE reviews; UPDATE about SET v = '2' WHERE k = 'version'`)
			return p
		}, ErrNotCourse},
		"version 3 without its notes table": {func(t *testing.T) string {
			p := saved(t)
			edit(t, p, `DROP TABLE notes`)
			return p
		}, ErrNotCourse},
		"version 2 with a notes table": {func(t *testing.T) string {
			p := saved(t)
			edit(t, p, `UPDATE about SET v = '2' WHERE k = 'version'`)
			return p
		}, ErrNotCourse},
		"notes stored as text": {func(t *testing.T) string {
			p := saved(t)
			edit(t, p, `UPDATE notes SET data = CAST(data AS TEXT)`)
			return p
		}, ErrDamaged},
		"notes over their size": {func(t *testing.T) string {
			p := saved(t)
			edit(t, p, `UPDATE notes SET data = zeroblob(?)`, 1<<20+1)
			return p
		}, ErrTooLarge},
		"version 1 with a reviews table": {func(t *testing.T) string {
			p := saved(t)
			edit(t, p, `UPDATE about SET v = '1' WHERE k = 'version'`)
			return p
		}, ErrNotCourse},
		"too many documents": {func(t *testing.T) string {
			p := saved(t)
			for i := range 3 {
				edit(t, p, `INSERT INTO documents SELECT seq + ?, file, sha256, pdf, setup, processed, models, vectors, sum FROM documents WHERE seq = 1`, 10+i)
			}
			return p
		}, ErrTooLarge},
	}
	lim := DefaultLimits
	lim.MaxDocuments = 4
	lim.MaxReviewBytes = 1 << 20
	lim.MaxNoteBytes = 1 << 20
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := tc.make(t)
			ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			c, err := Read(ctx, p, lim)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Open = %d documents, %v; want %v", len(c.Documents), err, tc.want)
			}
			t.Logf("%v", err)
		})
	}
}

// TestReadsVersion1 opens a course file as Vika wrote it before the
// reviews (version 1: no reviews table) and finds its PDFs and
// conversation, and no reviews.
func TestReadsVersion1(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "old.vika")
	want := sample()
	if err := Save(ctx, p, want); err != nil {
		t.Fatal(err)
	}
	edit(t, p, `DROP TABLE notes; DROP TABLE reviews; UPDATE about SET v = '1' WHERE k = 'version'`)
	got, err := Read(ctx, p, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	want.Reviews, want.Notes = nil, nil
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

// TestReadsVersion2 opens a course file as Vika wrote it before the
// student's notes (version 2: reviews, no notes table) and finds its
// PDFs, conversation and reviews, and no notes.
func TestReadsVersion2(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "v2.vika")
	want := sample()
	if err := Save(ctx, p, want); err != nil {
		t.Fatal(err)
	}
	edit(t, p, `DROP TABLE notes; UPDATE about SET v = '2' WHERE k = 'version'`)
	got, err := Read(ctx, p, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	want.Notes = nil
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

// TestSaveUnderAnyFolderName saves and opens a course under folders whose
// names hold the characters a SQLite URI gives a meaning to: a "#" once
// cut the path, and the save replaced the course with an empty file.
func TestSaveUnderAnyFolderName(t *testing.T) {
	ctx := context.Background()
	for _, folder := range []string{"Cours #2", "q?x", "50% x"} {
		dir := filepath.Join(t.TempDir(), folder)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "stats"+Ext)
		if err := Save(ctx, p, sample()); err != nil {
			t.Fatalf("%s: %v", folder, err)
		}
		got, err := Read(ctx, p, DefaultLimits)
		if err != nil || len(got.Documents) != 2 {
			t.Fatalf("%s: Open = %d documents, %v", folder, len(got.Documents), err)
		}
	}
}

// TestUnknownObjectsRefused: a table, view or trigger Save never writes
// is refused (on main such files were opened, their extras ignored: the
// schema check now compares the whole schema, coursetest's files cover
// what that closes).
func TestUnknownObjectsRefused(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "c.vika")
	if err := Save(ctx, p, sample()); err != nil {
		t.Fatal(err)
	}
	edit(t, p, `CREATE TABLE from_the_future (x BLOB); INSERT INTO from_the_future VALUES (randomblob(100));
		CREATE VIEW sneaky AS SELECT * FROM documents; INSERT INTO about (k, v) VALUES ('made_by', 'a classmate')`)
	if c, err := Read(ctx, p, DefaultLimits); !errors.Is(err, ErrNotCourse) {
		t.Fatalf("Read = %d documents, %v; want ErrNotCourse", len(c.Documents), err)
	}
}

// TestHelperSaver is not a test: run by TestKillDuringSave with the
// target path in VIKA_COURSE_TEST_SAVE, it saves large courses there in a
// loop, printing "saved" after each.
func TestHelperSaver(t *testing.T) {
	path := os.Getenv("VIKA_COURSE_TEST_SAVE")
	if path == "" {
		t.Skip("helper process of TestKillDuringSave, not a test on its own")
	}
	big := sample()
	big.Documents = append(big.Documents, doc("big.pdf", bytes.Repeat([]byte("%PDF-big "), 4<<20)))
	for {
		if err := Save(context.Background(), path, big); err != nil {
			fmt.Println("save:", err)
			os.Exit(2)
		}
		fmt.Println("saved")
	}
}

// TestKillDuringSave kills a process saving over an existing course file
// at several moments: the old file always opens intact (or is the new
// one, complete).
func TestKillDuringSave(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "c.vika")
	if err := Save(ctx, path, sample()); err != nil {
		t.Fatal(err)
	}
	for round, wait := range []time.Duration{0, 10 * time.Millisecond, 50 * time.Millisecond, 200 * time.Millisecond} {
		left, _ := filepath.Glob(filepath.Join(dir, ".vika-course-*.tmp"))
		for _, m := range left { // a killed save's: the next round waits for its own
			os.Remove(m)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSaver$")
		cmd.Env = append(os.Environ(), "VIKA_COURSE_TEST_SAVE="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if !waitForTemp(dir, 30*time.Second) {
			cmd.Process.Kill()
			t.Fatal("the saver never started writing")
		}
		time.Sleep(wait) // into the write
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		c, err := Read(ctx, path, DefaultLimits)
		if err != nil {
			t.Fatalf("round %d (killed after %v): %v", round, wait, err)
		}
		left, _ = filepath.Glob(filepath.Join(dir, ".vika-course-*.tmp"))
		t.Logf("round %d: killed %v into a save (%d temporary file left), the file holds %d documents", round, wait, len(left), len(c.Documents))
	}
}

// waitForTemp waits until a save's temporary file in dir holds data.
func waitForTemp(dir string, limit time.Duration) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		matches, _ := filepath.Glob(filepath.Join(dir, ".vika-course-*.tmp"))
		for _, m := range matches {
			if fi, err := os.Stat(m); err == nil && fi.Size() > 0 {
				return true
			}
		}
	}
	return false
}
