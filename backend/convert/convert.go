// Package convert names the format of a file a student adds and turns
// what is not a PDF into the PDF the rest of the pipeline reads: images
// (one page each, read by OCR like a scan), EPUB, XPS, CBZ, FB2 and MOBI
// through MuPDF's own handlers in a supervised worker (package sandbox,
// pdf.WritePDF), and Office files (pptx, docx, odp, odt, xlsx, ods, the
// old binary ones, RTF) through LibreOffice with their layout, one page
// per slide (office.go), run under the worker's kind of limits.
// Without LibreOffice, MuPDF's Office handler reads docx, pptx and xlsx
// as reflowed text (slides run together: the document carries a warning
// saying so and how to install LibreOffice); the other Office formats are
// refused with a code saying the same.
//
// The document keeps the original file's SHA-256 as its id, its name and
// its format; its pages are cited as slides for a slide deck
// (corpus.CitationLabel).
package convert

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"vika/backend/imagehead"
	"vika/backend/message"
	"vika/backend/pdf"
)

// Errors, each with its message code.
var (
	// ErrNeedsOffice: an Office format MuPDF does not read, and no
	// LibreOffice to convert it.
	ErrNeedsOffice = errors.New("this Office file needs LibreOffice")
	// ErrOffice: LibreOffice failed on the file (or ran over its limits).
	ErrOffice = errors.New("LibreOffice could not convert the file")
	// ErrUnreadable: MuPDF could not read a file that is not a PDF (a
	// damaged image or book, or one over the worker's budgets).
	ErrUnreadable = errors.New("the file cannot be read")
)

func init() {
	message.Register(ErrNeedsOffice, message.NeedsOffice)
	message.Register(ErrOffice, message.OfficeFailed)
	message.Register(ErrUnreadable, message.Unreadable)
}

// Worker writes a file MuPDF opens as PDF in a supervised worker
// (*sandbox.Opener).
type Worker interface {
	Convert(ctx context.Context, data []byte, kind string, maxSide float64, lim pdf.Limits, timeout time.Duration) ([]byte, error)
}

// Converter turns files into PDFs.
type Converter struct {
	// Worker runs MuPDF's handlers.
	Worker Worker
	// Office is LibreOffice; nil when it is not installed (or turned off).
	Office *Office
	// Limits bound the PDF a conversion may give (its bytes and pages).
	Limits pdf.Limits
	// Timeout bounds one conversion by MuPDF (zero: the worker's page
	// budget); LibreOffice has its own (Office.Timeout).
	Timeout time.Duration
}

// Result is a file made ready for the pipeline.
type Result struct {
	Format Format
	// PDF is the file itself for a PDF, else its conversion.
	PDF []byte
	// Reflowed: an Office file read by MuPDF's handler without
	// LibreOffice, as reflowed text (its slides or pages not kept).
	Reflowed bool
	// Took is the conversion's time (0 for a PDF).
	Took time.Duration
}

// ToPDF names data's format (Detect) and returns the PDF to read. A
// file of no known format goes on as is: package pdf's check refuses it
// with what it looks like.
func (c *Converter) ToPDF(ctx context.Context, name string, data []byte) (Result, error) {
	f, ok := Detect(name, data)
	if err := Refused(data); !ok && err != nil {
		return Result{}, err
	}
	if !ok || f.Route == RouteAsIs {
		return Result{Format: pdfFormat, PDF: data}, nil
	}
	if f.Image() {
		// The header's size, before a decoder is asked for its memory
		// (the worker's limits bound what the header does not tell).
		switch _, err := imagehead.Check(data); {
		case errors.Is(err, imagehead.ErrDamaged):
			return Result{}, unreadable(f, err)
		case err != nil && !errors.Is(err, imagehead.ErrUnknown):
			return Result{}, err
		}
	}
	start := time.Now()
	res := Result{Format: f}
	var err error
	switch {
	case f.Route == RouteMuPDF:
		maxSide := 0.0
		if f.Image() {
			maxSide = pdf.MaxImageSide
		}
		res.PDF, err = c.Worker.Convert(ctx, data, f.Kind, maxSide, c.Limits, c.Timeout)
	case c.Office != nil:
		res.PDF, err = c.Office.ToPDF(ctx, data, f, c.Limits)
	case reflowable(f):
		res.Reflowed = true
		res.Format.Unit = UnitPage // MuPDF's pages are not the slides
		res.PDF, err = c.Worker.Convert(ctx, data, f.Kind, 0, c.Limits, c.Timeout)
	default:
		err = message.Wrap(fmt.Errorf("%w: Vika converts %s files with LibreOffice, which is not installed: %s", ErrNeedsOffice, f.ID, installOffice),
			message.NeedsOffice, "format", f.ID)
	}
	res.Took = time.Since(start)
	if err != nil && f.Route != RouteOffice || err != nil && res.Reflowed {
		err = unreadable(f, err)
	}
	if err != nil {
		return Result{}, err
	}
	return res, nil
}

// installOffice says how to get LibreOffice, for the command line's
// English (the window's is the message code's).
const installOffice = "install LibreOffice (on Debian: sudo apt install libreoffice-impress-nogui libreoffice-writer-nogui), or save the file as PDF"

// Refused returns the error of a file Vika recognises but cannot read
// at all (a HEIC or AVIF photo: imagehead.ErrHEIC, with its code), so
// that it is not reported as "not a PDF"; nil for any other file.
func Refused(data []byte) error {
	if imagehead.Sniff(data) == "heic" {
		_, err := imagehead.Read(data)
		return err
	}
	return nil
}

// reflowable reports whether MuPDF's Office handler reads the format.
func reflowable(f Format) bool {
	switch f.ID {
	case "docx", "pptx", "xlsx":
		return true
	}
	return false
}

// unreadable recodes MuPDF's failures on a file that is not a PDF: a
// damaged file, one with no page, or one over the worker's time says so
// with the file's format (ErrUnreadable); the page and size limits keep
// their own codes.
func unreadable(f Format, err error) error {
	switch {
	case errors.Is(err, pdf.ErrTooLarge), errors.Is(err, pdf.ErrEncrypted), errors.Is(err, context.Canceled):
		return err
	}
	// MuPDF's reason, without the PDF sentinels' words ("damaged PDF: ")
	// that do not fit a file that is not one.
	why := err.Error()
	for _, s := range []error{pdf.ErrCorrupt, pdf.ErrNoPages, pdf.ErrTimeout} {
		why = strings.TrimPrefix(why, s.Error()+": ")
	}
	if errors.Is(err, pdf.ErrTimeout) {
		return message.Wrap(fmt.Errorf("%w: %s", ErrUnreadable, why), message.TooSlow, "format", f.ID)
	}
	return message.Wrap(fmt.Errorf("%w: %s", ErrUnreadable, why), message.Unreadable, "format", f.ID)
}
