package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"vika/backend/corpus"
)

const documentColumns = `d.id, d.file, d.label, d.bytes, d.pages, d.chunks, d.lang, d.meta,
	(SELECT group_concat(p.page) FROM pages p WHERE p.doc_id = d.id AND p.error_code <> '')`

func scanDocument(row interface{ Scan(...any) error }) (corpus.Document, error) {
	var d corpus.Document
	var failed sql.NullString
	var meta string
	if err := row.Scan(&d.ID, &d.File, &d.Label, &d.Bytes, &d.Pages, &d.Chunks, &d.Lang, &meta, &failed); err != nil {
		return d, err
	}
	var m documentMeta
	if err := json.Unmarshal([]byte(meta), &m); err != nil {
		return d, fmt.Errorf("document %s: %w", d.ID, err)
	}
	d.PageTypes, d.OCRPages, d.LangShares, d.LangMixed, d.Warning = m.PageTypes, m.OCRPages, m.LangShares, m.LangMixed, m.Warning
	d.Regions, d.Meta, d.Outline, d.Links = m.Regions, m.Info, m.Outline, m.Links
	d.Format, d.Unit = m.Format, m.Unit
	if failed.Valid && failed.String != "" {
		for _, f := range strings.Split(failed.String, ",") {
			if n, err := strconv.Atoi(f); err == nil {
				d.FailedPages = append(d.FailedPages, n)
			}
		}
		sort.Ints(d.FailedPages)
	}
	return d, nil
}

// Documents returns the stored documents in the order they were added.
func (s *Store) Documents(ctx context.Context) ([]corpus.Document, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+documentColumns+` FROM documents d ORDER BY d.seq`)
	if err != nil {
		return nil, fmt.Errorf("list documents: %w", err)
	}
	defer rows.Close()
	var out []corpus.Document
	for rows.Next() {
		d, err := scanDocument(rows)
		if err != nil {
			return nil, fmt.Errorf("list documents: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// DocumentByID returns one document, or corpus.ErrNotFound.
func (s *Store) DocumentByID(ctx context.Context, id string) (corpus.Document, error) {
	d, err := scanDocument(s.db.QueryRowContext(ctx, `SELECT `+documentColumns+` FROM documents d WHERE d.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return d, fmt.Errorf("%w: %s", corpus.ErrNotFound, id)
	}
	if err != nil {
		return d, fmt.Errorf("get document: %w", err)
	}
	return d, nil
}

// Pages returns the pages of a document in page order (none if the
// document is unknown).
func (s *Store) Pages(ctx context.Context, docID string) ([]corpus.Page, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT doc_id, page, type, text, width, height, error_code, error_params, lang, lang_confidence, ocr_confidence, lines FROM pages WHERE doc_id = ? ORDER BY page`, docID)
	if err != nil {
		return nil, fmt.Errorf("list pages: %w", err)
	}
	defer rows.Close()
	var out []corpus.Page
	for rows.Next() {
		var p corpus.Page
		var ocrConf sql.NullFloat64
		var lines, code string
		var params sql.NullString
		if err := rows.Scan(&p.DocID, &p.Number, &p.Type, &p.Text, &p.Width, &p.Height, &code, &params,
			&p.Lang, &p.LangConfidence, &ocrConf, &lines); err != nil {
			return nil, fmt.Errorf("list pages: %w", err)
		}
		if p.Problem, err = problemOf(code, params); err != nil {
			return nil, fmt.Errorf("page %d: %w", p.Number, err)
		}
		if ocrConf.Valid {
			p.OCRConfidence = &ocrConf.Float64
		}
		if err := json.Unmarshal([]byte(lines), &p.Lines); err != nil {
			return nil, fmt.Errorf("page %d: %w", p.Number, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

const chunkColumns = `id, doc_id, page, char_start, char_end, text, section_title, page_type, lang, kind, pages, bbox`

func scanChunk(rows *sql.Rows) (corpus.Chunk, error) {
	var c corpus.Chunk
	var pages, bbox string
	if err := rows.Scan(&c.ID, &c.DocID, &c.Page, &c.CharStart, &c.CharEnd, &c.Text, &c.SectionTitle, &c.PageType, &c.Lang, &c.Kind, &pages, &bbox); err != nil {
		return c, err
	}
	if err := json.Unmarshal([]byte(bbox), &c.BBox); err != nil {
		return c, err
	}
	return c, json.Unmarshal([]byte(pages), &c.Pages)
}

// maxParams keeps IN (...) lists well under SQLite's parameter limit.
const maxParams = 500

// Chunks returns the chunks with the given ids, keyed by id. Unknown ids
// are absent from the map.
func (s *Store) Chunks(ctx context.Context, ids []string) (map[string]corpus.Chunk, error) {
	out := make(map[string]corpus.Chunk, len(ids))
	for start := 0; start < len(ids); start += maxParams {
		part := ids[start:min(start+maxParams, len(ids))]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		q := `SELECT ` + chunkColumns + ` FROM chunks WHERE id IN (?` + strings.Repeat(",?", len(part)-1) + `)`
		if err := s.collect(ctx, q, args, func(c corpus.Chunk) { out[c.ID] = c }); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DocumentChunks returns the chunks of a document in document order.
func (s *Store) DocumentChunks(ctx context.Context, docID string) ([]corpus.Chunk, error) {
	var out []corpus.Chunk
	err := s.collect(ctx, `SELECT `+chunkColumns+` FROM chunks WHERE doc_id = ? ORDER BY ord`, []any{docID},
		func(c corpus.Chunk) { out = append(out, c) })
	return out, err
}

func (s *Store) collect(ctx context.Context, q string, args []any, fn func(corpus.Chunk)) error {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("read chunks: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		c, err := scanChunk(rows)
		if err != nil {
			return fmt.Errorf("read chunks: %w", err)
		}
		fn(c)
	}
	return rows.Err()
}
