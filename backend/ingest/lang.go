package ingest

import (
	"vika/backend/corpus"
	"vika/backend/langid"
)

// detectLanguages sets each page's language and the document's. A page
// too short to tell takes the document's language, with confidence 0.
// memo, when not nil, keeps each page's detection by its text: a
// document assembled again as its OCR lands (Options.Interim) detects
// only the pages whose text changed.
func detectLanguages(d *corpus.Document, pages []corpus.Page, memo pageLangs) {
	per := make([]langid.PageLang, len(pages))
	for i := range pages {
		per[i] = memo.of(pages[i])
		pages[i].Lang, pages[i].LangConfidence = per[i].Lang, per[i].Confidence
	}
	res := langid.Document(per)
	d.Lang, d.LangShares, d.LangMixed = res.Lang, res.Shares, res.Mixed
	for i := range pages {
		if pages[i].Lang == langid.Undetermined {
			pages[i].Lang = res.Lang
		}
	}
}

// pageLangs holds the languages detected on pages, by page number, with
// the text they were detected on.
type pageLangs map[int]pageLang

type pageLang struct {
	text string
	lang langid.PageLang
}

// of is the language of p's text, detected unless m has it.
func (m pageLangs) of(p corpus.Page) langid.PageLang {
	if e, ok := m[p.Number]; ok && e.text == p.Text {
		return e.lang
	}
	l := langid.Page(p.Text)
	if m != nil {
		m[p.Number] = pageLang{p.Text, l}
	}
	return l
}
