// Package cite reads the citations of an answer and checks them against
// the sources the answer was written from. A citation is verified when the
// page it cites is among the sources, the sentence it supports shares
// enough content words with the cited passage (see Checker), and every
// number of that sentence is in the passage (by value: "9,999", "9999",
// "9 999" and "9.999" are the same number, so are "3.57%" and "3,57 %",
// and "800M" and "800 million"); otherwise it
// is flagged with the reason (a message code), for the UI, and counted against
// citation_valid_pct.
//
// Call sites read: cite.Check(answer, hits), cite.ValidPct(citations).
package cite

import (
	"vika/backend/corpus"
	"vika/backend/message"
)

// Why a citation could not be verified (Citation.Reason): message codes,
// which the window translates; message.New(reason).English() is the
// English of one.
const (
	ReasonUnknownFile   = message.CiteUnknownFile
	ReasonNoPage        = message.CiteNoPage
	ReasonPageNotSource = message.CitePageNotSource
	ReasonNoSource      = message.CiteNoSource
	ReasonNoClaim       = message.CiteNoClaim
	ReasonNoOverlap     = message.CiteNoOverlap
	ReasonNumbers       = message.CiteNumbers
)

// Citation is one checked citation of an answer.
type Citation struct {
	// Label is the canonical label of the cited page ("[lecture_sat.pdf
	// p.42]") when the document is known, else the bracket as written.
	Label string `json:"label"`
	Raw   string `json:"raw"` // the bracket as written
	// File is the cited document's original name ("" when unknown), Page
	// the cited page (0 when none was given).
	File string `json:"file"`
	Page int    `json:"page"`
	// DocID is the cited document's id when the citation resolved to a
	// source ("" otherwise), for the viewer to open it.
	DocID string `json:"doc_id"`
	// SourceIndex is the 1-based number of the source that supports the
	// claim best among those of the cited page; 0 when none is.
	SourceIndex int  `json:"source_index"`
	Verified    bool `json:"verified"`
	// Reason says why the citation is not verified, a Reason* code (""
	// when it is verified).
	Reason string `json:"reason,omitempty"`
	// Overlap is the share of the claim's content words found in the
	// cited passage (the best of them), in [0, 1].
	Overlap float64 `json:"overlap"`
	// Claim is the text the citation was checked for.
	Claim string `json:"claim"`
	// Start and End are the byte offsets of the bracket in the answer.
	Start int `json:"start"`
	End   int `json:"end"`
}

// Checker checks citations. The zero value is not useful: use
// DefaultChecker or set both fields.
type Checker struct {
	// MinOverlap is the share of the claim's content words that the cited
	// passage must contain.
	MinOverlap float64
	// MinShared is the number of content words that must be shared (all
	// of them when the claim has fewer).
	MinShared int
}

// DefaultChecker's thresholds: a paraphrase of a passage keeps about half
// of its content words, a sentence about something else keeps well under a
// fifth (cite_test.go holds examples of both, in English and French).
var DefaultChecker = Checker{MinOverlap: 0.3, MinShared: 2}

// Check parses and checks the citations of answer against sources (the
// hits the prompt numbered 1..n, in that order) with DefaultChecker.
func Check(answer string, sources []corpus.Hit) []Citation {
	return DefaultChecker.Check(answer, sources)
}

// ValidPct returns the percentage of verified citations; ok is false when
// there is none.
func ValidPct(cits []Citation) (pct float64, ok bool) {
	if len(cits) == 0 {
		return 0, false
	}
	n := 0
	for _, c := range cits {
		if c.Verified {
			n++
		}
	}
	return 100 * float64(n) / float64(len(cits)), true
}

// source is a hit prepared for checking.
type source struct {
	docID string
	file  string
	unit  string // the document's: "slide" for a deck
	page  int
	text  string
	terms map[string]struct{} // computed on first use
	nums  []number            // computed on first use
}

// Check parses and checks the citations of answer against sources.
func (c Checker) Check(answer string, sources []corpus.Hit) []Citation {
	refs := Parse(answer)
	if len(refs) == 0 {
		return nil
	}
	srcs := make([]source, len(sources))
	for i, h := range sources {
		srcs[i] = source{docID: h.DocID, file: fileOf(h), unit: h.Unit, page: h.Page, text: h.Text}
	}
	claims := claimsOf(answer, refs)
	out := make([]Citation, len(refs))
	for i, r := range refs {
		out[i] = c.check(r, claims[i], srcs)
	}
	return out
}

// check resolves one reference and checks its claim.
func (c Checker) check(r Ref, claim string, srcs []source) Citation {
	cit := Citation{Label: r.Raw, Raw: r.Raw, Page: r.Page, Claim: claim, Start: r.Start, End: r.End}
	var files []string
	switch {
	case r.Source > 0:
		if r.Source > len(srcs) {
			cit.Reason = ReasonNoSource
			return cit
		}
		s := srcs[r.Source-1]
		files = []string{s.file}
		cit.DocID = s.docID
		if cit.Page == 0 {
			cit.Page = s.page
		}
	default:
		files = resolve(r.File, srcs)
		if len(files) == 0 {
			cit.Reason = ReasonUnknownFile
			return cit
		}
	}
	cit.File = files[0]
	if cit.Page == 0 {
		cit.Reason = ReasonNoPage
		return cit
	}
	cit.Label = corpus.CitationLabel(cit.File, unitOf(cit.File, srcs), cit.Page)
	var cands []int
	for i, s := range srcs {
		if s.page == cit.Page && contains(files, s.file) {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		cit.Reason = ReasonPageNotSource
		return cit
	}
	claimTerms := Terms(claim)
	if len(claimTerms) == 0 {
		cit.Reason = ReasonNoClaim
		return cit
	}
	claimNums := numbersIn(claim, true)
	bestOK, best := false, -1.0
	for _, i := range cands {
		s := &srcs[i]
		if s.terms == nil {
			s.terms = termSet(s.text)
			s.nums = append(numbersIn(s.text, false), numberWords(s.text)...)
		}
		ov, shared := overlap(claimTerms, s.terms)
		numbersOK := allFound(claimNums, s.nums)
		reason := ""
		switch {
		case ov < c.MinOverlap || shared < min(c.MinShared, len(claimTerms)):
			reason = ReasonNoOverlap
		case !numbersOK:
			reason = ReasonNumbers
		}
		ok := reason == ""
		if (ok && !bestOK) || (ok == bestOK && ov > best) {
			bestOK, best = ok, ov
			cit.Verified, cit.Reason, cit.Overlap, cit.SourceIndex, cit.File, cit.DocID = ok, reason, ov, i+1, s.file, s.docID
			cit.Label = corpus.CitationLabel(s.file, s.unit, s.page)
		}
	}
	return cit
}

// overlap returns the share of claim terms found in passage and how many
// that is.
func overlap(claim []string, passage map[string]struct{}) (share float64, shared int) {
	for _, t := range claim {
		if _, in := passage[t]; in {
			shared++
		}
	}
	return float64(shared) / float64(len(claim)), shared
}

// allFound reports whether every number of the claim is among the
// passage's numbers.
func allFound(claim, passage []number) bool {
	for _, n := range claim {
		if !containsNumber(passage, n) {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// unitOf is the unit of the sources' document named file ("" for pages).
func unitOf(file string, srcs []source) string {
	for _, s := range srcs {
		if s.file == file {
			return s.unit
		}
	}
	return ""
}
