package ingest

import (
	"errors"
	"time"

	"vika/backend/message"
	"vika/backend/ocr"
	"vika/backend/pdf"
)

// pageProblem is the reason page n could not be read, from the reader's
// error: a message.Page* code with the page and what the code needs.
// budget is the page's time budget, named by a time-out.
func pageProblem(n int, err error, budget time.Duration) *message.Message {
	var m message.Message
	switch {
	case errors.Is(err, pdf.ErrTimeout):
		m = message.New(message.PageTimeout, "page", n, "limit", budget.String())
	case errors.Is(err, pdf.ErrPageSize):
		m = message.New(message.PageTooLarge, "page", n, "detail", err.Error())
	default:
		m = message.New(message.PageUnread, "page", n, "detail", err.Error())
	}
	return &m
}

// ocrProblem is the reason the OCR of page n failed: the error's own page
// code when the reader gave it one (a time-out or crash of its worker),
// else missing language data or a failure with the error's text.
func ocrProblem(n int, err error) *message.Message {
	m := message.Of(err)
	switch {
	case message.IsPage(m.Code):
	case errors.Is(err, ocr.ErrNoLanguageData):
		m = message.New(message.PageOCRNoData, "page", n, "detail", err.Error())
	default:
		m = message.New(message.PageOCRFailed, "page", n, "detail", err.Error())
	}
	return &m
}
