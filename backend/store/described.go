package store

import (
	"context"
	"encoding/json"
	"fmt"

	"vika/backend/corpus"
)

// AddChunks adds passages to a document already in the store, after its
// others: the descriptions of its figures and the summaries of its tables,
// written after it was added; the document's passage count grows with
// them. corpus.ErrNotFound when the document is not there.
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
	if _, err := tx.ExecContext(ctx, `UPDATE documents SET chunks = chunks + ? WHERE id = ?`, len(chunks), docID); err != nil {
		return err
	}
	return tx.Commit()
}

// RegionsOn returns the regions of a page that have a crop, with it.
func (s *Store) RegionsOn(ctx context.Context, docID string, page int) ([]corpus.Region, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT page, kind, bbox, caption, text, description, refusal, image FROM regions WHERE doc_id = ? AND page = ? AND image IS NOT NULL ORDER BY ord`, docID, page)
	if err != nil {
		return nil, fmt.Errorf("read regions: %w", err)
	}
	return scanRegions(rows)
}

// SetDescription keeps a model's description of a region (a figure's
// description, a table's summary, a formula's LaTeX), found by page, kind
// and box, and forgets any refusal before it.
func (s *Store) SetDescription(ctx context.Context, docID string, r corpus.Region, text string) error {
	return s.updateRegion(ctx, docID, r, `description = ?, refusal = NULL`, text)
}

// SetRefusal keeps why a model's description of a region was not kept,
// and which model wrote it (the region keeps its description, if any).
func (s *Store) SetRefusal(ctx context.Context, docID string, r corpus.Region, refusal corpus.Refusal) error {
	b, err := json.Marshal(refusal)
	if err != nil {
		return err
	}
	return s.updateRegion(ctx, docID, r, `refusal = ?`, string(b))
}

// updateRegion sets the columns of set (with its one argument) on the
// region found by page, kind and box.
func (s *Store) updateRegion(ctx context.Context, docID string, r corpus.Region, set string, arg any) error {
	bbox, err := json.Marshal(r.BBox)
	if err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, `UPDATE regions SET `+set+` WHERE doc_id = ? AND page = ? AND kind = ? AND bbox = ?`,
		arg, docID, r.Page, string(r.Kind), string(bbox))
	if err != nil {
		return fmt.Errorf("update the region: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: no %s at %v on page %d", corpus.ErrNotFound, r.Kind, r.BBox, r.Page)
	}
	return nil
}
