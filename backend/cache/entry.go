package cache

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"

	"vika/backend/kept"
	"vika/backend/message"
)

// Parts of an entry.
const (
	PartDocument = "document" // the processed document: pages, chunks, regions
	PartVectors  = "vectors"  // the passages' vectors by one set of embedding models
	PartFigures  = "figures"  // the figures' image vectors by one CLIP
	PartOutput   = "output"   // a model's output: a description, summary or LaTeX of one region or passage, a study guide
	PartPDF      = "pdf"      // the PDF a file that is not one was converted to (package convert), under the file's SHA-256
)

// Key names an entry: the PDF's SHA-256, the fingerprint of what produced
// the data (Fingerprint), and the part.
type Key struct {
	Doc, Setup, Part string
}

func (k Key) sum(data []byte) string {
	h := sha256.New()
	for _, s := range []string{k.Doc, k.Setup, k.Part} {
		fmt.Fprintf(h, "%d:%s;", len(s), s)
	}
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// Get decodes the entry k into v (a pointer) and reports whether it was
// there. A damaged entry (checksum, encoding) is deleted and reported as
// absent, with a notice; a damaged file is started afresh. Errors are
// only those of a cache that is off or a cancelled ctx.
func (c *Cache) Get(ctx context.Context, k Key, v any) (bool, error) {
	db, err := c.conn()
	if err != nil {
		return false, err
	}
	var data []byte
	var sum string
	err = db.QueryRowContext(ctx, `SELECT data, sum FROM entries WHERE doc_id = ? AND setup = ? AND part = ?`, k.Doc, k.Setup, k.Part).Scan(&data, &sum)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case isDamaged(err):
		return false, c.reset(ctx, db)
	case err != nil:
		return false, err
	}
	if sum != k.sum(data) {
		c.drop(ctx, db, k, "checksum")
		return false, nil
	}
	if err := kept.Unmarshal(data, v, kept.Trusted); err != nil {
		c.drop(ctx, db, k, "encoding")
		return false, nil
	}
	// Best effort: a busy writer elsewhere only delays the LRU clock.
	db.ExecContext(ctx, `UPDATE entries SET used_at = ? WHERE doc_id = ? AND setup = ? AND part = ?`, c.now().UnixMilli(), k.Doc, k.Setup, k.Part)
	return true, nil
}

// drop deletes a damaged entry and says so.
func (c *Cache) drop(ctx context.Context, db *sql.DB, k Key, why string) {
	c.tell(message.New(message.CacheDamaged, "doc", shortID(k.Doc), "why", why))
	db.ExecContext(ctx, `DELETE FROM entries WHERE doc_id = ? AND setup = ? AND part = ?`, k.Doc, k.Setup, k.Part)
}

// reset starts afresh the database SQLite found malformed through failed,
// once: a second Get that failed on the same handle finds it replaced.
func (c *Cache) reset(ctx context.Context, failed *sql.DB) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off || c.db == nil {
		return ErrOff
	}
	if c.db != failed {
		return nil
	}
	c.db.Close()
	c.db = nil
	c.tell(message.New(message.CacheReset))
	if err := c.setAside(); err != nil {
		c.off = true
		return fmt.Errorf("%w: %w", ErrOff, err)
	}
	db, err := c.open(ctx)
	if err != nil {
		c.off = true
		return fmt.Errorf("%w: %w", ErrOff, err)
	}
	c.db = db
	return nil
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// Put stores v (in kept's encoding) as the entry k, replacing any, in one
// transaction, then evicts the least recently used documents over the
// size cap. An entry larger than the cap is not kept. A full disk turns
// the cache off (ErrOff, with a notice).
func (c *Cache) Put(ctx context.Context, k Key, v any) error {
	db, err := c.conn()
	if err != nil {
		return err
	}
	data, err := kept.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode the cache entry: %w", err)
	}
	if int64(len(data)) > c.max {
		return nil
	}
	return c.failed(c.put(ctx, db, k, data))
}

func (c *Cache) put(ctx context.Context, db *sql.DB, k Key, data []byte) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO entries (doc_id, setup, part, data, sum, size, used_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		k.Doc, k.Setup, k.Part, data, k.sum(data), len(data), c.now().UnixMilli()); err != nil {
		return err
	}
	if err := evict(ctx, tx, c.max, k.Doc); err != nil {
		return err
	}
	return tx.Commit()
}

// evict deletes whole documents, least recently used first, until the
// entries fit in max bytes; keep is never evicted.
func evict(ctx context.Context, tx *sql.Tx, max int64, keep string) error {
	for {
		var total int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(size), 0) FROM entries`).Scan(&total); err != nil {
			return err
		}
		if total <= max {
			return nil
		}
		var victim string
		err := tx.QueryRowContext(ctx, `SELECT doc_id FROM entries WHERE doc_id != ? GROUP BY doc_id ORDER BY MAX(used_at) LIMIT 1`, keep).Scan(&victim)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM entries WHERE doc_id = ?`, victim); err != nil {
			return err
		}
	}
}

// Forget deletes every entry of the PDF whose SHA-256 is docID.
func (c *Cache) Forget(ctx context.Context, docID string) error {
	db, err := c.conn()
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `DELETE FROM entries WHERE doc_id = ?`, docID)
	return c.failed(err)
}

// Clear deletes every entry and gives the space back to the disk.
func (c *Cache) Clear(ctx context.Context) error {
	db, err := c.conn()
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `DELETE FROM entries`); err != nil {
		return c.failed(err)
	}
	if _, err := db.ExecContext(ctx, `VACUUM`); err != nil {
		return c.failed(err)
	}
	_, err = db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	return c.failed(err)
}

// Info is what the cache holds.
type Info struct {
	Dir       string `json:"dir"`
	Documents int    `json:"documents"`  // distinct PDFs
	Entries   int    `json:"entries"`    // parts over all PDFs
	Bytes     int64  `json:"bytes"`      // sum of the entries' sizes
	FileBytes int64  `json:"file_bytes"` // the database and its journal on disk
	MaxBytes  int64  `json:"max_bytes"`
}

// Info counts what the cache holds.
func (c *Cache) Info(ctx context.Context) (Info, error) {
	in := Info{Dir: c.dir, MaxBytes: c.max}
	db, err := c.conn()
	if err != nil {
		return in, err
	}
	if err := db.QueryRowContext(ctx, `SELECT COUNT(DISTINCT doc_id), COUNT(*), COALESCE(SUM(size), 0) FROM entries`).Scan(&in.Documents, &in.Entries, &in.Bytes); err != nil {
		return in, err
	}
	for _, suffix := range []string{"", "-wal"} {
		if fi, err := os.Stat(c.path + suffix); err == nil {
			in.FileBytes += fi.Size()
		}
	}
	return in, nil
}

// Has reports which of the given PDFs have a document entry made with
// setup (for the library's "Forget this PDF").
func (c *Cache) Has(ctx context.Context, docID string) (bool, error) {
	db, err := c.conn()
	if err != nil {
		return false, err
	}
	var n int
	err = db.QueryRowContext(ctx, `SELECT COUNT(*) FROM entries WHERE doc_id = ?`, docID).Scan(&n)
	return n > 0, err
}
