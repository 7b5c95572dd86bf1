package cite

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// stemLen is the length terms are cut to. Cutting at six runes is a light
// stemmer that works the same in English and French and lets cognates
// meet across the two (probabilité/probability -> probab,
// précision/precision -> precis).
const stemLen = 6

// Terms returns the content terms of text, in order of first appearance,
// each once: lower-cased, accents removed, English and French stop words
// dropped, light-stemmed (plural and -ing/-ed endings, a French final e,
// then cut to six runes). Numbers are kept whole ("41.8", "2,500" ->
// "2.500"), including single digits; other terms need two letters.
func Terms(text string) []string {
	var out []string
	seen := map[string]struct{}{}
	eachTerm(text, func(t []byte) {
		if _, dup := seen[string(t)]; dup {
			return
		}
		s := string(t)
		seen[s] = struct{}{}
		out = append(out, s)
	})
	return out
}

// termSet returns the terms of text as a set.
func termSet(text string) map[string]struct{} {
	set := make(map[string]struct{}, len(text)/16)
	eachTerm(text, func(t []byte) {
		if _, dup := set[string(t)]; !dup {
			set[string(t)] = struct{}{}
		}
	})
	return set
}

// eachTerm calls fn with each term of text, as Terms defines them, in
// order and with repeats. fn must not keep t: its bytes are reused.
func eachTerm(text string, fn func(t []byte)) {
	var buf []byte
	eachWord(text, buf, func(w []byte, number bool) {
		if !number {
			if _, stop := stopWords[string(w)]; stop || utf8.RuneCount(w) < 2 {
				return
			}
			w = stem(w)
			if _, stop := stopWords[string(w)]; stop {
				return
			}
		}
		fn(w)
	})
}

// eachWord calls fn with each word of text, lower-cased and folded to
// ASCII where a Latin accent allows, in buf's storage. Letters and digits
// make words; a '.' or ',' between two digits stays inside a number (as
// '.'); apostrophes and hyphens split words (l'apprentissage -> l,
// apprentissage).
func eachWord(text string, buf []byte, fn func(w []byte, number bool)) {
	w := buf[:0]
	number := false
	flush := func() {
		if len(w) > 0 {
			fn(w, number)
			w = w[:0]
		}
		number = false
	}
	var prev rune
	for i, r := range text {
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z'):
			w = append(w, byte(r))
		case r < utf8.RuneSelf && (r >= 'A' && r <= 'Z'):
			w = append(w, byte(r)+'a'-'A')
		case r < utf8.RuneSelf && (r >= '0' && r <= '9'):
			if len(w) == 0 {
				number = true
			}
			w = append(w, byte(r))
		case r >= utf8.RuneSelf && unicode.IsLetter(r):
			w = fold(w, unicode.ToLower(r))
		case r >= utf8.RuneSelf && unicode.IsDigit(r):
			if len(w) == 0 {
				number = true
			}
			w = utf8.AppendRune(w, r)
		case (r == '.' || r == ',') && number && unicode.IsDigit(prev) && nextIsDigit(text[i+1:]):
			w = append(w, '.')
		default:
			flush()
		}
		prev = r
	}
	flush()
}

func nextIsDigit(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsDigit(r)
}

// fold appends r without its accent when it is a common Latin letter.
func fold(w []byte, r rune) []byte {
	switch r {
	case 'à', 'â', 'ä', 'á', 'ã', 'å':
		return append(w, 'a')
	case 'é', 'è', 'ê', 'ë':
		return append(w, 'e')
	case 'î', 'ï', 'í', 'ì':
		return append(w, 'i')
	case 'ô', 'ö', 'ó', 'ò', 'õ':
		return append(w, 'o')
	case 'ù', 'û', 'ü', 'ú':
		return append(w, 'u')
	case 'ç':
		return append(w, 'c')
	case 'ñ':
		return append(w, 'n')
	case 'ÿ', 'ý':
		return append(w, 'y')
	case 'œ':
		return append(w, 'o', 'e')
	case 'æ':
		return append(w, 'a', 'e')
	}
	return utf8.AppendRune(w, r)
}

// stem strips a plural or an -ing/-ed ending and a French final e, then
// cuts the word to stemLen runes, in place. Both sides of a comparison go
// through it, so consistency matters more than linguistics.
func stem(w []byte) []byte {
	n := len(w) // bytes; the endings tested are ASCII
	switch {
	case n > 4 && hasSuffix(w, "ies"):
		w = append(w[:n-3], 'y')
	case n > 4 && hasSuffix(w, "eaux"):
		w = w[:n-1]
	case n > 4 && hasSuffix(w, "aux"):
		w = append(w[:n-3], 'a', 'l')
	case n > 3 && (hasSuffix(w, "s") || hasSuffix(w, "x")) &&
		!hasSuffix(w, "ss") && (n == 4 || !hasSuffix(w, "us") && !hasSuffix(w, "is")):
		w = w[:n-1]
	}
	n = len(w)
	switch {
	case n > 6 && hasSuffix(w, "ing"):
		w = w[:n-3]
	case n > 5 && hasSuffix(w, "ed"):
		w = w[:n-2]
	case n > 4 && hasSuffix(w, "e"):
		w = w[:n-1]
	}
	for i, runes := 0, 0; i < len(w); runes++ {
		if runes == stemLen {
			return w[:i]
		}
		_, size := utf8.DecodeRune(w[i:])
		i += size
	}
	return w
}

func hasSuffix(w []byte, suffix string) bool {
	return len(w) >= len(suffix) && string(w[len(w)-len(suffix):]) == suffix
}

// stopWords are English and French function words (accents folded, as
// eachWord leaves them), with the connectives answers are made of.
var stopWords = func() map[string]struct{} {
	const words = `
a about above after again against all also although am an and any are as at be because been before being
below between both but by can could did do does doing done down during each either else etc even ever every
few for from further had has have having he her here hers herself him himself his how however i if in into
is it its itself just least less let like many may me might more most much must my myself neither no nor not
now of off often on once one only or other others otherwise our ours ourselves out over own per rather same
she should since so some such than that the their theirs them themselves then there therefore these they
this those though through thus to too under until up upon us use used using very via was we well were what
when where whether which while who whom whose why will with within without would yet you your yours yourself
according also based called cf eg et al ie namely respectively shown show shows see given
au aux avec ce ceci cela celle celles celui ceux ces cet cette chaque comme dans de des du donc elle elles en
encore entre est et etaient etait etant ete etre eu fait faire il ils je la le les leur leurs lui mais me
meme memes mes moi mon ne ni nos notre nous on ont ou par parce pas peu peut peuvent plus pour pourquoi
quand que quel quelle quelles quels qui quoi sa sans se selon ses si son sont sous souvent sur ta te tes
toi ton tous tout toute toutes tres tu un une vos votre vous ainsi alors aussi car ci comment deja dont
lors lorsque puis sera seront soit sont tandis vers voici voila y ca chez
`
	set := map[string]struct{}{}
	for _, w := range strings.Fields(words) {
		set[w] = struct{}{}
	}
	return set
}()
