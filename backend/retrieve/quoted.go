package retrieve

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// A phrase a question quotes ("Which subsection does the section
// "AUGMENTATION PROCESS IN RAG" include?") is the reader's pointer to a
// place: a heading, a caption, a term as the document prints it. BM25 and
// the embedders read the question as a bag of words, so a page that uses
// the same words apart (an outline saying "the three augmentation
// processes ... Section V") can outrank the page that prints the phrase.
//
// So a phrase of two words or more between double quotes ("...", “...”,
// «...») puts first the pages that hold it, word for word (case folded,
// accents kept, punctuation and line breaks read as one space), each by its best
// ranked passage that holds it. A phrase found on more than
// quotedMaxPages pages locates nothing and changes nothing; nor does one
// found nowhere (a paraphrase).

// quotedMaxPages is the most pages a quoted phrase may be found on and
// still bring them first.
const quotedMaxPages = 3

var quotedRe = regexp.MustCompile(`"([^"]+)"|“([^”]+)”|«([^»]+)»`)

// quotedPhrases returns the phrases of two words or more that question
// quotes, as phraseKey reads them.
func quotedPhrases(question string) []string {
	var out []string
	for _, m := range quotedRe.FindAllStringSubmatch(question, -1) {
		span := cmp.Or(m[1], m[2], m[3])
		if len(strings.Fields(span)) < 2 {
			continue // a word, or an answer format's example (["1", "2"])
		}
		if k := phraseKey(span); k != "" && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// phraseKey lower-cases s and reads every run of characters other than
// letters and digits as one space, with one at either end, so that a
// phrase is found in a text by strings.Contains on their keys.
func phraseKey(s string) string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	if len(words) == 0 {
		return ""
	}
	return " " + strings.Join(words, " ") + " "
}

// quotedFirst puts first, for each phrase question quotes, the pages
// among cands that hold it (see above), each by its best ranked passage
// that holds it, in that order. Only the candidates are read: the
// phrase's words are the question's, so its pages are among them, and a
// question costs no more than reading them (every passage of a course
// would take a third of a second at 10,000 passages, BenchmarkPageRanking).
func (b *pageBook) quotedFirst(cands []*candidate, question string) []*candidate {
	phrases := quotedPhrases(question)
	if len(phrases) == 0 {
		return cands
	}
	keys := make([]string, len(cands)) // phraseKey of each candidate's text, "" if unknown
	pages := make([]pageKey, len(cands))
	b.mu.RLock()
	for i, c := range cands {
		k, ok := b.byID[c.id]
		if !ok {
			continue
		}
		pages[i] = k
		if e, isReg := b.regionTexts[c.id]; isReg {
			keys[i] = phraseKey(e.text)
		} else if pc, isBody := b.texts[k][c.id]; isBody {
			keys[i] = phraseKey(pc.text)
		}
	}
	b.mu.RUnlock()
	var front []string
	pos := make(map[string]int, len(cands))
	for i, c := range cands {
		pos[c.id] = i
	}
	for _, ph := range phrases {
		var found []string
		seen := map[pageKey]bool{}
		for i, key := range keys {
			if key != "" && !seen[pages[i]] && strings.Contains(key, ph) {
				seen[pages[i]] = true
				found = append(found, cands[i].id)
			}
		}
		if len(found) > quotedMaxPages {
			continue
		}
		for _, id := range found {
			if !slices.Contains(front, id) {
				front = append(front, id)
			}
		}
	}
	return putFirst(cands, front, pos)
}
