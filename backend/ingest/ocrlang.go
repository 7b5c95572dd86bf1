package ingest

import (
	"sync"

	"vika/backend/corpus"
	"vika/backend/langid"
)

// minOCRLangConfidence is how sure langid must be of a text's language
// for OCR to read in that language alone (on a page of text lingua is
// close to 1 whenever the page is in one language).
const minOCRLangConfidence = 0.9

// ocrLanguage chooses the language each OCR target of one document is
// recognised in: one language once it is known, instead of all of OCR's
// (fra+eng), which does about twice the work (TestLessOCR). A mixed
// page's regions take its text layer's language. A scanned page takes
// the language of the scanned pages OCRed before it, once one has told
// it; until then, and for good once two of them disagree, all languages.
// Safe for concurrent use.
type ocrLanguage struct {
	mu       sync.Mutex
	scan     string // guarded by mu: the scanned pages' language, once told
	disagree bool   // guarded by mu: two scanned pages told different languages
}

// target returns t with its language set when it is known.
func (o *ocrLanguage) target(t OCRTarget, pages []corpus.Page) OCRTarget {
	if t.Lang != "" {
		return t
	}
	if !t.Full {
		t.Lang = sure(langid.Page(pages[t.Page-1].Text))
		return t
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.disagree {
		t.Lang = o.scan
	}
	return t
}

// learn takes the text OCR made of a scanned page.
func (o *ocrLanguage) learn(t OCRTarget, text string) {
	if !t.Full {
		return
	}
	lang := sure(langid.Page(text))
	if lang == "" {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case o.scan == "":
		o.scan = lang
	case o.scan != lang:
		o.disagree = true
	}
}

// sure returns p's language when langid is sure enough of it, else "".
func sure(p langid.PageLang) string {
	if p.Lang == langid.Undetermined || p.Confidence < minOCRLangConfidence {
		return ""
	}
	return p.Lang
}
