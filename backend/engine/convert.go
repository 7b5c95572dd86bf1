package engine

import (
	"context"
	"errors"
	"log"

	"vika/backend/cache"
	"vika/backend/convert"
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

// keptPDF is the cache's part holding a converted PDF.
type keptPDF struct {
	PDF          []byte
	Format, Unit string
	Reflowed     bool
}

// prepare returns the PDF to read for a file of id named name, and the
// ingest source describing the file (zero for a PDF), and a warning for
// an Office file read without LibreOffice.
func (e *Engine) prepare(ctx context.Context, id, name string, data []byte) ([]byte, ingest.Source, *message.Message, error) {
	f, ok := convert.Detect(name, data)
	if !ok || f.Route == convert.RouteAsIs {
		return data, ingest.Source{}, nil, nil
	}
	c := e.cache.Load()
	key := cache.Key{Doc: id, Setup: e.converterSetup(), Part: cache.PartPDF}
	var k keptPDF
	if c != nil {
		if ok, err := c.Get(ctx, key, &k); ok && len(k.PDF) > 0 {
			return k.PDF, ingest.Source{ID: id, Format: k.Format, Unit: k.Unit}, reflowWarning(k.Reflowed, k.Format), nil
		} else if err != nil && !errors.Is(err, cache.ErrOff) {
			log.Printf("document cache: %v", err)
		}
	}
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

// converterSetup fingerprints what a conversion depends on: LibreOffice
// or MuPDF's handler alone.
func (e *Engine) converterSetup() string {
	if e.conv.Office != nil {
		return "convert-1+libreoffice"
	}
	return "convert-1"
}

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
