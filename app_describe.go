package main

import (
	"errors"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/engine"
	"vika/backend/message"
)

// describeAfterAdd starts describing a document just added when the
// settings ask for it (Settings.Describe); a problem is reported as that
// job's failure, never the add's.
func (a *App) describeAfterAdd(p engine.Progress) {
	if p.Stage != engine.StageDone || p.Doc == nil {
		return
	}
	if s, err := a.Settings(); err != nil || !s.Describe {
		return
	}
	_, _ = a.DescribeDocument(p.Doc.ID)
}

// DescribeDocument starts describing a document's figures (summarising
// its tables, transcribing its formulas into LaTeX, as the settings ask)
// with the model the settings name, and returns
// the job id; its progress goes out as ingest progress ("describing"),
// and Cancel stops it.
func (a *App) DescribeDocument(docID string) (string, error) {
	s, err := a.Settings()
	if err != nil {
		return "", err
	}
	if s.DescribeModel == "" {
		return "", message.Wrap(errors.New("no model is chosen to describe figures: pick one in Settings"), message.DescribeNoModel)
	}
	d, err := a.rag.Describer(a.ctx, s.DescribeModel)
	if err != nil {
		return "", err
	}
	emit := func(p engine.Progress) { runtime.EventsEmit(a.ctx, engine.EventIngestProgress, p) }
	return a.eng.StartDescribe(docID, d, engine.DescribeOptions{Max: s.DescribeMax, Tables: s.DescribeTables, Formulas: s.DescribeFormulas, Model: s.DescribeModel}, emit), nil
}
