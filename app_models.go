package main

import (
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/models"
)

// EventModelProgress carries models.Event values of background downloads.
const EventModelProgress = "models:progress"

// EmbeddingModels lists the optional embedding and reranker models with
// whether each is installed or downloading.
func (a *App) EmbeddingModels() ([]models.Status, error) { return a.models.Statuses(), nil }

// DownloadModel starts downloading a registry model in the background;
// progress and the outcome arrive as EventModelProgress events.
func (a *App) DownloadModel(name string) error {
	return a.models.Start(name, func(ev models.Event) { runtime.EventsEmit(a.ctx, EventModelProgress, ev) })
}

// CancelModelDownload stops a download; it reports whether one was running.
func (a *App) CancelModelDownload(name string) (bool, error) { return a.models.Cancel(name), nil }
