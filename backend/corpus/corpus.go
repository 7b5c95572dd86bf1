// Package corpus holds the types that flow through Vika's pipeline: documents,
// pages, chunks and search hits, and the one "not found" error. It has no
// behaviour beyond labelling, so every stage (pdf, chunk, index, store,
// ingest) can depend on it without cycles.
package corpus

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"vika/backend/message"
)

// PageType is the classification of one PDF page (package pdf classifies).
type PageType string

const (
	PageText         PageType = "text"
	PageIllustrative PageType = "illustrative"
	PageMixed        PageType = "mixed"
	PageScanned      PageType = "scanned"
)

// ErrNotFound is the error (wrapped with the id) for a document that is not
// in the session; the store, the engine and the document server all
// return it.
var ErrNotFound = errors.New("document not found")

// Document is one PDF added to the session.
type Document struct {
	ID    string `json:"doc_id"` // SHA-256 of the file bytes, hex
	File  string `json:"file"`   // original file name, used in citations
	Label string `json:"label"`  // display name, unique in the session (file, or file (2) for a same-named twin)
	Bytes int64  `json:"bytes"`
	// Format is the kind of file added when it was not a PDF ("pptx",
	// "docx", "epub", "png", ...; package convert), "" for a PDF; the
	// session holds and shows the PDF it was converted to. Unit is what
	// its pages are called: "slide" for a slide deck, "" for pages.
	Format string `json:"format,omitempty"`
	Unit   string `json:"unit,omitempty"`
	Pages  int    `json:"pages"`
	Chunks int    `json:"chunks"`
	// Vectors counts the vectors the session holds for the document's
	// passages, by the model that embedded them (a text model's name, or
	// the image model's for figure crops); filled when the document is
	// listed or added, nil when no model embedded it. Embedding is set
	// while its vectors are still being computed (an embedding that runs
	// after the document is searchable by keywords): the counts are not
	// final then, and the window says "embedding…" rather than a count.
	Vectors   map[string]int `json:"vectors,omitempty"`
	Embedding bool           `json:"embedding,omitempty"`
	// Reading counts the pages whose OCR is still to come while the
	// document is already searchable by the words of its other pages
	// (ingest.Options.Interim); 0 once every page is read.
	Reading int `json:"reading,omitempty"`
	// FailedPages lists the 1-based pages whose text could not be
	// extracted (the rest of the document is still usable).
	FailedPages []int `json:"failed_pages,omitempty"`
	// Warning says what may be wrong with a document that was still
	// added, e.g. a truncated file whose last pages are missing (a message
	// code the window translates); nil when nothing is.
	Warning *message.Message `json:"warning,omitempty"`
	// Regions counts the tables, figures and display formulas found (by
	// kind: table, figure, formula); nil when detection was off or found
	// none.
	Regions map[ChunkKind]int `json:"regions,omitempty"`
	// Meta is the PDF's document information (title, author, ...).
	Meta Meta `json:"meta"`
	// Outline lists the PDF's bookmarks in document order; nil when it
	// has none.
	Outline []OutlineEntry `json:"outline,omitempty"`
	// Links lists the document's links to outside it, each target once
	// (its first page), at most MaxLinks; nil when it has none.
	Links []Link `json:"links,omitempty"`
	// PageTypes counts the pages of each type.
	PageTypes map[PageType]int `json:"page_types"`
	// OCRPages counts the pages whose text (or part of it) was recognised
	// by OCR.
	OCRPages int `json:"ocr_pages"`
	// Lang is the main language (ISO 639-1, "" when undetermined), with
	// the share of each language's letters and whether a second language
	// holds a real share.
	Lang       string             `json:"lang"`
	LangShares map[string]float64 `json:"lang_shares,omitempty"`
	LangMixed  bool               `json:"lang_mixed"`
}

// Page is one page of a document, as extracted.
type Page struct {
	DocID  string   `json:"doc_id"`
	Number int      `json:"page"` // 1-based PDF page index
	Type   PageType `json:"type"`
	Text   string   `json:"text"`
	Width  float64  `json:"width"`  // points
	Height float64  `json:"height"` // points
	// Problem says why the page's text could not be extracted (a
	// message.Page* code and its parameters); nil when it could.
	Problem *message.Message `json:"problem,omitempty"`
	// Lang is the page's language (ISO 639-1); a page too short to tell
	// takes the document's. LangConfidence is 0 in that case.
	Lang           string  `json:"lang"`
	LangConfidence float64 `json:"lang_confidence"`
	// OCRConfidence is the mean word confidence (0..1) of the OCR that
	// produced (part of) Text; nil when no OCR ran on the page.
	OCRConfidence *float64 `json:"ocr_confidence"`
	// Lines describes the text layer's lines in reading order, or a
	// scanned page's OCR lines (placed from the OCR word boxes, Size 0).
	// OCR text appended after a mixed page's text layer has no lines.
	Lines []Line `json:"lines,omitempty"`
	// Regions are the page's tables, figures and display formulas, its
	// form fields and its annotations' notes.
	Regions []Region `json:"regions,omitempty"`
	// Links are the page's links to outside the document.
	Links []Link `json:"links,omitempty"`
}

// Link is a link annotation pointing outside the document: its target as
// written (http(s), mailto:, file:, ...; only http(s) targets are shown
// as links, every other one as text) and where it is on its page.
type Link struct {
	Page int        `json:"page"`
	URI  string     `json:"uri"`
	BBox [4]float64 `json:"bbox"`
}

// Web reports whether the link's target is an http or https address.
func (l Link) Web() bool {
	u := strings.ToLower(l.URI)
	return strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")
}

// Failed reports whether the page's text could not be extracted.
func (p Page) Failed() bool { return p.Problem != nil }

// Line is one line of a page's text layer: where it sits in Page.Text,
// where it is drawn (to highlight a passage) and how it is set (to find
// headings, running headers and footers).
type Line struct {
	Start int        `json:"start"` // rune offsets into Page.Text
	End   int        `json:"end"`
	BBox  [4]float64 `json:"bbox"` // x0, y0, x1, y1 in points, origin at the top left
	Size  float64    `json:"size"` // font size, points; 0 for an OCR line
	Bold  bool       `json:"bold,omitempty"`
	Block int        `json:"block"` // index of its block (paragraph) on the page
}

// ChunkKind tells what part of a document a chunk comes from, so that
// retrieval can weigh it.
type ChunkKind string

const (
	ChunkBody       ChunkKind = "body"
	ChunkFront      ChunkKind = "front"      // table of contents, lists of figures, acknowledgements
	ChunkReferences ChunkKind = "references" // bibliography entries
	// Passages made from a page's Regions rather than from its running
	// text: a table as Markdown with its caption, a figure's caption with
	// the text inside it (and its description when there is one), a
	// display equation.
	ChunkTable   ChunkKind = "table"
	ChunkFigure  ChunkKind = "figure"
	ChunkFormula ChunkKind = "formula"
	// Passages of what a page holds besides its drawn text: a form's
	// fields with their values (AcroForm fields, or "Label: value" lines),
	// and annotations written in other readers (text notes, highlights'
	// comments, free text).
	ChunkForm ChunkKind = "form"
	ChunkNote ChunkKind = "note"
)

// The kinds of passages, each list in the order the window shows them:
// the running text's, the regions found on a page's layout (a table, a
// figure, a display formula), and the marks a page holds besides its
// drawn text (a form's fields, a note written in another reader).
var (
	TextKinds   = []ChunkKind{ChunkBody, ChunkFront, ChunkReferences}
	LayoutKinds = []ChunkKind{ChunkTable, ChunkFigure, ChunkFormula}
	MarkKinds   = []ChunkKind{ChunkForm, ChunkNote}
)

// IsRegion reports whether k is the kind of a region's passage: a table,
// a figure, a display formula, a form or a note.
func (k ChunkKind) IsRegion() bool {
	return slices.Contains(LayoutKinds, k) || slices.Contains(MarkKinds, k)
}

// Region is a table, figure or display formula found on a page. Its
// passages (chunks of the same Kind) are cited by page like any other and
// highlighted by BBox.
type Region struct {
	Kind ChunkKind  `json:"kind"` // ChunkTable, ChunkFigure, ChunkFormula, ChunkForm or ChunkNote
	Page int        `json:"page"`
	BBox [4]float64 `json:"bbox"` // x0, y0, x1, y1 in points, origin at the top left
	// Caption is the caption as printed ("Table 3: ...", "Figure 2. ...",
	// "Tableau 2 – ..."), "" when none was found.
	Caption string `json:"caption,omitempty"`
	// Text is the table as Markdown, the text inside a figure (text layer
	// or OCR), or the formula's text with its Unicode math.
	Text string `json:"text"`
	// Description is a model's description of a figure, summary of a
	// table, or LaTeX of a formula, when the student asked for one (""
	// otherwise).
	Description string `json:"description,omitempty"`
	// Refusal says why the last model asked for the Description wrote
	// one that was not kept; nil when none was refused (or one was kept
	// since).
	Refusal *Refusal `json:"refusal,omitempty"`
	// Image is a figure's crop as PNG, kept in the session's memory like
	// the PDF bytes; nil for tables and formulas.
	Image []byte `json:"-"`
}

// Refusal is a model's description of a region (a figure's description,
// a table's summary, a formula's LaTeX) that was not kept: which model
// wrote it, and why (a message.Refused* code and its parameters). A
// later run with the same model does not ask it again.
type Refusal struct {
	Model  string          `json:"model"` // "provider/id"
	Reason message.Message `json:"reason"`
}

// Chunk is a retrievable passage. It never spans pages: CharStart and
// CharEnd are rune offsets into its page's Text.
type Chunk struct {
	ID           string    `json:"chunk_id"`
	DocID        string    `json:"doc_id"`
	Page         int       `json:"page"`
	CharStart    int       `json:"char_start"`
	CharEnd      int       `json:"char_end"`
	Text         string    `json:"text"`
	SectionTitle string    `json:"section_title"`
	PageType     PageType  `json:"page_type"`
	Lang         string    `json:"lang"`
	Kind         ChunkKind `json:"kind"`
	// Pages lists the pages the chunk stands for when consecutive pages
	// repeat one another (slide overlays): Page is the fullest of them,
	// the one cited. Empty for a chunk of a single page.
	Pages []int `json:"pages,omitempty"`
	// BBox is the box to highlight for a chunk of a Region (table, figure,
	// formula), whose text is not a span of the page's Text, or for a
	// chunk of a scanned page (the union of its OCR lines' boxes, as the
	// page has no text layer to find it in); nil otherwise.
	BBox *[4]float64 `json:"bbox,omitempty"`
}

// DescribedSuffix ends the id of a passage holding a region's description
// by a model (a figure's description, a table's summary, a formula's
// LaTeX): the id of the region's own passage + this suffix.
const DescribedSuffix = "~described"

// Described reports whether c holds a model's description of its region
// rather than text read from the PDF.
func (c Chunk) Described() bool { return strings.HasSuffix(c.ID, DescribedSuffix) }

// Hit is one search result.
type Hit struct {
	File    string  `json:"file"`
	Page    int     `json:"page"`
	ChunkID string  `json:"chunk_id"`
	Score   float64 `json:"score"`
	Text    string  `json:"text"`
	Label   string  `json:"label"` // citation label, e.g. [lecture_sat.pdf p.42]
	// Unit is the document's (Document.Unit): "slide" for a slide deck.
	Unit string `json:"unit,omitempty"`
	// Kind is the chunk's kind: body, front, references, table, figure,
	// formula, form or note.
	Kind ChunkKind `json:"kind"`
	// BBox is the box of the table, figure or formula the passage was made
	// from, or of the passage on a scanned page (its chunk's BBox), for
	// the viewer to highlight; nil otherwise.
	BBox *[4]float64 `json:"bbox,omitempty"`
	// FoundBy says which retriever found the passage: "dense", "bm25",
	// "both", or "image" for a figure only CLIP's figure list found.
	FoundBy string `json:"found_by"`
	// ViaSummary is set when the summary list (a model's summary of the
	// passage, the summary index) ranked the passage for the question; the
	// hit is still the passage, its text the passage's own.
	ViaSummary bool     `json:"via_summary,omitempty"`
	DocID      string   `json:"doc_id"`
	PageType   PageType `json:"page_type"`
	// RerankScore is the cross-encoder's logit for (query, passage) when a
	// reranker rescored this hit; nil when no reranker ran (never invented).
	RerankScore *float64 `json:"rerank_score"`
	// DenseScore is the cosine of the query with the passage; nil when
	// the search did not embed the query or the passage has no vector
	// (bm25 mode). LexicalScore is its BM25 score; nil when BM25 did not
	// retrieve the passage among its candidates (dense mode, or a chunk
	// only the dense retriever found).
	DenseScore   *float64 `json:"dense_score"`
	LexicalScore *float64 `json:"lexical_score"`
	// Band says how close DenseScore is for the model that scored it:
	// "high", "fair" or "low" by that model's thresholds (retrieve.BandsFor:
	// measured for USE-lite, the original design's for BGE), "" without a
	// cosine or without thresholds.
	Band string `json:"band,omitempty"`
}

// MaxLinks is the most links kept of a document.
const MaxLinks = 2000

// MaxLabelName is the longest file name shown in a citation label.
const MaxLabelName = 43

// UnitSlide is the Document.Unit of a slide deck: its pages are slides.
const UnitSlide = "slide"

// CitationLabel returns the label used to cite page of the named file, e.g.
// "[lecture_sat.pdf p.42]", or "[cours3.pptx slide 12]" when unit is
// UnitSlide (the document's Unit). Names longer than MaxLabelName runes
// are shortened in the middle, keeping the extension.
func CitationLabel(file, unit string, page int) string {
	if unit == UnitSlide {
		return fmt.Sprintf("[%s slide %d]", shortName(file), page)
	}
	return fmt.Sprintf("[%s p.%d]", shortName(file), page)
}

func shortName(name string) string {
	if utf8.RuneCountInString(name) <= MaxLabelName {
		return name
	}
	ext := filepath.Ext(name)
	stem := []rune(strings.TrimSuffix(name, ext))
	keep := MaxLabelName - utf8.RuneCountInString(ext) - 3
	if keep < 1 {
		keep = 1
	}
	if keep > len(stem) {
		keep = len(stem)
	}
	return string(stem[:keep]) + "..." + ext
}

// Meta is a document's own information, as its PDF declares it; a field
// the file leaves out is "". Dates are days, YYYY-MM-DD, when the file's
// date strings parse, and as the file gives them otherwise.
type Meta struct {
	Title    string `json:"title,omitempty"`
	Author   string `json:"author,omitempty"`
	Subject  string `json:"subject,omitempty"`
	Keywords string `json:"keywords,omitempty"`
	Creator  string `json:"creator,omitempty"`
	Producer string `json:"producer,omitempty"`
	Created  string `json:"created,omitempty"`
	Modified string `json:"modified,omitempty"`
}

// OutlineEntry is one bookmark of a document's outline.
type OutlineEntry struct {
	Title string `json:"title"`
	Page  int    `json:"page"`  // 1-based; 0 when it points nowhere in the document
	Depth int    `json:"depth"` // 0 for a top-level entry
}
