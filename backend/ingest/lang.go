package ingest

import (
	"vika/backend/corpus"
	"vika/backend/langid"
)

// detectLanguages sets each page's language and the document's. A page
// too short to tell takes the document's language, with confidence 0.
func detectLanguages(d *corpus.Document, pages []corpus.Page) {
	per := make([]langid.PageLang, len(pages))
	for i := range pages {
		per[i] = langid.Page(pages[i].Text)
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
