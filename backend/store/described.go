package store

import (
	"context"
	"encoding/json"
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
	if err := insertChunks(ctx, tx, docID, next, chunks); err != nil {
		return err
	}
	return tx.Commit()
}

// RegionsOn returns the regions of a page that have a crop, with it.
func (s *Store) RegionsOn(ctx context.Context, docID string, page int) ([]corpus.Region, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT page, kind, bbox, caption, text, description, image FROM regions WHERE doc_id = ? AND page = ? AND image IS NOT NULL ORDER BY ord`, docID, page)
	if err != nil {
		return nil, fmt.Errorf("read regions: %w", err)
	}
	return scanRegions(rows)
}

// SetDescription keeps a model's description of a region (a figure's
// description, a table's summary), found by page, kind and box.
func (s *Store) SetDescription(ctx context.Context, docID string, r corpus.Region, text string) error {
	bbox, err := json.Marshal(r.BBox)
	if err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, `UPDATE regions SET description = ? WHERE doc_id = ? AND page = ? AND kind = ? AND bbox = ?`,
		text, docID, r.Page, string(r.Kind), string(bbox))
	if err != nil {
		return fmt.Errorf("keep the description: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: no %s at %v on page %d", ErrNotFound, r.Kind, r.BBox, r.Page)
	}
	return nil
}
