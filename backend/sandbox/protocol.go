package sandbox

import (
	"context"
	"errors"
	"time"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/message"
	"vika/backend/ocr"
	"vika/backend/pdf"
)

// Operations of a request.
const (
	opOpen = "open" // open Data as the worker's document (closing any other)
	opPage = "page" // read page Page
	opOCR  = "ocr"  // OCR Target
	opCrop = "crop" // render Crop of page Page at DPI as a PNG
	// opConvert writes Data, a file of kind Kind that MuPDF opens (an
	// image, EPUB, ...), as a PDF (pdf.WritePDF); no document is opened.
	opConvert = "convert"
)

// request is one call to the worker.
type request struct {
	Op     string
	Data   []byte
	Opts   options
	Page   int
	Target ingest.OCRTarget
	Crop   pdf.Rect
	DPI    float64
	// NoCrops: the document has spent its crop budget; figures come
	// without crops from this page on.
	NoCrops bool
	// Kind and MaxSide are opConvert's: the file's kind for MuPDF and
	// the longest page side kept (pdf.WritePDF).
	Kind    string
	MaxSide float64
	// Fault makes the worker crash ("crash"), hang ("hang") or allocate
	// without bound ("alloc") instead of serving the request. Honoured
	// only by workers started with envFaults (tests).
	Fault string
}

// options are the parts of ingest.Options the worker needs.
type options struct {
	Limits                  pdf.Limits
	OCRDPI                  float64
	PageTimeout, OCRTimeout time.Duration
	Regions                 bool
}

// response is the worker's answer to one request.
type response struct {
	Err       *wireError
	Pages     int
	Truncated bool
	Meta      corpus.Meta           // with Pages, on open
	Outline   []corpus.OutlineEntry // with Pages, on open
	Page      ingest.PageResult
	Text      ingest.OCRText
	Image     []byte // the PNG of a crop
	PDF       []byte // the PDF of a conversion, with Pages
	// CPU is the worker's CPU time so far (user + system), to retire
	// workers before RLIMIT_CPU kills them.
	CPU time.Duration
	// RSS is the worker's resident memory after the request, in bytes (0
	// where the system does not say), to retire a worker a document
	// bloated.
	RSS int64
	// Peak is the worker's own peak resident memory so far (VmHWM), in
	// bytes (0 where the system does not say): the figure the kernel
	// gives for an ended worker (ru_maxrss) also counts the app's
	// resident set when the worker was started (vfork).
	Peak int64
}

// wireError carries an error across the pipe with the sentinel it wraps.
type wireError struct {
	Msg     string
	Kind    int             // index into sentinels + 1; 0: none
	Message message.Message // its code for the window (package message)
}

// sentinels are the errors whose identity survives the pipe, the more
// specific first (pdf.ErrTimeout wraps pdf.ErrPage).
var sentinels = []error{
	pdf.ErrTimeout, pdf.ErrPageSize, pdf.ErrPage,
	pdf.ErrEmpty, pdf.ErrNotPDF, pdf.ErrEncrypted, pdf.ErrCorrupt, pdf.ErrNoPages, pdf.ErrTooLarge,
	ocr.ErrTimeout, ocr.ErrNoLanguageData, ocr.ErrClosed, ocr.ErrImage, ocr.ErrTesseract,
	context.DeadlineExceeded, context.Canceled,
}

func toWire(err error) *wireError {
	if err == nil {
		return nil
	}
	w := &wireError{Msg: err.Error(), Message: message.Of(err)}
	for i, s := range sentinels {
		if errors.Is(err, s) {
			w.Kind = i + 1
			break
		}
	}
	return w
}

// remoteError is an error of the worker: its message, and its sentinel
// for errors.Is.
type remoteError struct {
	msg    string
	target error
}

func (e *remoteError) Error() string { return e.msg }
func (e *remoteError) Unwrap() error { return e.target }

func (w *wireError) err() error {
	if w == nil {
		return nil
	}
	e := &remoteError{msg: w.Msg}
	if w.Kind > 0 && w.Kind <= len(sentinels) {
		e.target = sentinels[w.Kind-1]
	}
	if w.Message.Code != "" && w.Message.Code != message.Other {
		return &message.Error{Msg: w.Message, Err: e}
	}
	return e
}
