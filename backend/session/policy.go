package session

import (
	"context"
	"errors"

	"vika/backend/engine"
	"vika/backend/message"
	"vika/backend/models"
	"vika/backend/prompt"
)

// describeAfterAdd starts describing a document just added when the
// settings ask for it (Settings.Describe); a problem is reported as that
// job's failure, never the add's. The settings are those in memory.
func (s *Session) describeAfterAdd(p engine.Progress) {
	s.afterAdd(p, func(st Settings) bool { return st.Describe }, func(docID string) { _, _ = s.Describe(s.life, docID) })
}

// afterAdd runs job on a document just added, in the background, when on
// says the settings ask for it: off the add's progress callback, since
// choosing the model may ask the provider (llm.Service.ProbeVision), which
// must not hold up the next add. Close waits for it.
func (s *Session) afterAdd(p engine.Progress, on func(Settings) bool, job func(docID string)) {
	if p.Stage != engine.StageDone || p.Doc == nil {
		return
	}
	if st, err := s.Settings(); err != nil || !on(st) {
		return
	}
	s.bgMu.Lock()
	defer s.bgMu.Unlock()
	if s.life.Err() != nil {
		return // closed
	}
	docID := p.Doc.ID
	s.background.Add(1)
	go func() {
		defer s.background.Done()
		job(docID)
	}()
}

// Describe starts describing a document's figures (summarising its
// tables, transcribing its formulas into LaTeX, as the settings ask) with
// the model the settings name, and returns the job id; its progress goes
// out as EventIngestProgress ("describing"), and Cancel stops it.
func (s *Session) Describe(ctx context.Context, docID string) (string, error) {
	st, err := s.Settings()
	if err != nil {
		return "", err
	}
	if st.DescribeModel == "" {
		return "", message.Wrap(errors.New("no model is chosen to describe figures: pick one in Settings"), message.DescribeNoModel)
	}
	model, err := s.assistant.DescribeModel(ctx, st.DescribeModel) // probed once a session (llm.Service.ProbeVision)
	if err != nil {
		return "", err
	}
	d, err := s.assistant.Describer(ctx, model)
	if err != nil {
		return "", err
	}
	o := engine.DescribeOptions{Max: st.DescribeMax, Tables: st.DescribeTables, Formulas: st.DescribeFormulas, Model: model, Prompt: prompt.DescribeVersion}
	return s.eng.StartDescribe(docID, d, o, func(p engine.Progress) { s.emit(EventIngestProgress, p) }), nil
}

// LocalModels lists the ONNX models (embedding, reranking, image) with
// whether each is installed or downloading.
func (s *Session) LocalModels() []models.Status { return s.models.Statuses() }

// DownloadModel starts downloading an ONNX model in the background;
// progress and the outcome go out as EventModelProgress. An embedding or
// image model, once installed, is put to use without a restart: the
// session's passages are embedded again (EventModelReembed).
func (s *Session) DownloadModel(name string) error {
	return s.models.Start(name, s.modelEvent)
}

// modelEvent emits a download's event and applies the re-embed rule.
func (s *Session) modelEvent(ev models.Event) {
	s.emit(EventModelProgress, ev)
	if !ev.Finished || ev.Error != "" {
		return
	}
	if m, err := models.Lookup(ev.Name); err == nil && (m.Role == models.RoleEmbedder || m.Role == models.RoleImage) {
		_ = s.eng.Reembed(func(p engine.ReembedProgress) { s.emit(EventModelReembed, p) })
	}
}

// CancelModelDownload stops a download; it reports whether one was running.
func (s *Session) CancelModelDownload(name string) bool { return s.models.Cancel(name) }

// ModelOffer returns the offer "Better search for English and French":
// the models still to download, their size, and the answer remembered. A
// damaged record is no error: the offer is simply made again.
func (s *Session) ModelOffer() (models.Offer, error) {
	o, err := s.models.Offer(s.offerPath())
	if err != nil && o.Models != nil {
		return o, nil
	}
	return o, err
}

// AnswerModelOffer remembers the answer to the offer and, when accepted,
// starts downloading its models (those already downloading are left as
// they are); declining changes nothing else. Accepting still downloads
// when the answer cannot be remembered.
func (s *Session) AnswerModelOffer(accept bool) error {
	answer := models.OfferDeclined
	if accept {
		answer = models.OfferAccepted
	}
	if err := models.SaveOfferAnswer(s.offerPath(), answer); err != nil && !accept {
		return err
	}
	if !accept {
		return nil
	}
	o, _ := s.models.Offer("")
	var errs []error
	for _, st := range o.Models {
		if err := s.DownloadModel(st.Name); err != nil && !errors.Is(err, models.ErrBusy) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
