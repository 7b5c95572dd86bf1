package cite

import (
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"vika/backend/corpus"
)

// minClauseTerms is the number of content words a clause needs to be
// checked on its own; a shorter one ("and the base model [a.pdf p.3]") is
// checked as its whole sentence.
const minClauseTerms = 3

// maxSentence bounds how far a claim's sentence is looked for around its
// citation, in bytes: with no sentence end, every citation would scan the
// answer from its start, quadratic in the answer's length.
const maxSentence = 2000

// claimsOf returns, for each ref, the text it supports. Brackets side by
// side ("[a.pdf p.3][b.pdf p.7]", "[a.pdf p.3], [b.pdf p.7]") form a group
// that supports the same text: the clause from the start of the sentence,
// or from the previous group in that sentence, up to the group. A clause
// with too few words gives way to its whole sentence; a group placed
// after the full stop ("... 4 days. [a.pdf p.13]") supports the sentence
// before it.
func claimsOf(answer string, refs []Ref) []string {
	type span struct{ start, end int }
	var brackets []span
	for _, r := range refs {
		if n := len(brackets); n == 0 || brackets[n-1].start != r.Start {
			brackets = append(brackets, span{r.Start, r.End})
		}
	}
	strip := func(a, b int) string {
		var sb strings.Builder
		// The brackets are in order: start from the first that ends after a.
		first := sort.Search(len(brackets), func(k int) bool { return brackets[k].end > a })
		for _, s := range brackets[first:] {
			if s.start >= b {
				break
			}
			if s.end <= a || s.start >= b {
				continue
			}
			if s.start > a {
				sb.WriteString(answer[a:s.start])
			}
			a = max(a, s.end)
		}
		if a < b {
			sb.WriteString(answer[a:b])
		}
		return strings.TrimLeft(strings.Join(strings.Fields(sb.String()), " "), ",;:-–—*•> ")
	}
	byStart := map[int]string{}
	prevEnd := 0
	for i := 0; i < len(brackets); {
		gs := brackets[i].start
		j := i
		for j+1 < len(brackets) && onlySeparators(answer[brackets[j].end:brackets[j+1].start]) {
			j++
		}
		ge := brackets[j].end
		sent := sentenceStart(answer, gs)
		claim := strip(max(sent, prevEnd), gs)
		if len(Terms(claim)) < minClauseTerms {
			if whole := strip(sent, gs); len(Terms(whole)) == 0 {
				claim = strip(sentenceStart(answer, lastNonSpace(answer, sent)), sent)
			} else {
				claim = strip(sent, sentenceEnd(answer, ge))
			}
		}
		for k := i; k <= j; k++ {
			byStart[brackets[k].start] = claim
		}
		prevEnd, i = ge, j+1
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = byStart[r.Start]
	}
	return out
}

func onlySeparators(s string) bool {
	s = strings.ToLower(strings.TrimSpace(strings.Trim(s, " ,;&")))
	return s == "" || s == "and" || s == "et"
}

// lastNonSpace returns the offset just after the last non-space byte
// before pos, and behind the sentence end that stands there, so that
// sentenceStart from it finds the start of the previous sentence.
func lastNonSpace(s string, pos int) int {
	i := pos
	for i > 0 && isSpace(s[i-1]) {
		i--
	}
	for i > 0 && strings.ContainsRune(".!?", rune(s[i-1])) {
		i--
	}
	return i
}

// sentenceStart returns the offset where the sentence holding pos starts:
// after a line break, or after a full stop, question or exclamation mark
// followed by a space (not the dot of an abbreviation).
func sentenceStart(s string, pos int) int {
	floor := max(0, pos-maxSentence)
	for floor > 0 && !utf8.RuneStart(s[floor]) {
		floor++
	}
	for i := pos - 1; i >= floor; i-- {
		switch {
		case s[i] == '\n':
			return i + 1
		case isStop(s, i) && i+1 < pos:
			return i + 1
		}
	}
	return floor
}

// sentenceEnd returns the offset where the sentence holding pos ends.
func sentenceEnd(s string, pos int) int {
	ceil := min(len(s), pos+maxSentence)
	for ceil < len(s) && !utf8.RuneStart(s[ceil]) {
		ceil++
	}
	for i := pos; i < ceil; i++ {
		switch {
		case s[i] == '\n':
			return i
		case isStop(s, i):
			return i + 1
		}
	}
	return ceil
}

// isStop reports whether s[i] ends a sentence: a full stop, question or
// exclamation mark followed by a space or the end, possibly through
// closing emphasis, quotes or brackets ("**Learning.** Then").
func isStop(s string, i int) bool {
	if !strings.ContainsRune(".!?", rune(s[i])) {
		return false
	}
	j := i + 1
	for j < len(s) && strings.IndexByte("*_\"')", s[j]) >= 0 {
		j++
	}
	if j < len(s) && !isSpace(s[j]) {
		return false
	}
	return s[i] != '.' || !abbreviation(s, i)
}

// abbreviations end with a dot that does not end a sentence.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "eg": true, "ie": true, "al": true, "fig": true, "figs": true, "eq": true, "eqs": true,
	"p": true, "pp": true, "vs": true, "cf": true, "resp": true, "sec": true, "tab": true, "no": true, "approx": true,
	"ref": true, "refs": true, "ex": true, "chap": true, "vol": true,
}

func abbreviation(s string, dot int) bool {
	i := dot
	for i > 0 && (isLetterByte(s[i-1]) || s[i-1] == '.') {
		i--
	}
	w := strings.ToLower(s[i:dot])
	if len(w) == 1 && s[i] >= 'A' && s[i] <= 'Z' {
		return true // an initial: "C. Shannon"
	}
	return abbreviations[w]
}

func isLetterByte(b byte) bool { return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// fileOf returns the hit's file name, or the name inside its label when
// File is empty.
func fileOf(h corpus.Hit) string {
	if h.File != "" || h.Label == "" {
		return h.File
	}
	for _, r := range parseBody(strings.Trim(h.Label, "[]")) {
		return r.File
	}
	return ""
}

// resolve returns the source files that name designates: the file itself,
// its shortened label form, the name without its extension, or a name
// elided with "..." whose ends match. The first kind that matches wins.
func resolve(name string, srcs []source) []string {
	n := normName(name)
	if n == "" {
		return nil
	}
	var kinds [4][]string
	seen := map[string]bool{}
	for _, s := range srcs {
		if seen[s.file] {
			continue
		}
		seen[s.file] = true
		f := normName(s.file)
		short := normName(strings.TrimSuffix(strings.TrimPrefix(corpus.CitationLabel(s.file, "", 1), "["), " p.1]"))
		pre, suf, elided := strings.Cut(n, "...")
		switch {
		case f == n:
			kinds[0] = append(kinds[0], s.file)
		case short == n:
			kinds[1] = append(kinds[1], s.file)
		case strings.TrimSuffix(f, path.Ext(f)) == n:
			kinds[2] = append(kinds[2], s.file)
		case elided && len(pre) >= 3 && strings.HasPrefix(f, pre) && strings.HasSuffix(f, suf):
			kinds[3] = append(kinds[3], s.file)
		}
	}
	for _, k := range kinds {
		if len(k) > 0 {
			return k
		}
	}
	return nil
}

// entities undoes the escaping of the prompt's cite attributes.
var entities = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`)

// normName lower-cases a file name as a model may have written it: without
// Markdown escapes, emphasis or quotes around it, "…" spelt "...".
func normName(s string) string {
	s = entities.Replace(strings.ReplaceAll(s, `\`, ""))
	s = strings.ReplaceAll(s, "…", "...")
	s = strings.Trim(s, " *`\"'“”«»")
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}
