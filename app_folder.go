package main

import (
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/session"
)

// PickFolder asks for a folder to add; "" when the student cancels.
func (a *App) PickFolder() (string, error) {
	return runtime.OpenDirectoryDialog(a.ctx, runtime.OpenDialogOptions{Title: "Add a folder"})
}

// AddFolder starts adding every PDF under dir and returns the batch.
func (a *App) AddFolder(dir string) (session.FolderBatch, error) { return a.s.AddFolder(a.ctx, dir) }

// AddDropped starts adding what was dropped onto the window: a folder
// adds every PDF under it (one batch, as AddFolder), a file is added.
func (a *App) AddDropped(paths []string) (session.Dropped, error) {
	return a.s.AddPaths(a.ctx, paths)
}
