// Package folder lists the PDFs of a folder a student adds whole: every
// PDF under it (and every other file Vika reads: convert.Known), recursively, without following the symbolic links inside
// it (so a link cannot make the walk loop), up to a count cap; the other
// files are listed as skipped. A folder given as a link (one dropped from
// the desktop) is followed, once, at the top. The walk is bounded: it
// stops at the first PDF past the cap, after MaxEntries entries, and does
// not open folders more than MaxDepth below the top; ctx stops it between
// entries.
package folder

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"vika/backend/convert"
)

// DefaultMax is how many PDFs one folder adds at most.
const DefaultMax = 300

// MaxEntries is how many entries (files and folders) one listing looks at
// at most: a course's folder holds a few hundred, a home folder dropped by
// mistake millions. 50,000 leaves room for 300 PDFs among the files of a
// course's projects (sources, images, build output) and reads in about a
// second on a local disk.
const MaxEntries = 50_000

// MaxDepth is how many folders deep the walk opens: a course's folders
// nest a handful deep; deeper ones are counted in Listing.Deep.
const MaxDepth = 16

// maxSkippedNames bounds the skipped names kept (all are counted).
const maxSkippedNames = 50

// readBatch is how many entries of a folder are read at a time, so that a
// folder of a million entries is read only as far as the budget.
const readBatch = 256

// Listing is what a folder holds.
type Listing struct {
	Dir  string   `json:"dir"`
	PDFs []string `json:"pdfs"` // absolute paths, in walk order, at most the cap
	// Found counts the PDFs found. The walk stops at the first PDF past
	// the cap, so more than len(PDFs) (by one) says the folder holds more
	// than the cap, not how many more.
	Found int `json:"found"`
	// Skipped names the first other files (relative paths); SkippedCount
	// counts them all, symbolic links included (not followed).
	Skipped      []string `json:"skipped"`
	SkippedCount int      `json:"skipped_count"`
	// Truncated says the walk stopped after MaxEntries entries: the
	// folder may hold PDFs it did not see.
	Truncated bool `json:"truncated"`
	// Deep counts the folders not opened, more than MaxDepth below Dir.
	Deep int `json:"deep"`
}

// Capped reports whether the cap left PDFs out.
func (l Listing) Capped() bool { return l.Found > len(l.PDFs) }

// PDFs lists the PDFs under dir (a .pdf name, any case), at most max (0:
// DefaultMax), in name order folder by folder. Unreadable subfolders are
// skipped, not an error; dir itself must be a readable folder, or a
// symbolic link to one (followed once; the paths listed are under dir).
func PDFs(ctx context.Context, dir string, max int) (Listing, error) {
	return list(ctx, dir, max, MaxEntries, MaxDepth)
}

// list is PDFs within the bounds given.
func list(ctx context.Context, dir string, max, maxEntries, maxDepth int) (Listing, error) {
	if max <= 0 {
		max = DefaultMax
	}
	w := walker{ctx: ctx, max: max, maxEntries: maxEntries, maxDepth: maxDepth,
		l: Listing{Dir: dir, PDFs: []string{}, Skipped: []string{}}}
	root := dir
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// EvalSymlinks resolves a chain of links and fails on a loop.
		if root, err = filepath.EvalSymlinks(dir); err != nil {
			return w.l, err
		}
	}
	err := w.folder(root, dir, "", 0)
	if errors.Is(err, errStop) {
		err = nil
	}
	if err == nil {
		err = ctx.Err()
	}
	return w.l, err
}

// errStop ends the walk: the cap or the entry budget was reached.
var errStop = errors.New("stop")

type walker struct {
	ctx                  context.Context
	max                  int // PDFs
	maxEntries, maxDepth int
	seen                 int // entries read
	l                    Listing
}

// folder lists the folder at path (read there, reported under shown),
// rel below the top and depth folders deep.
func (w *walker) folder(path, shown, rel string, depth int) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	entries, err := w.read(f)
	f.Close()
	if err != nil && !errors.Is(err, errStop) {
		return err
	}
	budget := err // errStop when the budget ran out while reading
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, d := range entries {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		name := filepath.Join(rel, d.Name())
		full := filepath.Join(shown, d.Name())
		switch t := d.Type(); {
		case t.IsDir():
			if depth+1 > w.maxDepth {
				w.l.Deep++
				continue
			}
			err := w.folder(filepath.Join(path, d.Name()), full, name, depth+1)
			if errors.Is(err, errStop) {
				return err
			}
			if err := w.ctx.Err(); err != nil {
				return err
			} // any other error: an unreadable subfolder, skipped
		case t&fs.ModeSymlink != 0 || !t.IsRegular() || !convert.Known(name):
			w.l.SkippedCount++
			if len(w.l.Skipped) < maxSkippedNames {
				w.l.Skipped = append(w.l.Skipped, name)
			}
		default:
			w.l.Found++
			if len(w.l.PDFs) == w.max {
				return errStop // one past the cap: the folder holds more
			}
			w.l.PDFs = append(w.l.PDFs, full)
		}
	}
	return budget
}

// read reads f's entries as far as the entry budget; errStop (with the
// entries read) when it ran out, ctx's error when it was cancelled.
func (w *walker) read(f *os.File) ([]fs.DirEntry, error) {
	var out []fs.DirEntry
	for {
		if err := w.ctx.Err(); err != nil {
			return nil, err
		}
		room := w.maxEntries - w.seen
		if room <= 0 {
			w.l.Truncated = true
			return out, errStop
		}
		batch, err := f.ReadDir(min(room, readBatch))
		w.seen += len(batch)
		out = append(out, batch...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}
