package store

import (
	"context"
	"fmt"

	"vika/backend/corpus"
)

// AddChunks adds passages to a document already in the store, after its
// others: the descriptions of its figures and the summaries of its tables,
// written after it was added. ErrNotFound when the document is not there.
func (s *Store) AddChunks(ctx context.Context, docID string, chunks []corpus.Chunk) (err error) {
	if _, err := s.DocumentByID(ctx, docID); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	var next int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(ord) + 1, 0) FROM chunks WHERE doc_id = ?`, docID).Scan(&next); err != nil {
		return err
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO chunks (id, doc_id, ord, page, char_start, char_end, text, section_title, page_type, lang, kind, pages) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]')`)
	if err != nil {
		return err
	}
	defer st.Close()
	for i, c := range chunks {
		if c.DocID != docID {
			return fmt.Errorf("chunk %s belongs to document %q, not %q", c.ID, c.DocID, docID)
		}
		if _, err := st.ExecContext(ctx, c.ID, docID, next+i, c.Page, c.CharStart, c.CharEnd, c.Text, c.SectionTitle,
			string(c.PageType), c.Lang, string(c.Kind)); err != nil {
			return fmt.Errorf("chunk %s: %w", c.ID, err)
		}
	}
	return tx.Commit()
}
