// Package coursetest makes hostile course files for tests: each one is an
// honest course file (course.Save) edited as an attacker would, one class
// of attack per file.
package coursetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"vika/backend/course"
)

// Crafted is one hostile course file.
type Crafted struct {
	Name string
	Path string
	// Want is the error the course package refuses it with; nil when the
	// file passes its checks and what it holds must be bounded by its
	// consumer (a JSON bomb, say).
	Want error
}

// Doc is a course document of pdf whose processed data was made with
// setup.
func Doc(name string, pdf []byte, setup string, processed []byte) course.Document {
	sum := sha256.Sum256(pdf)
	return course.Document{File: name, PDF: pdf, SHA256: hex.EncodeToString(sum[:]), Setup: setup, Processed: processed, Models: "m"}
}

// Edit runs stmt on the course file at path, opened for writing.
func Edit(t testing.TB, path, stmt string, args ...any) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(stmt, args...); err != nil {
		t.Fatalf("%s: %v", stmt[:min(len(stmt), 60)], err)
	}
}

// save writes c to dir/name.
func save(t testing.TB, dir, name string, c course.Course) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := course.Save(context.Background(), p, c); err != nil {
		t.Fatal(err)
	}
	return p
}

// Files makes the hostile course files in dir around pdf (a real PDF's
// bytes); setup is the fingerprint of the pipeline that will open them
// (engine.Setup), so that their processed data is read rather than
// ignored.
func Files(t testing.TB, dir string, pdf []byte, setup string) []Crafted {
	t.Helper()
	honest := course.Course{Documents: []course.Document{Doc("lecture.pdf", pdf, setup, nil)}}
	var out []Crafted

	// A generated column: every read of processed computes a 300 MB
	// string from a file of a few KB (676 MiB held on main at this one
	// level of nesting, 6.2 GB at thirty).
	p := save(t, dir, "generated-column.vika", honest)
	expr := "replace(hex(zeroblob(150000000)), '0', '1')"
	Edit(t, p, `CREATE TABLE d2 (seq INTEGER PRIMARY KEY, file TEXT NOT NULL, sha256 TEXT NOT NULL, pdf BLOB NOT NULL, setup TEXT NOT NULL,
		processed BLOB GENERATED ALWAYS AS (`+expr+`) VIRTUAL, models TEXT NOT NULL, vectors BLOB, sum TEXT NOT NULL);
		INSERT INTO d2 (seq, file, sha256, pdf, setup, models, vectors, sum) SELECT seq, file, sha256, pdf, setup, models, vectors, sum FROM documents;
		DROP TABLE documents; ALTER TABLE d2 RENAME TO documents`)
	out = append(out, Crafted{"generated-column", p, course.ErrNotCourse})

	// A virtual table behind a comment (a text-prefix test passed it),
	// whose rows come from a view of 150 MB zeroblobs.
	p = save(t, dir, "virtual-comment.vika", honest)
	Edit(t, p, `DROP TABLE conversation;
		CREATE VIEW v AS SELECT 1 AS rowid, 1 AS id, zeroblob(150000000) AS data;
		CREATE /* x */ VIRTUAL TABLE conversation USING fts5(id, data, content='v')`)
	out = append(out, Crafted{"virtual-comment", p, course.ErrNotCourse})

	// A view named documents that never ends.
	p = save(t, dir, "endless-view.vika", honest)
	Edit(t, p, `ALTER TABLE documents RENAME TO kept;
		CREATE VIEW documents AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
		SELECT n AS seq, file, sha256, pdf, setup, processed, models, vectors, sum FROM r, kept`)
	out = append(out, Crafted{"endless-view", p, course.ErrNotCourse})

	// A trigger and a table Save never writes.
	p = save(t, dir, "extra-objects.vika", honest)
	Edit(t, p, `CREATE TABLE extra (x BLOB); CREATE TRIGGER t AFTER INSERT ON extra BEGIN SELECT 1; END`)
	out = append(out, Crafted{"extra-objects", p, course.ErrNotCourse})

	// A trigger that takes the documents table's name (an index of that
	// name, written into the schema, could answer the size checks from
	// stale small values while the table holds large ones).
	p = save(t, dir, "same-name-trigger.vika", honest)
	Edit(t, p, `CREATE TRIGGER documents AFTER INSERT ON about BEGIN SELECT 1; END`)
	out = append(out, Crafted{"same-name-trigger", p, course.ErrNotCourse})

	// Processed data stored as TEXT of multi-byte characters: length()
	// counts characters, so 2.4 times the byte limit passed it.
	p = save(t, dir, "text-values.vika", course.Course{Documents: []course.Document{Doc("lecture.pdf", pdf, setup, []byte(strings.Repeat("€", 1000)))}})
	Edit(t, p, `UPDATE documents SET processed = CAST(processed AS TEXT)`)
	out = append(out, Crafted{"text-values", p, course.ErrDamaged})

	// A conversation of 2.9 MiB of empty turns: 1.8 GB once decoded whole
	// on main (no setup needed, no PDF).
	bomb := "[" + strings.Repeat("{},", 1_000_000) + "{}]"
	p = save(t, dir, "conversation-bomb.vika", course.Course{Conversation: []byte(bomb)})
	out = append(out, Crafted{"conversation-bomb", p, nil})

	// Processed data of 14 MiB of empty pages, with the setup that makes
	// it read: 2.7 GB once decoded whole on main.
	pages := `{"doc":{},"pages":[` + strings.Repeat("{},", 5_000_000) + `{}]}`
	p = save(t, dir, "processed-bomb.vika", course.Course{Documents: []course.Document{Doc("lecture.pdf", pdf, setup, []byte(pages))}})
	out = append(out, Crafted{"processed-bomb", p, nil})

	// Reviews whose log is absurd: 3 million empty rows in 9 MiB, within
	// the file's byte limit, about 2.4 GB once decoded whole.
	reviews := `{"version":1,"cards":[],"log":[` + strings.Repeat("{},", 3_000_000) + `{}]}`
	p = save(t, dir, "reviews-bomb.vika", course.Course{Documents: honest.Documents, Reviews: []byte(reviews)})
	out = append(out, Crafted{"reviews-bomb", p, nil})

	// Notes whose list is absurd: 3 million empty notes in 9 MiB, within
	// the file's byte limit (package notes refuses more than its 5,000).
	notes := `{"version":1,"notes":[` + strings.Repeat("{},", 3_000_000) + `{}]}`
	p = save(t, dir, "notes-bomb.vika", course.Course{Documents: honest.Documents, Notes: []byte(notes)})
	out = append(out, Crafted{"notes-bomb", p, nil})

	// A FIFO named like a course: opening it waits for a writer for ever.
	p = filepath.Join(dir, "fifo.vika")
	if err := mkfifo(p); err == nil {
		out = append(out, Crafted{"fifo", p, course.ErrNotCourse})
	}

	// A PDF whose bytes were changed after the course was saved.
	p = save(t, dir, "tampered.vika", honest)
	Edit(t, p, `UPDATE documents SET pdf = ?`, bytes.ToUpper(pdf))
	out = append(out, Crafted{"tampered", p, course.ErrTampered})
	return out
}
