package engine

import (
	"context"
	"errors"
	"log"
	"slices"
	"strings"

	"vika/backend/cache"
	"vika/backend/convert"
	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/message"
	"vika/backend/pdf"
	"vika/backend/sandbox"
)

// A file that is not a PDF (an image, an EPUB, a slide deck, a Word
// file, ...) is converted to one (package convert) once its id, the
// SHA-256 of the file's own bytes, has passed the duplicate check; the
// pipeline then reads the PDF, and the session keeps and shows it. With
// the cache on, the PDF is kept there under the file's id, so that adding
// the file again converts nothing.

// convertedSource is src for a file converted to pdf: the cache's
// entries of what was read from that PDF are kept under the file's id and
// the PDF's own SHA-256, so that a PDF converted again otherwise (by
// LibreOffice once installed, where MuPDF's handler read the file before)
// is read again rather than taken for the other.
func convertedSource(src keptSource, source ingest.Source, pdf []byte) keptSource {
	if s, ok := src.(cacheSource); ok && source.ID != "" {
		s.setup = fingerprint(s.setup, "pdf:"+ingest.DocID(pdf))
		return s
	}
	return src
}

// keptPDF is the cache's part holding a converted PDF.
type keptPDF struct {
	PDF          []byte
	Format, Unit string
	Reflowed     bool
}

// prepare returns the PDF to read for a file of id named name, and the
// ingest source describing the file (zero for a PDF), and a warning for
// an Office file read without LibreOffice. converting is called when a
// conversion starts (not for a PDF, nor one the cache keeps).
func (e *Engine) prepare(ctx context.Context, id, name string, data []byte, converting func()) ([]byte, ingest.Source, *message.Message, error) {
	f, ok := convert.Detect(name, data)
	if err := convert.Refused(data); !ok && err != nil {
		return nil, ingest.Source{}, nil, err
	}
	if !ok || f.Route == convert.RouteAsIs {
		return data, ingest.Source{}, nil, nil
	}
	c := e.cache.Load()
	key := cache.Key{Doc: id, Setup: e.converterSetup(), Part: cache.PartPDF}
	var k keptPDF
	if c != nil {
		// A PDF MuPDF's handler made while LibreOffice was missing is
		// made again once it is there; LibreOffice's is kept either way.
		if ok, err := c.Get(ctx, key, &k); ok && len(k.PDF) > 0 && !(k.Reflowed && e.conv.Office != nil) {
			return k.PDF, ingest.Source{ID: id, Format: k.Format, Unit: k.Unit}, reflowWarning(k.Reflowed, k.Format), nil
		} else if err != nil && !errors.Is(err, cache.ErrOff) {
			log.Printf("document cache: %v", err)
		}
	}
	converting()
	res, err := e.conv.ToPDF(ctx, name, data)
	if err != nil {
		return nil, ingest.Source{}, nil, err
	}
	unit := res.Format.Unit
	if unit == convert.UnitPage {
		unit = ""
	}
	if c != nil {
		k = keptPDF{PDF: res.PDF, Format: res.Format.ID, Unit: unit, Reflowed: res.Reflowed}
		if err := c.Put(ctx, key, k); err != nil && !errors.Is(err, cache.ErrOff) {
			log.Printf("document cache: keep the PDF of %s: %v", name, err)
		}
	}
	return res.PDF, ingest.Source{ID: id, Format: res.Format.ID, Unit: unit}, reflowWarning(res.Reflowed, res.Format.ID), nil
}

func reflowWarning(reflowed bool, format string) *message.Message {
	if !reflowed {
		return nil
	}
	m := message.New(message.Reflowed, "format", format)
	return &m
}

// converterSetup names the converters' version in the cache's keys.
func (e *Engine) converterSetup() string { return "convert-1" }

// newConverter makes the session's converter: MuPDF's handlers in the
// PDF workers, LibreOffice when cfg.Office names it.
func newConverter(cfg Config, reader *sandbox.Opener) *convert.Converter {
	c := &convert.Converter{Worker: reader, Limits: pdf.Limits{MaxBytes: cfg.MaxFileBytes, MaxPages: cfg.MaxPages}}
	if cfg.Office != "" && cfg.Office != "off" {
		c.Office = &convert.Office{Path: cfg.Office}
	}
	return c
}

// OfficeInstalled reports whether the session converts Office files with
// LibreOffice (else MuPDF's handler reads docx, pptx and xlsx as text).
func (e *Engine) OfficeInstalled() bool { return e.conv.Office != nil }

// courseOrigin is the file a course's PDF was converted from, as its
// processed document says (its id, format and unit), zero when it is the
// PDF itself or the claim does not hold together: an id of 64 hex digits
// other than the PDF's, a format Vika converts, a unit it knows.
func courseOrigin(d corpus.Document, pdfID string) ingest.Source {
	if d.Format == "" || d.ID == pdfID || len(d.ID) != 64 || strings.Trim(d.ID, "0123456789abcdef") != "" ||
		!slices.Contains(convert.Extensions, d.Format) && d.Format != "jpeg" || d.Unit != "" && d.Unit != corpus.UnitSlide {
		return ingest.Source{}
	}
	return ingest.Source{ID: d.ID, Format: d.Format, Unit: d.Unit}
}
