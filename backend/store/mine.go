package store

import (
	"context"

	"vika/backend/corpus"
)

// ReplaceKind replaces a document's passages of one kind by chunks (all
// of that kind), after its others, in one transaction: the student's own
// notes of a document (corpus.ChunkMine) as they now stand. The
// document's passage count follows. corpus.ErrNotFound when the document
// is not there.
func (s *Store) ReplaceKind(ctx context.Context, docID string, kind corpus.ChunkKind, chunks []corpus.Chunk) (err error) {
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
	res, err := tx.ExecContext(ctx, `DELETE FROM chunks WHERE doc_id = ? AND kind = ?`, docID, string(kind))
	if err != nil {
		return err
	}
	gone, err := res.RowsAffected()
	if err != nil {
		return err
	}
	var next int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(ord) + 1, 0) FROM chunks WHERE doc_id = ?`, docID).Scan(&next); err != nil {
		return err
	}
	if err := insertChunks(ctx, tx, docID, next, chunks); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE documents SET chunks = chunks - ? + ? WHERE id = ?`, gone, len(chunks), docID); err != nil {
		return err
	}
	return tx.Commit()
}
