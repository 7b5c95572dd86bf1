// Package store is the in-memory SQLite store of one Vika session: the
// documents added, their pages and chunks. Nothing is written to disk;
// closing the store (quitting the app) forgets everything.
//
// Every new connection to ":memory:" opens a separate, empty database, so
// the store pins the pool to a single connection that is never recycled.
// database/sql serialises callers on that connection, and a transaction
// holds it until it ends, so the Store is safe for concurrent use.
package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"vika/backend/corpus"
	"vika/backend/message"
)

// Sentinel errors.
var (
	ErrExists = errors.New("document already in the session")
)

const schema = `
CREATE TABLE documents (
	seq      INTEGER PRIMARY KEY AUTOINCREMENT, -- insertion order
	id       TEXT    NOT NULL UNIQUE,           -- SHA-256 of the bytes
	file     TEXT    NOT NULL,
	label    TEXT    NOT NULL UNIQUE,
	bytes    INTEGER NOT NULL,
	pages    INTEGER NOT NULL,
	chunks   INTEGER NOT NULL,
	lang     TEXT    NOT NULL,                  -- main language, '' when undetermined
	meta     TEXT    NOT NULL,                  -- JSON: page_types, ocr_pages, lang_shares, lang_mixed, warning, info, outline
	added_at INTEGER NOT NULL                   -- unix milliseconds
);
CREATE INDEX documents_file ON documents(file);

CREATE TABLE pages (
	doc_id TEXT    NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
	page   INTEGER NOT NULL,
	type   TEXT    NOT NULL,
	text   TEXT    NOT NULL,
	width  REAL    NOT NULL,
	height REAL    NOT NULL,
	error_code   TEXT NOT NULL DEFAULT '', -- why the text could not be extracted (message.Page*), '' when it could
	error_params TEXT,                     -- JSON object: the code's parameters
	lang            TEXT NOT NULL,
	lang_confidence REAL NOT NULL,
	ocr_confidence  REAL,           -- NULL when no OCR ran on the page
	lines           TEXT NOT NULL,  -- JSON array of corpus.Line
	PRIMARY KEY (doc_id, page)
) WITHOUT ROWID;

CREATE TABLE chunks (
	id            TEXT    PRIMARY KEY,
	doc_id        TEXT    NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
	ord           INTEGER NOT NULL, -- position in the document
	page          INTEGER NOT NULL,
	char_start    INTEGER NOT NULL,
	char_end      INTEGER NOT NULL,
	text          TEXT    NOT NULL,
	section_title TEXT    NOT NULL,
	page_type     TEXT    NOT NULL,
	lang          TEXT    NOT NULL,
	kind          TEXT    NOT NULL,
	pages         TEXT    NOT NULL, -- JSON array: overlay pages the chunk stands for
	bbox          TEXT    NOT NULL  -- JSON [x0,y0,x1,y1] of a region's passage, 'null' otherwise
);
CREATE INDEX chunks_doc_ord ON chunks(doc_id, ord);

CREATE TABLE regions (
	doc_id      TEXT    NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
	page        INTEGER NOT NULL,
	ord         INTEGER NOT NULL, -- position on the page
	kind        TEXT    NOT NULL, -- table, figure or formula
	bbox        TEXT    NOT NULL, -- JSON [x0,y0,x1,y1], points
	caption     TEXT    NOT NULL,
	text        TEXT    NOT NULL,
	description TEXT    NOT NULL,
	refusal     TEXT,             -- JSON corpus.Refusal: the last description refused, NULL when none
	image       BLOB,             -- a figure's PNG crop, NULL otherwise
	PRIMARY KEY (doc_id, page, ord)
) WITHOUT ROWID;
CREATE INDEX chunks_doc_page ON chunks(doc_id, page);
`

// documentMeta holds the document fields kept as JSON.
type documentMeta struct {
	PageTypes  map[corpus.PageType]int  `json:"page_types"`
	Regions    map[corpus.ChunkKind]int `json:"regions,omitempty"`
	OCRPages   int                      `json:"ocr_pages"`
	LangShares map[string]float64       `json:"lang_shares"`
	LangMixed  bool                     `json:"lang_mixed"`
	Warning    *message.Message         `json:"warning,omitempty"`
	Info       corpus.Meta              `json:"info"`
	Outline    []corpus.OutlineEntry    `json:"outline,omitempty"`
	Links      []corpus.Link            `json:"links,omitempty"`
	Format     string                   `json:"format,omitempty"`
	Unit       string                   `json:"unit,omitempty"`
}

// Store is the session database. Create it with Open; Close it.
type Store struct {
	db  *sql.DB
	now func() time.Time
}

// Open creates an empty in-memory session database.
func Open(ctx context.Context) (*Store, error) {
	db, err := sql.Open("sqlite", "file::memory:?_pragma=foreign_keys(1)&_pragma=temp_store(memory)")
	if err != nil {
		return nil, fmt.Errorf("open session database: %w", err)
	}
	// One connection for the life of the store: a second one would see
	// another, empty, in-memory database.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if _, err := db.ExecContext(ctx, schema+metricsSchema+filesSchema+summariesSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("create session schema: %w", err)
	}
	return &Store{db: db, now: time.Now}, nil
}

// Close discards the session.
func (s *Store) Close() error { return s.db.Close() }

// AddDocument stores a document with its pages and chunks in one
// transaction: either all of it is stored or nothing. The doc's Pages and
// Chunks counts are stored as given. It fails with ErrExists if a document
// with the same id or label is already stored.
func (s *Store) AddDocument(ctx context.Context, doc corpus.Document, pages []corpus.Page, chunks []corpus.Chunk) (err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("add %s: %w", doc.Label, err)
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM documents WHERE id = ? OR label = ?`, doc.ID, doc.Label).Scan(&n); err != nil {
		return fmt.Errorf("add %s: %w", doc.Label, err)
	}
	if n > 0 {
		return fmt.Errorf("%w: %s", ErrExists, doc.Label)
	}
	meta, err := metaOf(doc)
	if err != nil {
		return fmt.Errorf("add %s: %w", doc.Label, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO documents (id, file, label, bytes, pages, chunks, lang, meta, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		doc.ID, doc.File, doc.Label, doc.Bytes, doc.Pages, doc.Chunks, doc.Lang, meta, s.now().UnixMilli()); err != nil {
		return fmt.Errorf("add %s: %w", doc.Label, err)
	}
	if err := insertText(ctx, tx, doc.ID, pages, chunks); err != nil {
		return fmt.Errorf("add %s: %w", doc.Label, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("add %s: %w", doc.Label, err)
	}
	return nil
}

// metaOf is the meta column of doc.
func metaOf(doc corpus.Document) (string, error) {
	meta, err := json.Marshal(documentMeta{PageTypes: doc.PageTypes, Regions: doc.Regions, OCRPages: doc.OCRPages, LangShares: doc.LangShares, LangMixed: doc.LangMixed, Warning: doc.Warning, Info: doc.Meta, Outline: doc.Outline, Links: doc.Links, Format: doc.Format, Unit: doc.Unit})
	return string(meta), err
}

// ReplaceText replaces the pages, regions and passages of a stored
// document, and its counts, language and meta, with doc's (its id, label,
// file and place in the session stay) in one transaction: a document read
// further (its OCR pages) replaces what was stored of it before. What
// else refers to the document (its file, its questions' metrics) stays.
// It fails with corpus.ErrNotFound when the document is not stored.
func (s *Store) ReplaceText(ctx context.Context, doc corpus.Document, pages []corpus.Page, chunks []corpus.Chunk) (err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("replace %s: %w", doc.Label, err)
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	meta, err := metaOf(doc)
	if err != nil {
		return fmt.Errorf("replace %s: %w", doc.Label, err)
	}
	res, err := tx.ExecContext(ctx, `UPDATE documents SET pages = ?, chunks = ?, lang = ?, meta = ? WHERE id = ?`, doc.Pages, doc.Chunks, doc.Lang, meta, doc.ID)
	if err != nil {
		return fmt.Errorf("replace %s: %w", doc.Label, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("%w: %s", corpus.ErrNotFound, doc.ID)
	}
	for _, table := range []string{"chunks", "regions", "pages"} {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE doc_id = ?`, doc.ID); err != nil {
			return fmt.Errorf("replace %s: %w", doc.Label, err)
		}
	}
	if err := insertText(ctx, tx, doc.ID, pages, chunks); err != nil {
		return fmt.Errorf("replace %s: %w", doc.Label, err)
	}
	return tx.Commit()
}

// insertText inserts a document's pages, their regions and its passages.
func insertText(ctx context.Context, tx *sql.Tx, docID string, pages []corpus.Page, chunks []corpus.Chunk) error {
	if err := insertPages(ctx, tx, docID, pages); err != nil {
		return err
	}
	if err := insertRegions(ctx, tx, docID, pages); err != nil {
		return err
	}
	return insertChunks(ctx, tx, docID, 0, chunks)
}

func insertPages(ctx context.Context, tx *sql.Tx, docID string, pages []corpus.Page) error {
	st, err := tx.PrepareContext(ctx, `INSERT INTO pages (doc_id, page, type, text, width, height, error_code, error_params, lang, lang_confidence, ocr_confidence, lines) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, p := range pages {
		lines, err := json.Marshal(p.Lines)
		if err != nil {
			return fmt.Errorf("page %d: %w", p.Number, err)
		}
		code, params, err := problemColumns(p.Problem)
		if err != nil {
			return fmt.Errorf("page %d: %w", p.Number, err)
		}
		if _, err := st.ExecContext(ctx, docID, p.Number, string(p.Type), p.Text, p.Width, p.Height, code, params,
			p.Lang, p.LangConfidence, p.OCRConfidence, string(lines)); err != nil {
			return fmt.Errorf("page %d: %w", p.Number, err)
		}
	}
	return nil
}

// insertChunks inserts chunks in order, the first at position first among
// the document's chunks.
func insertChunks(ctx context.Context, tx *sql.Tx, docID string, first int, chunks []corpus.Chunk) error {
	st, err := tx.PrepareContext(ctx, `INSERT INTO chunks (id, doc_id, ord, page, char_start, char_end, text, section_title, page_type, lang, kind, pages, bbox) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for i, c := range chunks {
		if c.DocID != docID {
			return fmt.Errorf("chunk %s belongs to document %q, not %q", c.ID, c.DocID, docID)
		}
		pages, err := json.Marshal(c.Pages)
		if err != nil {
			return fmt.Errorf("chunk %s: %w", c.ID, err)
		}
		bbox, err := json.Marshal(c.BBox)
		if err != nil {
			return fmt.Errorf("chunk %s: %w", c.ID, err)
		}
		if _, err := st.ExecContext(ctx, c.ID, docID, first+i, c.Page, c.CharStart, c.CharEnd, c.Text, c.SectionTitle,
			string(c.PageType), c.Lang, string(c.Kind), string(pages), string(bbox)); err != nil {
			return fmt.Errorf("chunk %s: %w", c.ID, err)
		}
	}
	return nil
}

// DeleteDocument removes a document with its pages and chunks.
func (s *Store) DeleteDocument(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM documents WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("delete document: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("%w: %s", corpus.ErrNotFound, id)
	}
	return nil
}
