package bench

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"vika/backend/corpus"
	"vika/backend/ingest"
)

// WriteText writes r as readable tables.
func WriteText(w io.Writer, r Report) error {
	p := &printer{w: w}
	p.f("Vika ingest benchmark: %s\n", r.Dir)
	p.f("%d CPUs, %d interleaved rounds per comparison (ours first in odd rounds), %.1f s in all.\n", r.CPUs, r.Rounds, r.Seconds)
	p.f("Speeds are compared as ratios to a reference run side by side: on a shared machine absolute pages/s move with the load.\n")
	if t := r.Text; t != nil {
		p.text(t)
	}
	if o := r.OCR; o != nil {
		p.ocr(o)
	}
	if m := r.Memory; m != nil {
		p.memory(m)
	}
	p.files(r.Files)
	if len(r.Skipped) > 0 {
		p.f("\nNot measured:\n")
		for _, s := range r.Skipped {
			p.f("  - %s\n", s)
		}
	}
	return p.err
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

func (p *printer) text(t *TextResult) {
	p.f("\n1. Text pages/s end to end without OCR or embedding (validate, extract, classify, language, chunk, store, index) vs `pdftotext FILE -`\n")
	p.f("   %d born-digital files, %d pages per round, one file at a time on both sides", len(t.Files), t.Pages)
	if len(t.Excluded) > 0 {
		p.f("; left out (scanned or unreadable): %s", strings.Join(t.Excluded, ", "))
	}
	p.f("\n")
	p.rounds(t.Comparison, "ours s", "pdftotext s")
	p.verdict(t.Comparison, "ours", "pdftotext", fmt.Sprintf("aim >= %.2f (a third of pdftotext)", t.Aim))
	p.f("   our stages, mean s per round: %s\n", stages(t.Stages, false))
	p.f("   non-space characters extracted per round: ours %d, pdftotext %d\n", t.OursChars, t.ReferenceChars)
}

func (p *printer) ocr(o *OCRResult) {
	p.f("\n2. OCR pages/s: our Tesseract pool (%d workers, a new pool per round: model loading included) vs the tesseract CLI (%d processes at a time, OMP_THREAD_LIMIT=1)\n", o.Workers, o.Workers)
	p.f("   first %d page(s) of %s rendered once at %d DPI (%.1f s); CLI: tesseract PAGE.png %s\n", o.Pages, o.File, o.DPI, o.RenderSec, strings.Join(o.CLIArgs, " "))
	p.rounds(o.Comparison, "pool s", "CLI s")
	p.verdict(o.Comparison, "pool", "CLI", fmt.Sprintf("aim >= %.2f (within 1.3x of the CLI)", o.Aim))
	p.f("   non-space characters recognised per round: pool %d, CLI %d\n", o.OursChars, o.ReferenceChars)
}

func (p *printer) rounds(c Comparison, ours, ref string) {
	tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "   round\tfirst\t%s\t%s\tratio\n", ours, ref)
	for i, r := range c.Rounds {
		first := strings.TrimSuffix(ref, " s")
		if r.OursFirst {
			first = strings.TrimSuffix(ours, " s")
		}
		fmt.Fprintf(tw, "   %d\t%s\t%.2f\t%.2f\t%.2f\n", i+1, first, r.Ours, r.Reference, r.Ratio())
	}
	if err := tw.Flush(); err != nil && p.err == nil {
		p.err = err
	}
}

func (p *printer) verdict(c Comparison, ours, ref, aim string) {
	p.f("   %s %.2f pages/s, %s %.2f pages/s: ratio %.2f (rounds %.2f to %.2f); %s: %s\n",
		ours, c.OursRate, ref, c.ReferenceRate, c.Ratio, c.RatioMin, c.RatioMax, aim, met(c.Met))
}

func (p *printer) memory(m *MemoryResult) {
	p.f("\n3. Peak memory: `%s %s` in a child process (the real engine, OCR included)\n", strings.Join(m.Command, " "), m.File)
	p.f("   peak RSS %.1f MB (%s); aim < %.0f MB: %s\n", m.PeakRSSMB, m.Source, m.Aim, met(m.Met))
	p.f("   %d pages %s, %d OCRed, %d chunks, lang %s; child wall time %.2f s\n", m.Pages, types(m.PageTypes), m.OCRPages, m.Chunks, orUnd(m.Lang), m.Seconds)
	p.f("   stages, s: %s\n", stages(m.Stages, true))
}

func (p *printer) files(rows []FileRow) {
	p.f("\n4. Files (survey ingest, text layer only: the OCR text of scanned and mixed pages is not in chunks or languages)\n")
	tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "   file\tpages\ttext\tillustr.\tmixed\tscanned\tneeds OCR\tchunks\tlang\tsurvey s\tset\n")
	for _, r := range rows {
		set := "text"
		switch {
		case r.Scanned:
			set = "scanned"
		case r.Error != "":
			set = "rejected: " + r.Error
		}
		t := r.PageTypes
		fmt.Fprintf(tw, "   %s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%.2f\t%s\n", r.File, r.Pages,
			t[corpus.PageText], t[corpus.PageIllustrative], t[corpus.PageMixed], t[corpus.PageScanned],
			r.OCRNeeded, r.Chunks, langLabel(r), total(r.Seconds), set)
	}
	if err := tw.Flush(); err != nil && p.err == nil {
		p.err = err
	}
}

// langLabel is the main language, or the shares of a mixed document
// (those of at least 5%, largest first).
func langLabel(r FileRow) string {
	if !r.LangMixed || len(r.LangShares) == 0 {
		return orUnd(r.Lang)
	}
	type share struct {
		lang string
		v    float64
	}
	var ss []share
	for l, v := range r.LangShares {
		if v >= 0.05 {
			ss = append(ss, share{l, v})
		}
	}
	sort.Slice(ss, func(i, j int) bool { return ss[i].v > ss[j].v || ss[i].v == ss[j].v && ss[i].lang < ss[j].lang })
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = fmt.Sprintf("%s %.0f%%", s.lang, math.Round(100*s.v))
	}
	return strings.Join(parts, " ")
}

// stages lists the stage seconds (the OCR stage only if withOCR).
func stages(t ingest.Timings, withOCR bool) string {
	parts := []string{fmt.Sprintf("validate %.2f", t.Validate), fmt.Sprintf("extract %.2f", t.Extract)}
	if withOCR {
		parts = append(parts, fmt.Sprintf("ocr %.2f", t.OCR))
	}
	parts = append(parts, fmt.Sprintf("language %.2f", t.Lang), fmt.Sprintf("chunk %.2f", t.Chunk), fmt.Sprintf("index %.2f", t.Index),
		fmt.Sprintf("total %.2f", total(t)))
	return strings.Join(parts, ", ")
}

func total(t ingest.Timings) float64 {
	return t.Validate + t.Extract + t.OCR + t.Lang + t.Chunk + t.Index
}

// types lists page-type counts in a fixed order.
func types(m map[corpus.PageType]int) string {
	var parts []string
	for _, t := range []corpus.PageType{corpus.PageText, corpus.PageIllustrative, corpus.PageMixed, corpus.PageScanned} {
		if m[t] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", t, m[t]))
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func met(ok bool) string {
	if ok {
		return "MET"
	}
	return "NOT MET"
}

func orUnd(lang string) string {
	if lang == "" {
		return "und"
	}
	return lang
}
