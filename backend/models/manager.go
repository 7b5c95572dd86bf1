package models

import (
	"context"
	"errors"
	"fmt"

	"vika/backend/jobs"
	"vika/backend/message"
)

// ErrBusy is returned by Manager.Start for a model already downloading.
var ErrBusy = errors.New("this model is already downloading")

// Status is a registry model as the settings screen shows it.
type Status struct {
	Name       string   `json:"name"`
	Role       string   `json:"role"` // RoleEmbedder, RoleReranker or RoleImage
	Languages  []string `json:"languages"`
	License    string   `json:"license"`
	SizeMB     int      `json:"size_mb"` // download size
	Dimensions int      `json:"dimensions"`
	// Variant is the export chosen for this CPU: "full", or a quantized
	// one (Model.ForCPU).
	Variant string `json:"variant"`
	// Pinned says every file's revision, sha256 and size are in the
	// registry (always, for registry models: there is no trust on first
	// download).
	Pinned      bool `json:"pinned"`
	Installed   bool `json:"installed"`
	Downloading bool `json:"downloading"`
}

// Event reports a background download: the bytes of the file in transfer
// (the FileIndex-th of Files, 1-based), then one event with Finished set,
// with Error when it failed or was cancelled.
type Event struct {
	Name       string `json:"name"`
	File       string `json:"file"`
	FileIndex  int    `json:"file_index"`
	Files      int    `json:"files"`
	DoneBytes  int64  `json:"done_bytes"`
	TotalBytes int64  `json:"total_bytes"` // -1 when the server does not say
	Finished   bool   `json:"finished"`
	Error      string `json:"error,omitempty"`
	// Problem is the error as a code the window translates.
	Problem *message.Message `json:"problem,omitempty"`
}

// Manager runs downloads in the background for the desktop app, one at a
// time per model, each cancellable. The zero value downloads the registry's
// models into Root(); tests set Downloader (its Root and BaseURL) and
// Models.
type Manager struct {
	Downloader Downloader
	Models     []Model // nil: Registry()

	jobs jobs.Runner // downloads in flight by model name
}

func (m *Manager) models() []Model {
	if m.Models != nil {
		return m.Models
	}
	return Registry()
}

func (m *Manager) root() string {
	if m.Downloader.Root != "" {
		return m.Downloader.Root
	}
	return Root()
}

// Statuses lists every model with whether it is installed (verified on
// disk) or downloading.
func (m *Manager) Statuses() []Status {
	out := make([]Status, 0, len(m.models()))
	for _, md := range m.models() {
		busy := m.jobs.Running(md.Name)
		out = append(out, Status{
			Name: md.Name, Role: md.Role, Languages: md.Languages, License: md.License,
			SizeMB: md.ApproxSizeMB, Dimensions: md.Dimensions, Variant: md.Variant, Pinned: checkPinned(md) == nil,
			Installed: !busy && Installed(m.root(), md), Downloading: busy,
		})
	}
	return out
}

// Start downloads the model called name in the background, reporting to
// emit (called from the download's goroutine). Every file must match its
// pin (Downloader.Download): bytes that differ are refused.
func (m *Manager) Start(name string, emit func(Event)) error {
	var md Model
	found := false
	for _, x := range m.models() {
		if x.Name == name {
			md, found = x, true
		}
	}
	if !found {
		return fmt.Errorf("%w: %q", ErrUnknown, name)
	}
	d := m.Downloader
	index := map[string]int{}
	for i, f := range md.Files {
		index[f.Path] = i + 1
	}
	d.Progress = func(p Progress) {
		emit(Event{Name: name, File: p.File, FileIndex: index[p.File], Files: len(md.Files), DoneBytes: p.Done, TotalBytes: p.Total})
	}
	// A panic on the way (a bug, or in emit) fails the download
	// (crash.ErrInternal), its stack in the log; the app goes on.
	_, err := m.jobs.Start(context.Background(), name, func(ctx context.Context) error {
		if err := d.Download(ctx, md); err != nil {
			return err
		}
		_, err := Verify(m.root(), md)
		return err
	}, func(_ context.Context, err error) {
		ev := Event{Name: name, Files: len(md.Files), Finished: true}
		if err != nil {
			p := message.Of(err)
			if errors.Is(err, context.Canceled) {
				err = errors.New("download cancelled; it resumes where it stopped next time")
			}
			ev.Error, ev.Problem = err.Error(), &p
		}
		emit(ev)
	})
	if errors.Is(err, jobs.ErrBadID) { // a registry model's name: in use
		return fmt.Errorf("%w: %s", ErrBusy, name)
	}
	return err
}

// Cancel stops the download of name; it reports whether one was running.
func (m *Manager) Cancel(name string) bool { return m.jobs.Cancel(name) }

// Close cancels every download and waits for them to stop.
func (m *Manager) Close() { m.jobs.Close() }
