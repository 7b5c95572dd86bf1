package retrieve

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"vika/backend/corpus"
)

// A question often ends with what its answer should look like: "Please
// write the answer in float format with 2 decimals.", "For example:
// ["2","1"]", "Réponds en une phrase." These sentences speak to the
// reader of the passages, not of the document: their words (write,
// answer, format, float, list, order) are on pages about anything, and
// in BM25 they are terms no answer page holds, so they lower the
// question's best scores (bleve's coordination factor) and tilt the
// ranking towards pages that happen to say "format" or "list".
//
// searchedText drops them before searching. The first sentence is the
// question and always stays; a later sentence goes when it is an
// instruction about the answer (it names the answer or asks "please",
// and it names a form: a format, decimals, an order, a number of words
// or sentences), or when it is an example of that form (it opens with
// "for example" or "e.g." and follows such an instruction or gives a
// bracketed list). A sentence that points inside the document (a table,
// figure or equation by its number, a page, a quoted phrase: "Please
// list the words of Table 3.") is about the document and stays. The
// prompt still gets the whole question.

var (
	// answerRe names the answer, or asks for something.
	answerRe = regexp.MustCompile(`(?i)\b(answers?|please|kindly|réponses?|réponds|répondez|veuillez|merci de)\b`)
	// formRe names a form an answer may take.
	formRe = regexp.MustCompile(`(?i)\b(format|formatted|decimals?|decimal places?|ascending|descending|order|integer|int|float|string|sentences?|words?|bullets?|accurate|rounded|round|digits?|phrases?|mots?|décimales?|croissant|décroissant|ordre|entier|chiffres?)\b`)
	// exampleRe opens an example.
	exampleRe = regexp.MustCompile(`(?i)^(for example|for instance|e\.g\.|par exemple|ex\.)`)
	// listRe is a bracketed or quoted list, the shape of an example.
	listRe = regexp.MustCompile(`\[[^\]]*\]`)
)

// searchedText returns question without the sentences after its first
// that only say what form the answer takes (see above). A question of
// one sentence is returned as it is.
func searchedText(question string) string {
	sentences := splitSentences(question)
	if len(sentences) < 2 {
		return question
	}
	kept := []string{sentences[0]}
	dropped := false
	for _, s := range sentences[1:] {
		switch {
		case pointsInside(s):
			kept, dropped = append(kept, s), false
		case exampleRe.MatchString(s) && (dropped || listRe.MatchString(s)):
			dropped = true
		case answerRe.MatchString(s) && formRe.MatchString(s):
			dropped = true
		default:
			kept, dropped = append(kept, s), false
		}
	}
	if len(kept) == len(sentences) {
		return question
	}
	return strings.Join(kept, " ")
}

// pointsInside reports whether s names a place of the document, as the
// rules of "Pointing inside a question" read it.
func pointsInside(s string) bool {
	return len(corpus.NamedLabels(s)) > 0 || len(namedPages(s)) > 0 || len(quotedPhrases(s)) > 0
}

// noSplitAfter are the abbreviations whose full stop ends no sentence.
var noSplitAfter = map[string]bool{"e.g": true, "i.e": true, "cf": true, "vs": true, "fig": true, "eq": true, "al": true, "etc": true, "no": true, "ex": true, "p": true, "pp": true}

// splitSentences cuts s after each '?' or '!' followed by a space or the
// end, and after each '.' that ends a word other than an abbreviation
// and is followed by the end, or by a space and then a capital letter,
// an opening bracket or a quote ("Dec.7", "3.5" and "e.g., [" do not
// cut). The pieces are trimmed; empty ones are left out.
func splitSentences(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		if r != '?' && r != '!' && r != '.' {
			continue
		}
		end := i + utf8.RuneLen(r)
		rest := s[end:]
		if rest != "" && !unicode.IsSpace(firstRune(rest)) {
			continue // "Dec.7", "3.5", "?)"
		}
		if r == '.' {
			next := firstRune(strings.TrimLeftFunc(rest, unicode.IsSpace))
			if rest != "" && !unicode.IsUpper(next) && !strings.ContainsRune(`["“«(`, next) {
				continue
			}
			if noSplitAfter[strings.ToLower(lastWord(s[start:i]))] {
				continue
			}
		}
		if p := strings.TrimSpace(s[start:end]); p != "" {
			out = append(out, p)
		}
		start = end
	}
	if p := strings.TrimSpace(s[start:]); p != "" {
		out = append(out, p)
	}
	return out
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// lastWord returns the last run of s without spaces.
func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}
