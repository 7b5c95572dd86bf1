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

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"vika/backend/dbfile"
)

// A course file comes from someone else: Open reads it as untrusted bytes.
// SQLite is a program as much as a format (views, generated columns and
// virtual tables run queries when read), so the reader first makes sure
// that the file holds exactly the tables Save writes, column for column,
// and nothing else: every read is then a read of stored bytes, bounded by
// the size checks made before it. SQLite's own limits on the connection
// and a deadline stand behind that.

// sqliteHeader starts every SQLite database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// File is a course file opened and checked by Open. Its PDFs are read one
// at a time (Document), so that opening a course of many large PDFs holds
// one of them in memory, not all. It is not safe for concurrent use.
type File struct {
	db   *sql.DB
	conn *sql.Conn
	lim  Limits
	seqs []int64 // the documents' row keys, in library order
	// version is the file's layout version (Version, or an older one).
	version int
}

// Open opens the course file at path and checks it within lim: a regular
// file, within MaxTotal, an SQLite database whose integrity check passes,
// of this format and a version this Vika reads, holding exactly the
// schema Save writes, at most MaxDocuments PDFs, each within its sizes,
// whose bytes match their SHA-256 and whose rows match their checksums.
// A file failing any check is refused whole, with a coded error, before
// anything is taken from it. The checks run within lim.CheckTime and
// stop when ctx is cancelled.
func Open(ctx context.Context, path string, lim Limits) (_ *File, err error) {
	lim = lim.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, lim.CheckTime)
	defer cancel()
	defer func() { err = deadlineErr(ctx, err) }()
	if err := checkFile(ctx, path, lim); err != nil {
		return nil, err
	}
	// immutable: no lock, no journal, nothing written beside it; the
	// schema is not trusted to run functions; pages are checked as read.
	db, err := sql.Open("sqlite", dbfile.URI(path, "mode=ro&immutable=1&_pragma=trusted_schema(0)&_pragma=cell_size_check(1)"))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	f := &File{db: db, lim: lim}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	db.SetMaxOpenConns(1)
	if f.conn, err = db.Conn(ctx); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	if err := setLimits(f.conn, lim); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	if err := f.checkFormat(ctx); err != nil {
		return nil, err
	}
	if err := f.checkDocuments(ctx); err != nil {
		return nil, err
	}
	return f, nil
}

// Read opens the course file at path and reads it whole: every PDF is
// held in memory at once, so it is for small courses and tests; the app
// reads a course with Open, one PDF at a time.
func Read(ctx context.Context, path string, lim Limits) (Course, error) {
	f, err := Open(ctx, path, lim)
	if err != nil {
		return Course{}, err
	}
	defer f.Close()
	var c Course
	for i := range f.Len() {
		d, err := f.Document(ctx, i)
		if err != nil {
			return Course{}, err
		}
		c.Documents = append(c.Documents, d)
	}
	if c.Conversation, err = f.Conversation(ctx); err != nil {
		return Course{}, err
	}
	if c.Reviews, err = f.Reviews(ctx); err != nil {
		return Course{}, err
	}
	if c.Notes, err = f.Notes(ctx); err != nil {
		return Course{}, err
	}
	return c, nil
}

// Close releases the file.
func (f *File) Close() error {
	if f.conn != nil {
		f.conn.Close()
	}
	return f.db.Close()
}

// Len is the number of PDFs in the course.
func (f *File) Len() int { return len(f.seqs) }

// Document reads the i-th PDF of the course (0-based, library order),
// checked again as it is read (the file was opened as immutable: a file
// changed since Open is reported damaged or tampered, never trusted).
func (f *File) Document(ctx context.Context, i int) (Document, error) {
	if i < 0 || i >= len(f.seqs) {
		return Document{}, fmt.Errorf("course document %d of %d", i, len(f.seqs))
	}
	ctx, cancel := context.WithTimeout(ctx, f.lim.CheckTime)
	defer cancel()
	d, err := f.readDocument(ctx, f.seqs[i])
	return d, deadlineErr(ctx, err)
}

// Conversation reads the conversation's encoding, nil when none was kept.
func (f *File) Conversation(ctx context.Context) ([]byte, error) {
	return f.single(ctx, "conversation", f.lim.MaxConversationBytes)
}

// Reviews reads the encoding of the flashcards under review and their
// log, nil when there are none (and in a version 1 file, which has no
// place for them).
func (f *File) Reviews(ctx context.Context) ([]byte, error) {
	if f.version < 2 {
		return nil, nil
	}
	return f.single(ctx, "reviews", f.lim.MaxReviewBytes)
}

// Notes reads the encoding of the student's own highlights and notes, nil
// when there are none (and in a file older than version 3).
func (f *File) Notes(ctx context.Context) ([]byte, error) {
	if f.version < 3 {
		return nil, nil
	}
	return f.single(ctx, "notes", f.lim.MaxNoteBytes)
}

// single reads the data of the one row of table (conversation, reviews
// or notes: a name of the schema, never input), a blob of at most limit
// bytes; nil when the row is absent.
func (f *File) single(ctx context.Context, table string, limit int64) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, f.lim.CheckTime)
	defer cancel()
	var size sql.NullInt64
	var typ string
	err := f.conn.QueryRowContext(ctx, `SELECT octet_length(data), typeof(data) FROM `+table+` WHERE id = 1`).Scan(&size, &typ)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, deadlineErr(ctx, fmt.Errorf("%w: %v", ErrDamaged, err))
	case typ != "blob":
		return nil, fmt.Errorf("%w: %s of type %s", ErrDamaged, table, typ)
	case size.Int64 > limit:
		return nil, fmt.Errorf("%w: %s of %d bytes, at most %d", ErrTooLarge, table, size.Int64, limit)
	}
	var data []byte
	if err := f.conn.QueryRowContext(ctx, `SELECT data FROM `+table+` WHERE id = 1`).Scan(&data); err != nil {
		return nil, deadlineErr(ctx, fmt.Errorf("%w: %v", ErrDamaged, err))
	}
	return data, nil
}

// checkFile refuses what is not a regular file of at most lim.MaxTotal
// bytes starting with SQLite's header. A FIFO or a device named
// lecture.vika would block the first read for ever; the check itself does
// not block on one (openNoBlock), and a file system that stalls is given
// up when ctx ends.
func checkFile(ctx context.Context, path string, lim Limits) error {
	done := make(chan error, 1)
	go func() { done <- checkFileNow(path, lim) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("open the course: %s: %w", filepath.Base(path), ctx.Err())
	}
}

func checkFileNow(path string, lim Limits) error {
	f, err := openNoBlock(path)
	if err != nil {
		return fmt.Errorf("open the course: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return fmt.Errorf("open the course: %w", err)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%w: %s is not a regular file (%v)", ErrNotCourse, filepath.Base(path), fi.Mode().Type())
	case fi.Size() > lim.MaxTotal:
		return fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, fi.Size(), lim.MaxTotal)
	}
	head := make([]byte, len(sqliteHeader))
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, sqliteHeader) {
		return fmt.Errorf("%w: %s is not a database", ErrNotCourse, filepath.Base(path))
	}
	return nil
}

// openNoBlock opens path for reading without waiting for a writer (a
// FIFO) or a carrier (a device).
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|noBlock, 0)
}

// setLimits lowers SQLite's limits on conn to what reading a course needs:
// no value or row longer than the largest the limits allow, short
// statements, shallow expressions, no attached database. They bound what
// SQLite itself would build if something in the file got past the schema
// check.
func setLimits(conn *sql.Conn, lim Limits) error {
	row := min(lim.MaxPDFBytes+2*lim.MaxDataBytes+1<<20, 1<<31-1)
	for _, l := range []struct{ id, v int }{
		{sqlite3.SQLITE_LIMIT_LENGTH, int(row)},
		{sqlite3.SQLITE_LIMIT_SQL_LENGTH, 1 << 16},
		{sqlite3.SQLITE_LIMIT_COLUMN, 64},
		{sqlite3.SQLITE_LIMIT_EXPR_DEPTH, 32},
		{sqlite3.SQLITE_LIMIT_COMPOUND_SELECT, 4},
		{sqlite3.SQLITE_LIMIT_VDBE_OP, 10_000},
		{sqlite3.SQLITE_LIMIT_FUNCTION_ARG, 8},
		{sqlite3.SQLITE_LIMIT_ATTACHED, 0},
		{sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 64},
		{sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 16},
		{sqlite3.SQLITE_LIMIT_TRIGGER_DEPTH, 1},
		{sqlite3.SQLITE_LIMIT_WORKER_THREADS, 0},
	} {
		if _, err := sqlite.Limit(conn, l.id, l.v); err != nil {
			return err
		}
	}
	return nil
}

// expectedSchema is the schema Save writes, as SQLite records it: each
// object's type, name, table and CREATE statement, and each table's
// columns. It is read from a database made with schema, so that the two
// cannot drift apart.
type schemaObject struct {
	Type, Name, Table, SQL string
	Columns                []column
}

type column struct {
	Name, Type          string
	NotNull, PK, Hidden int
	Default             sql.NullString
}

func readSchema(ctx context.Context, conn *sql.Conn) ([]schemaObject, error) {
	rows, err := conn.QueryContext(ctx, `SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema ORDER BY name`)
	if err != nil {
		return nil, err
	}
	var objs []schemaObject
	for rows.Next() {
		var o schemaObject
		if err := rows.Scan(&o.Type, &o.Name, &o.Table, &o.SQL); err != nil {
			rows.Close()
			return nil, err
		}
		objs = append(objs, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(objs) > 16 {
		return objs, nil // not ours (Save writes 4): no need to read the columns of all
	}
	for i, o := range objs {
		if o.Type != "table" {
			continue
		}
		// table_xinfo lists hidden and generated columns too (hidden 2
		// and 3), which table_info leaves out.
		cols, err := conn.QueryContext(ctx, `SELECT name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(?)`, o.Name)
		if err != nil {
			return nil, err
		}
		for cols.Next() {
			var c column
			if err := cols.Scan(&c.Name, &c.Type, &c.NotNull, &c.Default, &c.PK, &c.Hidden); err != nil {
				cols.Close()
				return nil, err
			}
			objs[i].Columns = append(objs[i].Columns, c)
		}
		cols.Close()
		if err := cols.Err(); err != nil {
			return nil, err
		}
	}
	return objs, nil
}

// savedSchema returns the schema of a version (Save writes Version's),
// read back from an in-memory database made with it.
func savedSchema(ctx context.Context, version int) ([]schemaObject, error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, schemaOf(version)); err != nil {
		return nil, err
	}
	return readSchema(ctx, conn)
}

func (f *File) checkFormat(ctx context.Context) error {
	var ok string
	if err := f.conn.QueryRowContext(ctx, `PRAGMA quick_check(1)`).Scan(&ok); err != nil || ok != "ok" {
		return fmt.Errorf("%w: integrity check: %s%v", ErrDamaged, ok, errOrNil(err))
	}
	got, err := readSchema(ctx, f.conn)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	want, err := savedSchema(ctx, Version)
	if err != nil {
		return err
	}
	// The about table first, compared alone: a file of a newer version
	// may have another schema, and is reported as newer, not as foreign.
	if !hasObject(got, want, "about") {
		return fmt.Errorf("%w: no about table as Vika writes it", ErrNotCourse)
	}
	about := map[string]string{}
	rows, err := f.conn.QueryContext(ctx, `SELECT k, substr(v, 1, 64) FROM about WHERE k IN ('format', 'version')`)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			rows.Close()
			return fmt.Errorf("%w: %v", ErrDamaged, err)
		}
		about[k] = v
	}
	rows.Close()
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
	f.version = v
	if v != Version {
		if want, err = savedSchema(ctx, v); err != nil {
			return err
		}
	}
	if err := sameSchema(got, want); err != nil {
		return fmt.Errorf("%w: %v", ErrNotCourse, err)
	}
	return nil
}

// hasObject reports whether got holds want's object of that name, as it is
// in want.
func hasObject(got, want []schemaObject, name string) bool {
	g, w := find(got, name), find(want, name)
	return g != nil && w != nil && equalObject(*g, *w)
}

// sameSchema says how got differs from want, nil when it does not: the
// same objects, the same statements, the same columns (none hidden or
// generated), each once. A view, a trigger, an index or a table Save does
// not write is refused too, even one that takes a table's name (a trigger
// or an index named documents): this version of the format has none.
func sameSchema(got, want []schemaObject) error {
	for _, w := range want {
		g := find(got, w.Name)
		switch {
		case g == nil:
			return fmt.Errorf("no %s %s", w.Name, w.Type)
		case !equalObject(*g, w):
			return fmt.Errorf("its %s %s is not the one Vika writes", g.Name, g.Type)
		}
	}
	for _, g := range got {
		if find(want, g.Name) == nil {
			return fmt.Errorf("a %s %.40q that Vika does not write", g.Type, g.Name)
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("%d schema objects where Vika writes %d", len(got), len(want))
	}
	return nil
}

func find(objs []schemaObject, name string) *schemaObject {
	for i := range objs {
		if objs[i].Name == name {
			return &objs[i]
		}
	}
	return nil
}

func equalObject(a, b schemaObject) bool {
	if a.Type != b.Type || a.Name != b.Name || a.Table != b.Table || a.SQL != b.SQL || len(a.Columns) != len(b.Columns) {
		return false
	}
	for i := range a.Columns {
		if a.Columns[i] != b.Columns[i] {
			return false
		}
	}
	return true
}

// checkDocuments checks the documents' count and sizes, then reads each
// row once, one at a time, checking its PDF's hash and its checksum.
func (f *File) checkDocuments(ctx context.Context) error {
	// Types first: the sizes below are in bytes (octet_length, which
	// SQLite answers from the record's header, without reading the value),
	// and a column Save writes as a BLOB must be one.
	var badType int
	err := f.conn.QueryRowContext(ctx, `SELECT count(*) FROM documents WHERE typeof(pdf) != 'blob'
		OR typeof(processed) NOT IN ('blob', 'null') OR typeof(vectors) NOT IN ('blob', 'null')
		OR typeof(file) != 'text' OR typeof(sha256) != 'text' OR typeof(setup) != 'text' OR typeof(models) != 'text' OR typeof(sum) != 'text'`).Scan(&badType)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %v", ErrDamaged, err)
	case badType > 0:
		return fmt.Errorf("%w: a PDF's row holds values of other types than Vika writes", ErrDamaged)
	}
	var n int
	var maxPDF, maxData sql.NullInt64
	err = f.conn.QueryRowContext(ctx, `SELECT count(*), max(octet_length(pdf)), max(max(coalesce(octet_length(processed), 0), coalesce(octet_length(vectors), 0))) FROM documents`).Scan(&n, &maxPDF, &maxData)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %v", ErrDamaged, err)
	case n > f.lim.MaxDocuments:
		return fmt.Errorf("%w: %d PDFs, at most %d", ErrTooLarge, n, f.lim.MaxDocuments)
	case maxPDF.Int64 > f.lim.MaxPDFBytes:
		return fmt.Errorf("%w: a PDF of %d bytes, at most %d", ErrTooLarge, maxPDF.Int64, f.lim.MaxPDFBytes)
	case maxData.Int64 > f.lim.MaxDataBytes:
		return fmt.Errorf("%w: processed data of %d bytes, at most %d", ErrTooLarge, maxData.Int64, f.lim.MaxDataBytes)
	}
	var bad sql.NullString
	err = f.conn.QueryRowContext(ctx, `SELECT seq FROM documents WHERE octet_length(file) > ? OR octet_length(sha256) != 64 OR octet_length(setup) > ? OR octet_length(models) > ? OR octet_length(sum) != 64 LIMIT 1`,
		maxFileName, maxFingerprint, maxFingerprint).Scan(&bad)
	switch {
	case err == nil:
		return fmt.Errorf("%w: a PDF's name, hash or fingerprint is not of its size", ErrDamaged)
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	rows, err := f.conn.QueryContext(ctx, `SELECT seq FROM documents ORDER BY seq`)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	for rows.Next() {
		var seq int64
		if err := rows.Scan(&seq); err != nil {
			rows.Close()
			return fmt.Errorf("%w: %v", ErrDamaged, err)
		}
		f.seqs = append(f.seqs, seq)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	for _, seq := range f.seqs {
		if _, err := f.readDocument(ctx, seq); err != nil {
			return err
		}
	}
	return nil
}

// Bounds of a document row's short fields: a file name (most file systems
// allow 255 bytes) and a fingerprint (a hash, hex).
const (
	maxFileName    = 1024
	maxFingerprint = 256
)

// readDocument reads and checks one document row.
func (f *File) readDocument(ctx context.Context, seq int64) (Document, error) {
	var d Document
	var sum string
	err := f.conn.QueryRowContext(ctx, `SELECT file, sha256, pdf, setup, processed, models, vectors, sum FROM documents WHERE seq = ?`, seq).
		Scan(&d.File, &d.SHA256, &d.PDF, &d.Setup, &d.Processed, &d.Models, &d.Vectors, &sum)
	if err != nil {
		return Document{}, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	if got := sha256.Sum256(d.PDF); hex.EncodeToString(got[:]) != d.SHA256 {
		return Document{}, fmt.Errorf("%w: %s", ErrTampered, d.File)
	}
	if sumOf(d) != sum {
		return Document{}, fmt.Errorf("%w: the data of %s does not match its checksum", ErrDamaged, d.File)
	}
	return d, nil
}

// deadlineErr names a check stopped by ctx as such: out of time
// (ErrTooSlow) or cancelled (context.Canceled), whatever SQLite called it.
func deadlineErr(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	switch cerr := ctx.Err(); {
	case errors.Is(cerr, context.DeadlineExceeded) && !errors.Is(err, ErrTooSlow):
		return fmt.Errorf("%w: %w", ErrTooSlow, err)
	case errors.Is(cerr, context.Canceled) && !errors.Is(err, context.Canceled):
		return fmt.Errorf("%w: %w", context.Canceled, err)
	}
	return err
}

// withDefaults fills the zero fields of lim from DefaultLimits.
func (lim Limits) withDefaults() Limits {
	d := DefaultLimits
	if lim.MaxDocuments <= 0 {
		lim.MaxDocuments = d.MaxDocuments
	}
	if lim.MaxPDFBytes <= 0 {
		lim.MaxPDFBytes = d.MaxPDFBytes
	}
	if lim.MaxDataBytes <= 0 {
		lim.MaxDataBytes = d.MaxDataBytes
	}
	if lim.MaxConversationBytes <= 0 {
		lim.MaxConversationBytes = d.MaxConversationBytes
	}
	if lim.MaxReviewBytes <= 0 {
		lim.MaxReviewBytes = d.MaxReviewBytes
	}
	if lim.MaxNoteBytes <= 0 {
		lim.MaxNoteBytes = d.MaxNoteBytes
	}
	if lim.MaxTotal <= 0 {
		lim.MaxTotal = d.MaxTotal
	}
	if lim.CheckTime <= 0 {
		lim.CheckTime = d.CheckTime
	}
	return lim
}

func errOrNil(err error) any {
	if err == nil {
		return ""
	}
	return err
}
