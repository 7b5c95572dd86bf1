package session

import (
	"context"
	"os"

	"vika/backend/folder"
)

// Dropped is what a drop onto the window started: a job per PDF, in the
// order dropped, and a batch per folder (course files are opened).
type Dropped struct {
	Files   []string      `json:"files"`   // the paths that are not folders (PDFs, course files)
	Jobs    []string      `json:"jobs"`    // one per Files
	Folders []FolderBatch `json:"folders"` // one per folder, in the order dropped
}

// AddPaths starts adding what was dropped: a folder adds every PDF under
// it as AddFolder does (the same cap, the files skipped, one batch); the
// other paths go to OpenFiles (a course file is opened, anything else is
// added as a PDF, one that is not fails on its own row). Every folder is
// listed before anything starts, so that a folder that cannot be read
// fails the call with nothing added.
func (s *Session) AddPaths(ctx context.Context, paths []string) (Dropped, error) {
	d := Dropped{Files: []string{}, Jobs: []string{}, Folders: []FolderBatch{}}
	var files []string
	var listings []folder.Listing
	for _, p := range paths {
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			files = append(files, p)
			continue
		}
		l, err := folder.PDFs(ctx, p, folder.DefaultMax)
		if err != nil {
			return Dropped{}, err
		}
		listings = append(listings, l)
	}
	d.Files = append(d.Files, files...)
	d.Jobs = append(d.Jobs, s.OpenFiles(files)...)
	for _, l := range listings {
		d.Folders = append(d.Folders, s.startBatch(l))
	}
	return d, nil
}
