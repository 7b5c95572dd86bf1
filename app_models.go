package main

import "vika/backend/models"

// The models page API (frontend/src/lib/api/models.ts): the ONNX model
// manager's downloads and the model offer.

// LocalModels lists the model manager's optional embedding, reranking and
// image models
// with whether each is installed or downloading.
func (a *App) LocalModels() ([]models.Status, error) { return a.s.LocalModels(), nil }

// DownloadModel starts downloading a model in the background; progress,
// the outcome and any re-embedding go out as session events.
func (a *App) DownloadModel(name string) error { return a.s.DownloadModel(name) }

// CancelModelDownload stops a download; it reports whether one was running.
func (a *App) CancelModelDownload(name string) (bool, error) {
	return a.s.CancelModelDownload(name), nil
}

// ModelOffer returns the offer "Better search for English and French".
func (a *App) ModelOffer() (models.Offer, error) { return a.s.ModelOffer() }

// AnswerModelOffer remembers the answer to the offer and, when accepted,
// starts downloading its models.
func (a *App) AnswerModelOffer(accept bool) error { return a.s.AnswerModelOffer(accept) }
