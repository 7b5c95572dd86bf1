package course

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"vika/backend/atomicfile"
	"vika/backend/dbfile"
)

// ApplicationID is the SQLite header's application id of a course file
// (offset 68, big-endian: "VIKA"), which the desktop's file-type magic
// (packaging/vika-mime.xml) matches; Open does not rely on it.
const ApplicationID = 0x56494B41

// schemaV1 is the layout of version 1; version 2 added the reviews.
const schemaV1 = `
CREATE TABLE about (k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE documents (
	seq       INTEGER PRIMARY KEY, -- order in the library
	file      TEXT NOT NULL,       -- original name
	sha256    TEXT NOT NULL,       -- of pdf
	pdf       BLOB NOT NULL,
	setup     TEXT NOT NULL,
	processed BLOB,
	models    TEXT NOT NULL,
	vectors   BLOB,
	sum       TEXT NOT NULL        -- SHA-256 of every other column (sumOf)
);
CREATE TABLE conversation (id INTEGER PRIMARY KEY CHECK (id = 1), data BLOB NOT NULL);
`

// schemaV2 is the layout of version 2: the flashcards' reviews added.
const schemaV2 = schemaV1 + `CREATE TABLE reviews (id INTEGER PRIMARY KEY CHECK (id = 1), data BLOB NOT NULL);
`

// schema is the layout Save writes (Version): the student's notes added.
const schema = schemaV2 + `CREATE TABLE notes (id INTEGER PRIMARY KEY CHECK (id = 1), data BLOB NOT NULL);
`

// schemaOf is the layout of a version this Vika reads.
func schemaOf(version int) string {
	switch version {
	case 1:
		return schemaV1
	case 2:
		return schemaV2
	}
	return schema
}

// sumOf is the checksum of a document row.
func sumOf(d Document) string {
	h := sha256.New()
	for _, b := range [][]byte{[]byte(d.File), []byte(d.SHA256), d.PDF, []byte(d.Setup), d.Processed, []byte(d.Models), d.Vectors} {
		fmt.Fprintf(h, "%d:", len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Save writes c to path (0600), replacing any file there only once the
// new one is complete and on disk.
func Save(ctx context.Context, path string, c Course) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".vika-course-*.tmp")
	if err != nil {
		return fmt.Errorf("save the course: %w", err)
	}
	name := tmp.Name()
	tmp.Close()
	defer func() {
		if err != nil {
			os.Remove(name)
		}
	}()
	if err := os.Chmod(name, 0o600); err != nil {
		return fmt.Errorf("save the course: %w", err)
	}
	if err := write(ctx, name, c); err != nil {
		return fmt.Errorf("save the course: %w", err)
	}
	if err := syncFile(name); err != nil {
		return fmt.Errorf("save the course: %w", err)
	}
	if err := checkWritten(ctx, name, len(c.Documents)); err != nil {
		return fmt.Errorf("save the course: %w", err)
	}
	if err := atomicfile.Rename(name, path); err != nil {
		return fmt.Errorf("save the course: %w", err)
	}
	return nil
}

func write(ctx context.Context, name string, c Course) error {
	db, err := sql.Open("sqlite", dbfile.URI(name, "_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)"))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", ApplicationID)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO about (k, v) VALUES ('format', ?), ('version', ?)`, Format, strconv.Itoa(Version)); err != nil {
		return err
	}
	for i, d := range c.Documents {
		if _, err := tx.ExecContext(ctx, `INSERT INTO documents (seq, file, sha256, pdf, setup, processed, models, vectors, sum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			i+1, d.File, d.SHA256, d.PDF, d.Setup, d.Processed, d.Models, d.Vectors, sumOf(d)); err != nil {
			return fmt.Errorf("%s: %w", d.File, err)
		}
	}
	if c.Conversation != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO conversation (id, data) VALUES (1, ?)`, c.Conversation); err != nil {
			return err
		}
	}
	if c.Reviews != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO reviews (id, data) VALUES (1, ?)`, c.Reviews); err != nil {
			return err
		}
	}
	if c.Notes != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO notes (id, data) VALUES (1, ?)`, c.Notes); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return db.Close()
}

// checkWritten reads the file just written back as Open would, so that a
// save that went wrong never replaces the course it was to replace.
func checkWritten(ctx context.Context, name string, docs int) error {
	lim := DefaultLimits
	lim.MaxTotal = 1<<63 - 1 // the file is ours: the sizes were the session's
	lim.MaxDocuments = max(lim.MaxDocuments, docs)
	f, err := Open(ctx, name, lim)
	if err != nil {
		return err
	}
	defer f.Close()
	if f.Len() != docs {
		return fmt.Errorf("%w: %d of %d PDFs written", ErrDamaged, f.Len(), docs)
	}
	return nil
}

func syncFile(name string) error {
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
