package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"vika/backend/corpus"
)

// Regions (tables, figures, display formulas) are stored with their
// page, figure crops as PNG blobs in the in-memory database, like the
// rest of the session: forgotten when it closes.

func insertRegions(ctx context.Context, tx *sql.Tx, docID string, pages []corpus.Page) error {
	st, err := tx.PrepareContext(ctx, `INSERT INTO regions (doc_id, page, ord, kind, bbox, caption, text, description, image) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, p := range pages {
		for i, r := range p.Regions {
			bbox, err := json.Marshal(r.BBox)
			if err != nil {
				return fmt.Errorf("page %d: %w", p.Number, err)
			}
			var img any
			if len(r.Image) > 0 {
				img = r.Image
			}
			if _, err := st.ExecContext(ctx, docID, p.Number, i, string(r.Kind), string(bbox), r.Caption, r.Text, r.Description, img); err != nil {
				return fmt.Errorf("page %d: region %d: %w", p.Number, i, err)
			}
		}
	}
	return nil
}

// Regions returns the regions of a document in page order, figures with
// their crop when withImages is set (crops can weigh megabytes).
func (s *Store) Regions(ctx context.Context, docID string, withImages bool) ([]corpus.Region, error) {
	img := "NULL"
	if withImages {
		img = "image"
	}
	rows, err := s.db.QueryContext(ctx, `SELECT page, kind, bbox, caption, text, description, refusal, `+img+` FROM regions WHERE doc_id = ? ORDER BY page, ord`, docID)
	if err != nil {
		return nil, fmt.Errorf("read regions: %w", err)
	}
	return scanRegions(rows)
}

// scanRegions reads rows of (page, kind, bbox, caption, text,
// description, refusal, image) into regions, and closes them.
func scanRegions(rows *sql.Rows) ([]corpus.Region, error) {
	defer rows.Close()
	var out []corpus.Region
	for rows.Next() {
		var r corpus.Region
		var bbox string
		var refusal sql.NullString
		if err := rows.Scan(&r.Page, &r.Kind, &bbox, &r.Caption, &r.Text, &r.Description, &refusal, &r.Image); err != nil {
			return nil, fmt.Errorf("read regions: %w", err)
		}
		if err := json.Unmarshal([]byte(bbox), &r.BBox); err != nil {
			return nil, fmt.Errorf("read regions: page %d: %w", r.Page, err)
		}
		if refusal.Valid {
			r.Refusal = new(corpus.Refusal)
			if err := json.Unmarshal([]byte(refusal.String), r.Refusal); err != nil {
				return nil, fmt.Errorf("read regions: page %d: refusal: %w", r.Page, err)
			}
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
