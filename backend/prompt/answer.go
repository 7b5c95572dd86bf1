package prompt

import (
	"strings"

	"vika/backend/cite"
	"vika/backend/corpus"
)

// NotFound returns the answer Vika gives, without asking a model, when
// retrieval found nothing relevant enough (see Abstain), in lang ("fr"
// for French, English otherwise).
func NotFound(lang string) string {
	if lang == "fr" {
		return NotFoundFR + " Aucun des passages trouvés pour cette question n'est assez proche pour y répondre ; " +
			"reformulez-la avec les termes du document, ou ajoutez le document qui en traite."
	}
	return NotFoundEN + " None of the passages found for this question is close enough to answer it; " +
		"rephrase it with the document's own terms, or add the document that covers it."
}

// IsNotFound reports whether a model's answer starts with the "not found"
// phrase the system prompt asks for (in English or French, in any case,
// with or without Markdown emphasis).
func IsNotFound(answer string) bool {
	a := strings.ToLower(strings.TrimLeft(answer, " \t\r\n*_>#"))
	for _, p := range []string{NotFoundEN, NotFoundFR} {
		if strings.HasPrefix(a, strings.ToLower(strings.TrimSuffix(p, "."))) {
			return true
		}
	}
	return false
}

// Headings of the extractive answer.
const (
	ExtractiveHeadingEN = "**No language model is available, so this is not a written answer: these are the passages of your documents that best match your question, quoted as they are.**"
	ExtractiveHeadingFR = "**Aucun modèle de langage n'est disponible : ceci n'est pas une réponse rédigée, mais les passages de vos documents les plus proches de votre question, cités tels quels.**"
)

// Extractive limits.
const (
	ExtractivePassages = 3   // passages quoted
	extractiveRunes    = 360 // longest quote
)

// Extractive returns the answer given when no provider is available: a
// heading that says so, then the sentences of the best passages (best
// first, ExtractivePassages of them) that share the most words with the
// question, each quoted with its citation label. lang picks the heading's
// language ("fr" for French, English otherwise). The quotes' citations
// pass cite.Check against the same hits.
func Extractive(question string, hits []corpus.Hit, lang string) string {
	var b strings.Builder
	if lang == "fr" {
		b.WriteString(ExtractiveHeadingFR)
	} else {
		b.WriteString(ExtractiveHeadingEN)
	}
	q := map[string]bool{}
	for _, t := range cite.Terms(question) {
		q[t] = true
	}
	n := 0
	for _, h := range hits {
		quote := bestExcerpt(h.Text, q)
		if quote == "" {
			continue
		}
		b.WriteString("\n\n> " + quote + " " + Label(h))
		if n++; n == ExtractivePassages {
			break
		}
	}
	if n == 0 {
		b.WriteString("\n\n" + NotFound(lang))
	}
	return b.String()
}

// bestExcerpt returns the sentence of text that shares the most terms with
// the question, extended by the next sentence while it fits, or the
// start of text when no sentence shares any; on one line.
func bestExcerpt(text string, q map[string]bool) string {
	sents := sentences(strings.Join(strings.Fields(text), " "))
	if len(sents) == 0 {
		return ""
	}
	best, bestScore := 0, 0
	for i, s := range sents {
		score := 0
		for _, t := range cite.Terms(s) {
			if q[t] {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	quote := sents[best]
	for j := best + 1; j < len(sents) && len([]rune(quote))+1+len([]rune(sents[j])) <= extractiveRunes; j++ {
		quote += " " + sents[j]
	}
	if best > 0 {
		quote = "… " + quote
	}
	return truncate(quote, extractiveRunes)
}

// sentences splits one-line text after ". ", "! " and "? ".
func sentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i+1 < len(s); i++ {
		if strings.IndexByte(".!?", s[i]) >= 0 && s[i+1] == ' ' && i+1-start > 1 {
			out = append(out, strings.TrimSpace(s[start:i+1]))
			start = i + 2
		}
	}
	if rest := strings.TrimSpace(s[min(start, len(s)):]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// GuessLang tells French from English ("fr" or "en") by function words and
// accents, for when no language detector result is at hand.
func GuessLang(text string) string {
	fr, en := 0, 0
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'à' && r <= 'ÿ' || r == 'œ')
	}) {
		switch {
		case frenchWords[w]:
			fr++
		case englishWords[w]:
			en++
		}
		if strings.ContainsAny(w, "éèêàùçôîœ") {
			fr++
		}
	}
	if fr > en {
		return "fr"
	}
	return "en"
}

var (
	frenchWords  = wordSet("le la les un une des du de et est sont que qui quoi quel quelle quels quelles pour dans sur avec comment pourquoi combien ce cette ces il elle ils elles au aux pas ou où leur son sa ses")
	englishWords = wordSet("the a an of and is are was were what which who how why when where for in on with this that these those it its to from by does do did many much")
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
