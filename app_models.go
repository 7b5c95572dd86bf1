package main

import (
	"errors"
	"path/filepath"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/engine"
	"vika/backend/models"
	"vika/backend/settings"
)

// EventModelProgress carries models.Event values of background downloads.
const EventModelProgress = "models:progress"

// EventModelReembed carries engine.ReembedProgress values: the session's
// passages embedded again by a newly installed model, then the switch.
const EventModelReembed = "models:reembed"

// EmbeddingModels lists the optional embedding and reranker models with
// whether each is installed or downloading.
func (a *App) EmbeddingModels() ([]models.Status, error) { return a.models.Statuses(), nil }

// DownloadModel starts downloading a registry model in the background;
// progress and the outcome arrive as EventModelProgress events. An
// embedding model or CLIP, once installed, is put to use without a restart
// (EventModelReembed events).
func (a *App) DownloadModel(name string) error {
	return a.models.Start(name, a.onModelEvent)
}

// onModelEvent forwards a download's event and, when an embedding model
// finished installing, switches the session to the models now configured.
func (a *App) onModelEvent(ev models.Event) {
	runtime.EventsEmit(a.ctx, EventModelProgress, ev)
	if !ev.Finished || ev.Error != "" {
		return
	}
	if m, err := models.Lookup(ev.Name); err == nil && (m.Role == models.RoleEmbedder || m.Role == models.RoleImage) {
		_ = a.eng.Reembed(func(p engine.ReembedProgress) { runtime.EventsEmit(a.ctx, EventModelReembed, p) })
	}
}

// CancelModelDownload stops a download; it reports whether one was running.
func (a *App) CancelModelDownload(name string) (bool, error) { return a.models.Cancel(name), nil }

// offerPath is where the answer to the model offer is remembered: beside
// the settings file ("" without a configuration directory).
func offerPath() string {
	p, err := settings.Path()
	if err != nil {
		return ""
	}
	return filepath.Join(filepath.Dir(p), "model-offer.json")
}

// ModelOffer returns the offer "Better search for English and French":
// the models still to download, their size, and the answer remembered.
func (a *App) ModelOffer() (models.Offer, error) {
	o, err := a.models.Offer(offerPath())
	if err != nil && o.Models != nil {
		return o, nil // a damaged record: the offer is simply made again
	}
	return o, err
}

// AnswerModelOffer remembers the answer to the offer and, when accepted,
// starts downloading its models (those already downloading are left as
// they are); declining changes nothing else.
func (a *App) AnswerModelOffer(accept bool) error {
	answer := models.OfferDeclined
	if accept {
		answer = models.OfferAccepted
	}
	if err := models.SaveOfferAnswer(offerPath(), answer); err != nil && !accept {
		return err
	}
	if !accept {
		return nil
	}
	o, _ := a.models.Offer("")
	var errs []error
	for _, st := range o.Models {
		if err := a.DownloadModel(st.Name); err != nil && !errors.Is(err, models.ErrBusy) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
