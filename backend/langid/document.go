package langid

import "sort"

// MixedShare is the share of a document's letters a second language must
// hold for the document to count as mixed (an English abstract and
// bibliography in a French thesis stay below it; a bilingual course does
// not).
const MixedShare = 0.20

// PageLang is the language of one page and its weight in the document.
type PageLang struct {
	Lang       string  `json:"lang"`
	Confidence float64 `json:"confidence"`
	// Chars weighs the page in Document: the letters Page counted, or any
	// character count the caller prefers, as long as it uses one for all
	// pages.
	Chars int `json:"chars"`
}

// DocResult is the language of a whole document.
type DocResult struct {
	// Lang is the language holding the most letters, or Undetermined when
	// no page had a language.
	Lang string `json:"lang"`
	// Confidence is the share of Lang weighted by the confidence of its
	// pages: close to 1 for a document wholly and clearly in Lang, lower
	// when other languages hold part of it.
	Confidence float64 `json:"confidence"`
	// Mixed is true when a second language holds at least MixedShare of
	// the letters.
	Mixed bool `json:"mixed"`
	// Shares maps each language found to its share of the letters of the
	// pages whose language was determined; the shares sum to 1, and the map
	// is empty (not nil) when no page had a language.
	Shares map[string]float64 `json:"shares"`
}

// Page detects the language of one page's text and weighs it by its
// letters, ready for Document.
func Page(text string) PageLang {
	r := Detect(text)
	return PageLang{Lang: r.Lang, Confidence: r.Confidence, Chars: letterCount(text)}
}

// Document returns the language of a document from those of its pages,
// weighted by characters. Undetermined pages and pages without characters
// do not count: they neither vote nor dilute the shares.
func Document(pages []PageLang) DocResult {
	chars := map[string]int{}
	weighted := map[string]float64{} // chars × confidence
	total := 0
	for _, p := range pages {
		if p.Lang == Undetermined || p.Chars <= 0 {
			continue
		}
		chars[p.Lang] += p.Chars
		weighted[p.Lang] += float64(p.Chars) * p.Confidence
		total += p.Chars
	}
	res := DocResult{Shares: make(map[string]float64, len(chars))}
	if total == 0 {
		return res
	}
	langs := make([]string, 0, len(chars))
	for l, n := range chars {
		langs = append(langs, l)
		res.Shares[l] = float64(n) / float64(total)
	}
	// Most letters first; ties broken by code so the answer is stable.
	sort.Slice(langs, func(i, j int) bool {
		if chars[langs[i]] != chars[langs[j]] {
			return chars[langs[i]] > chars[langs[j]]
		}
		return langs[i] < langs[j]
	})
	res.Lang = langs[0]
	res.Confidence = weighted[res.Lang] / float64(total)
	res.Mixed = len(langs) > 1 && res.Shares[langs[1]] >= MixedShare
	return res
}
