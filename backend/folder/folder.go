// Package folder lists the PDFs of a folder a student adds whole: every
// PDF under it, recursively, without following symbolic links, up to a
// count cap; the other files are listed as skipped.
package folder

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
)

// DefaultMax is how many PDFs one folder adds at most.
const DefaultMax = 300

// maxSkippedNames bounds the skipped names kept (all are counted).
const maxSkippedNames = 50

// Listing is what a folder holds.
type Listing struct {
	Dir  string   `json:"dir"`
	PDFs []string `json:"pdfs"` // absolute paths, in walk order, at most the cap
	// Found counts the PDFs found; more than len(PDFs) when capped.
	Found int `json:"found"`
	// Skipped names the first other files (relative paths); SkippedCount
	// counts them all, symbolic links included (not followed).
	Skipped      []string `json:"skipped"`
	SkippedCount int      `json:"skipped_count"`
}

// Capped reports whether the cap left PDFs out.
func (l Listing) Capped() bool { return l.Found > len(l.PDFs) }

// PDFs lists the PDFs under dir (a .pdf name, any case), at most max (0:
// DefaultMax). Unreadable subfolders are skipped, not an error; dir
// itself must be a readable folder.
func PDFs(ctx context.Context, dir string, max int) (Listing, error) {
	if max <= 0 {
		max = DefaultMax
	}
	l := Listing{Dir: dir, PDFs: []string{}, Skipped: []string{}}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			return fs.SkipDir // an unreadable subfolder
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		if d.Type()&fs.ModeSymlink != 0 || !d.Type().IsRegular() || !strings.EqualFold(filepath.Ext(path), ".pdf") {
			l.SkippedCount++
			if len(l.Skipped) < maxSkippedNames {
				l.Skipped = append(l.Skipped, rel)
			}
			return nil
		}
		l.Found++
		if len(l.PDFs) < max {
			l.PDFs = append(l.PDFs, path)
		}
		return nil
	})
	return l, err
}
