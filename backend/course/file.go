package course

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"vika/backend/atomicfile"
	"vika/backend/dbfile"
)

// ApplicationID is the SQLite header's application id of a course file
// (offset 68, big-endian: "VIKA"), which the desktop's file-type magic
// (packaging/vika-mime.xml) matches; Open does not rely on it.
const ApplicationID = 0x56494B41

const schema = `
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
	db, err := openChecked(ctx, name, lim)
	if err != nil {
		return err
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM documents`).Scan(&n); err != nil || n != docs {
		return fmt.Errorf("%w: %d of %d PDFs written (%v)", ErrDamaged, n, docs, errOrNil(err))
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

// sqliteHeader starts every SQLite database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// Open reads and checks the course file at path within lim.
func Open(ctx context.Context, path string, lim Limits) (Course, error) {
	db, err := openChecked(ctx, path, lim)
	if err != nil {
		return Course{}, err
	}
	defer db.Close()
	var c Course
	if c.Documents, err = readDocuments(ctx, db, lim); err != nil {
		return Course{}, err
	}
	if c.Conversation, err = readConversation(ctx, db, lim); err != nil {
		return Course{}, err
	}
	return c, nil
}

// openChecked opens path read-only once its size, header, integrity and
// format are checked.
func openChecked(ctx context.Context, path string, lim Limits) (*sql.DB, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open the course: %w", err)
	}
	fi, err := f.Stat()
	if err == nil && fi.Size() > lim.MaxTotal {
		err = fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, fi.Size(), lim.MaxTotal)
	}
	head := make([]byte, len(sqliteHeader))
	if err == nil {
		if _, rerr := io.ReadFull(f, head); rerr != nil || !bytes.Equal(head, sqliteHeader) {
			err = fmt.Errorf("%w: %s is not a database", ErrNotCourse, filepath.Base(path))
		}
	}
	f.Close()
	if err != nil {
		return nil, err
	}
	// immutable: no lock, no journal, nothing written beside it; the
	// schema is not trusted to run functions.
	db, err := sql.Open("sqlite", dbfile.URI(path, "mode=ro&immutable=1&_pragma=trusted_schema(0)"))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	if err := checkFormat(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func checkFormat(ctx context.Context, db *sql.DB) error {
	var ok string
	if err := db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&ok); err != nil || ok != "ok" {
		return fmt.Errorf("%w: integrity check: %s%v", ErrDamaged, ok, errOrNil(err))
	}
	if err := checkSchema(ctx, db); err != nil {
		return err
	}
	about := map[string]string{}
	rows, err := db.QueryContext(ctx, `SELECT k, v FROM about WHERE k IN ('format', 'version')`)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotCourse, err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return fmt.Errorf("%w: %v", ErrDamaged, err)
		}
		about[k] = v
	}
	if about["format"] != Format {
		return fmt.Errorf("%w: format %q", ErrNotCourse, about["format"])
	}
	v, err := strconv.Atoi(about["version"])
	switch {
	case err != nil || v < 1:
		return fmt.Errorf("%w: version %q", ErrDamaged, about["version"])
	case v > Version:
		return fmt.Errorf("%w: version %d, this Vika reads up to %d", ErrVersion, v, Version)
	}
	return nil
}

// checkSchema refuses a file whose about, documents or conversation is
// not a plain table: a view or a virtual table of that name is a query run
// at every read, whose rows need not be in the file (a recursive view never
// ends; zeroblob makes gigabytes of a few bytes), so no size check would
// bound it. Views, triggers and tables of other names are never read
// (the file is opened read-only), so they are left alone.
func checkSchema(ctx context.Context, db *sql.DB) error {
	for _, name := range []string{"about", "documents", "conversation"} {
		var typ, def string
		err := db.QueryRowContext(ctx, `SELECT type, coalesce(sql, '') FROM sqlite_schema WHERE name = ?`, name).Scan(&typ, &def)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("%w: no %s table", ErrNotCourse, name)
		case err != nil:
			return fmt.Errorf("%w: %v", ErrDamaged, err)
		case isVirtual(def):
			return fmt.Errorf("%w: its %s table is a virtual table", ErrNotCourse, name)
		case typ != "table":
			return fmt.Errorf("%w: its %s table is a %s", ErrNotCourse, name, typ)
		}
	}
	return nil
}

// isVirtual reports whether def, a table's CREATE statement, makes a
// virtual table (whatever its spacing and case).
func isVirtual(def string) bool {
	head := strings.Join(strings.Fields(def[:min(len(def), 100)]), " ")
	return strings.HasPrefix(strings.ToUpper(head), "CREATE VIRTUAL TABLE")
}

func errOrNil(err error) any {
	if err == nil {
		return ""
	}
	return err
}

// readDocuments reads the documents after checking their count and
// sizes, and checks each row's checksum and PDF hash.
func readDocuments(ctx context.Context, db *sql.DB, lim Limits) ([]Document, error) {
	var n int
	var maxPDF, maxData sql.NullInt64
	err := db.QueryRowContext(ctx, `SELECT count(*), max(length(pdf)), max(max(coalesce(length(processed), 0), coalesce(length(vectors), 0))) FROM documents`).Scan(&n, &maxPDF, &maxData)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	case n > lim.MaxDocuments:
		return nil, fmt.Errorf("%w: %d PDFs, at most %d", ErrTooLarge, n, lim.MaxDocuments)
	case maxPDF.Int64 > lim.MaxPDFBytes:
		return nil, fmt.Errorf("%w: a PDF of %d bytes, at most %d", ErrTooLarge, maxPDF.Int64, lim.MaxPDFBytes)
	case maxData.Int64 > lim.MaxDataBytes:
		return nil, fmt.Errorf("%w: processed data of %d bytes, at most %d", ErrTooLarge, maxData.Int64, lim.MaxDataBytes)
	}
	rows, err := db.QueryContext(ctx, `SELECT file, sha256, pdf, setup, processed, models, vectors, sum FROM documents ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	defer rows.Close()
	var out []Document
	for rows.Next() {
		var d Document
		var sum string
		if err := rows.Scan(&d.File, &d.SHA256, &d.PDF, &d.Setup, &d.Processed, &d.Models, &d.Vectors, &sum); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
		}
		if got := sha256.Sum256(d.PDF); hex.EncodeToString(got[:]) != d.SHA256 {
			return nil, fmt.Errorf("%w: %s", ErrTampered, d.File)
		}
		if sumOf(d) != sum {
			return nil, fmt.Errorf("%w: the data of %s does not match its checksum", ErrDamaged, d.File)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	return out, nil
}

func readConversation(ctx context.Context, db *sql.DB, lim Limits) ([]byte, error) {
	var size sql.NullInt64
	err := db.QueryRowContext(ctx, `SELECT length(data) FROM conversation WHERE id = 1`).Scan(&size)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	case size.Int64 > lim.MaxDataBytes:
		return nil, fmt.Errorf("%w: a conversation of %d bytes", ErrTooLarge, size.Int64)
	}
	var data []byte
	if err := db.QueryRowContext(ctx, `SELECT data FROM conversation WHERE id = 1`).Scan(&data); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	return data, nil
}
