// Package cache is the processed-document cache, kept only when the
// student turns it on: an on-disk SQLite database (modernc.org/sqlite, WAL
// journal) in the user's cache directory that holds what re-adding a PDF
// would recompute (its pages, chunks, regions and their vectors), keyed
// by the PDF's SHA-256 and a fingerprint of everything that changes the
// result. It never holds questions, answers, metrics or keys.
//
// Every entry is written in one transaction (a crash leaves the old entry
// or none) with a SHA-256 of its key and bytes, verified when it is read:
// a damaged, truncated or foreign entry is deleted and reported as a miss
// with a notice. A database file SQLite itself finds malformed is moved
// aside and started afresh. Two processes share the file through SQLite's
// locking (a busy timeout, not an error, when both write). A full disk
// turns the cache off for the rest of the session with a notice; the
// caller's add goes on without it. The total size is capped; the least
// recently used documents go first.
package cache

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"vika/backend/dbfile"
	"vika/backend/message"
)

// DefaultMaxBytes is the default size cap: 2 GB.
const DefaultMaxBytes = 2 << 30

// schemaVersion is the layout of the database and the encoding of its
// entries (2: package kept's JSON; 1 was gob). A file of an older
// version is emptied (its entries are of another encoding, the tables
// the same); one of a newer version is set aside and started afresh.
const schemaVersion = "2"

// FileName is the database's name inside the cache directory.
const FileName = "documents.sqlite"

const schema = `
CREATE TABLE IF NOT EXISTS entries (
	doc_id  TEXT    NOT NULL, -- SHA-256 of the PDF's bytes
	setup   TEXT    NOT NULL, -- fingerprint of the pipeline and settings (and the models, for vectors)
	part    TEXT    NOT NULL, -- what the data holds (Part*)
	data    BLOB    NOT NULL, -- package kept's encoding
	sum     TEXT    NOT NULL, -- SHA-256 of doc_id, setup, part and data
	size    INTEGER NOT NULL, -- bytes of data
	used_at INTEGER NOT NULL, -- unix milliseconds of the last read or write
	PRIMARY KEY (doc_id, setup, part)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS entries_used ON entries(used_at);
CREATE TABLE IF NOT EXISTS about (k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID;
`

// Errors callers can test with errors.Is.
var (
	// ErrOff is returned by every call once the cache turned itself off
	// (a full disk) or was closed.
	ErrOff = errors.New("the document cache is off")
)

// Options configures Open.
type Options struct {
	// MaxBytes caps the total size of the entries (DefaultMaxBytes when
	// zero or less).
	MaxBytes int64
	// Notice receives what the student should know: a damaged entry
	// ignored, a damaged file started afresh, the cache turned off. It
	// may be nil; it must not call back into the cache.
	Notice func(message.Message)
}

// Cache is an open cache; it is safe for concurrent use, and by several
// processes on the same directory.
type Cache struct {
	dir    string
	path   string
	max    int64
	notice func(message.Message)
	now    func() time.Time

	mu  sync.Mutex
	db  *sql.DB // nil once off or closed; guarded by mu
	off bool    // guarded by mu
}

// Dir is where the cache lives: os.UserCacheDir()/vika
// ($XDG_CACHE_HOME/vika, else ~/.cache/vika) on Linux and macOS,
// %LOCALAPPDATA%\Vika\cache on Windows.
func Dir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the document cache: %w", err)
	}
	if runtime.GOOS == "windows" {
		return filepath.Join(base, "Vika", "cache"), nil
	}
	return filepath.Join(base, "vika"), nil
}

// Open opens (creating it, 0700, its files 0600) the cache in dir. A file
// SQLite cannot read as a database, or one of another schema version, is
// moved aside (FileName + ".damaged") with a notice and started afresh.
func Open(ctx context.Context, dir string, o Options) (*Cache, error) {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	c := &Cache{dir: dir, path: filepath.Join(dir, FileName), max: o.MaxBytes, notice: o.Notice, now: time.Now}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the document cache: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the document cache: %w", err)
	}
	db, err := c.open(ctx)
	if isDamaged(err) {
		c.tell(message.New(message.CacheReset))
		if err = c.setAside(); err == nil {
			db, err = c.open(ctx)
		}
	}
	if err != nil {
		return nil, err
	}
	c.db = db
	return c, nil
}

// open opens the database file and checks its schema version.
func (c *Cache) open(ctx context.Context) (*sql.DB, error) {
	f, err := os.OpenFile(c.path, os.O_RDWR|os.O_CREATE, 0o600) // SQLite gives -wal and -shm the same mode
	if err != nil {
		return nil, fmt.Errorf("open the document cache: %w", err)
	}
	f.Close()
	dsn := dbfile.URI(c.path, "_pragma=busy_timeout(15000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate")
	// SQLite answers SQLITE_BUSY at once, without its busy handler, where
	// waiting could deadlock: two processes opening a new cache together,
	// both switching it to WAL mode (TestTwoProcessesWriteTheSameCache,
	// on a loaded machine). Opening is retried for the busy timeout.
	wait := 10 * time.Millisecond
	deadline := time.Now().Add(openBusyWait)
	for {
		db, err := sql.Open("sqlite", dsn)
		if err != nil {
			return nil, fmt.Errorf("open the document cache: %w", err)
		}
		db.SetMaxOpenConns(2)
		err = initSchema(ctx, db)
		if err == nil {
			return db, nil
		}
		db.Close()
		if sqliteCode(err) != sqlite3.SQLITE_BUSY || time.Now().Add(wait).After(deadline) {
			return nil, fmt.Errorf("open the document cache: %w", err)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("open the document cache: %w", ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 200*time.Millisecond)
	}
}

// openBusyWait is how long opening waits for another process that holds
// the cache's locks (the busy timeout's 15 s).
const openBusyWait = 15 * time.Second

// errVersion marks a database of another schema version.
var errVersion = errors.New("document cache of another version")

func initSchema(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return err
	}
	var v string
	err = tx.QueryRowContext(ctx, `SELECT v FROM about WHERE k = 'version'`).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, `INSERT INTO about (k, v) VALUES ('version', ?)`, schemaVersion); err != nil {
			return err
		}
	case err != nil:
		return err
	case olderVersion(v):
		if _, err := tx.ExecContext(ctx, `DELETE FROM entries`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE about SET v = ? WHERE k = 'version'`, schemaVersion); err != nil {
			return err
		}
	case v != schemaVersion:
		return fmt.Errorf("%w (%q, this one reads %q)", errVersion, v, schemaVersion)
	}
	return tx.Commit()
}

// olderVersion reports whether v names a version before schemaVersion,
// whose tables are this one's.
func olderVersion(v string) bool { return v == "1" }

// setAside moves a damaged database out of the way with its journal and
// shared memory, renamed together (never deleted: what another process
// committed to the journal stays with the file it belongs to, and a fresh
// database never meets an old journal).
func (c *Cache) setAside() error {
	for _, suffix := range []string{"-wal", "-shm", ""} {
		err := os.Rename(c.path+suffix, c.path+".damaged"+suffix)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("set the damaged document cache aside: %w", err)
		}
	}
	return nil
}

// MaxBytes is the size cap.
func (c *Cache) MaxBytes() int64 { return c.max }

// Path is the database file.
func (c *Cache) Path() string { return c.path }

// Close closes the database; later calls fail with ErrOff.
func (c *Cache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.off = true
	if c.db == nil {
		return nil
	}
	err := c.db.Close()
	c.db = nil
	return err
}

// Off reports whether the cache turned itself off or was closed.
func (c *Cache) Off() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.off
}

// conn returns the database, or ErrOff.
func (c *Cache) conn() (*sql.DB, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off || c.db == nil {
		return nil, ErrOff
	}
	return c.db, nil
}

func (c *Cache) tell(m message.Message) {
	if c.notice != nil {
		c.notice(m)
	}
}

// failed handles an error of a write: a full disk (or a write the disk
// refused) turns the cache off for the session with a notice. It returns
// err.
func (c *Cache) failed(err error) error {
	if !isDiskFull(err) {
		return err
	}
	c.mu.Lock()
	wasOn := !c.off
	c.off = true
	if c.db != nil {
		c.db.Close()
		c.db = nil
	}
	c.mu.Unlock()
	if wasOn {
		c.tell(message.New(message.CacheDiskFull))
	}
	return fmt.Errorf("%w: %w", ErrOff, err)
}

// sqliteCode is the primary result code of a SQLite error, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

func isDiskFull(err error) bool {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR:
		return true
	}
	return false
}

func isDamaged(err error) bool {
	if errors.Is(err, errVersion) {
		return true
	}
	switch sqliteCode(err) {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	return false
}
