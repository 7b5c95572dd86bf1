package main

import (
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/folder"
)

// FolderBatch is a folder being added: one job per PDF, and what was left.
type FolderBatch struct {
	folder.Listing
	Jobs   []string `json:"jobs"` // one per PDF of Listing.PDFs
	Capped bool     `json:"capped"`
	Max    int      `json:"max"`
}

// PickFolder asks for a folder to add; "" when the student cancels.
func (a *App) PickFolder() (string, error) {
	return runtime.OpenDirectoryDialog(a.ctx, runtime.OpenDialogOptions{Title: "Add a folder"})
}

// AddFolder starts adding every PDF under dir (folder.PDFs) and returns
// the batch.
func (a *App) AddFolder(dir string) (FolderBatch, error) {
	l, err := folder.PDFs(a.ctx, dir, folder.DefaultMax)
	if err != nil {
		return FolderBatch{}, err
	}
	b := FolderBatch{Listing: l, Capped: l.Capped(), Max: folder.DefaultMax}
	b.Jobs, err = a.AddFiles(l.PDFs)
	return b, err
}
