package message

// Citation codes: why a citation of an answer could not be verified
// (cite.Citation.Reason). The window shows them on the citation's chip;
// the exports and the command line print their English.
const (
	CiteUnknownFile   = "cite.unknown_file"
	CiteNoPage        = "cite.no_page"
	CitePageNotSource = "cite.page_not_source"
	CiteNoSource      = "cite.no_source"
	CiteNoClaim       = "cite.no_claim"
	CiteNoOverlap     = "cite.no_overlap"
	CiteNumbers       = "cite.numbers"
)

func init() {
	for code, text := range map[string]string{
		CiteUnknownFile:   "unknown document",
		CiteNoPage:        "no page given",
		CitePageNotSource: "page not among the sources",
		CiteNoSource:      "no source with that number",
		CiteNoClaim:       "no sentence to check",
		CiteNoOverlap:     "the sentence does not match the cited passage",
		CiteNumbers:       "its numbers are not in the cited passage",
	} {
		english[code] = fixed(text)
	}
}
