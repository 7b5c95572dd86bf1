// Package langid tells which language a page or a document is written in,
// with lingua-go restricted to the languages Vika serves (Languages).
//
// Detect labels one text (a page) with an ISO 639-1 code and a confidence,
// or with Undetermined when the text holds too few words to tell (a formula,
// a table of numbers, a title page): a wrong guess would send the page to
// the wrong analyzer and embedding model, while an undetermined page simply
// takes the document's language. Document weighs the pages of a document by
// their letters and says whether it is mixed. Question labels a short text
// such as a question, which Detect's thresholds for pages would mostly
// leave undetermined.
//
// The detector is built on first use, once per process, and is safe for
// concurrent use. It runs in lingua's low-accuracy mode (trigram models
// only: about 18 MB of RSS for the seven languages, against 170-300 MB in
// high-accuracy mode). lingua uses only trigrams for any text of 120 letters
// or more in both modes, so the modes differ only on short texts, where
// Detect also asks for a clear answer (see minLetters). The measurements
// behind these choices are in README.md beside this file.
package langid

import (
	"fmt"
	"strings"
	"sync"
	"unicode"

	lingua "github.com/pemistahl/lingua-go"
	"golang.org/x/text/unicode/norm"
)

// languages is the set of languages Vika detects, as ISO 639-1 codes. It is
// the one place to extend: any language lingua-go knows can be added, at a
// cost of about 2.5 MB of memory per language (its trigram model).
var languages = []string{"en", "fr", "de", "es", "it", "pt", "nl"}

// Undetermined is the Lang of a text whose language Detect cannot tell
// ("und" in ISO 639-2 terms).
const Undetermined = ""

const (
	// sampleBytes caps the words given to lingua: the first 2 KB of words
	// agreed with the whole page on all 135 measured pages over 2.5 KB, and
	// the cost grows with the input (a 3 KB page: 4.5 ms sampled, 7.5 ms
	// whole).
	sampleBytes = 2048

	// minLetters is the fewest letters (in words of two letters or more) a
	// text needs to be labelled. Measured on paragraph prefixes in the seven
	// languages, low-accuracy mode is right 89% of the time at 40 letters,
	// 94.5% at 60, 97% at 80 and 99% at 120 (README.md).
	minLetters = 60

	// shortLetters and minShortConfidence: below shortLetters letters a
	// text must also reach minShortConfidence, which lifts accuracy at 60
	// letters from 94.5% to 96% while keeping 96% of such texts labelled.
	shortLetters       = 120
	minShortConfidence = 0.8
)

// Result is the language of one text.
type Result struct {
	// Lang is an ISO 639-1 code from Languages, or Undetermined.
	Lang string `json:"lang"`
	// Confidence is lingua's probability for Lang, in [0, 1]; 0 when Lang
	// is Undetermined. On texts of a few hundred letters or more it is
	// close to 1 whenever the text is mostly in one language.
	Confidence float64 `json:"confidence"`
}

// Languages returns the ISO 639-1 codes Detect can answer, in a fixed order.
func Languages() []string {
	return append([]string(nil), languages...)
}

// Detect returns the language of text, or Undetermined when it holds fewer
// than 60 letters in real words (numbers, symbols and one-letter tokens such
// as formula variables do not count) or when a short text gives no clear
// answer. Only the first 2 KB of words are read.
func Detect(text string) Result {
	return decide(guess(text, sampleBytes))
}

// estimate is lingua's raw answer on a text, before the thresholds.
type estimate struct {
	lang       string
	confidence float64
	letters    int // letters in the words of the sample
}

// decide applies the thresholds that turn an estimate into a Result.
func decide(e estimate) Result {
	switch {
	case e.lang == Undetermined, e.letters < minLetters:
		return Result{}
	case e.letters < shortLetters && e.confidence < minShortConfidence:
		return Result{}
	}
	return Result{Lang: e.lang, Confidence: e.confidence}
}

// linguaMu serialises lingua's computations. lingua's detector may be
// shared, but the decimal package it computes with (shopspring/decimal
// 1.4.0) appends to a package-level cache of factorials in ExpTaylor
// without a lock: the race detector caught two PDF workers detecting
// the language of their pages at once (ingest's ocrLanguage) reading the
// cache while the other appended to it.
var linguaMu sync.Mutex

// guess runs lingua on the words of text, keeping at most maxBytes of them.
func guess(text string, maxBytes int) estimate {
	sample, letters := words(text, maxBytes)
	if letters == 0 {
		return estimate{}
	}
	linguaMu.Lock()
	values := detector().ComputeLanguageConfidenceValues(sample)
	linguaMu.Unlock()
	if len(values) < 2 || values[0].Value() <= 0 || values[0].Value() == values[1].Value() {
		return estimate{letters: letters}
	}
	return estimate{
		lang:       code(values[0].Language()),
		confidence: values[0].Value(),
		letters:    letters,
	}
}

// words returns the words of text joined by single spaces, up to maxBytes,
// in NFC, and the number of letters they hold. A word is a run of letters
// (with their combining marks) of at least two letters: lingua reads only
// letters anyway, and dropping one-letter tokens keeps formula variables
// (x, y, n, p) from passing for prose.
func words(text string, maxBytes int) (string, int) {
	var b strings.Builder
	letters := 0
	start, n := -1, 0 // current word: byte offset and letter count
	flush := func(end int) bool {
		if start < 0 {
			return true
		}
		w := text[start:end]
		start = -1
		if n < 2 {
			return true
		}
		if b.Len()+1+len(w) > maxBytes {
			return false
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
		letters += n
		return true
	}
	for i, r := range text {
		switch {
		case unicode.IsLetter(r):
			if start < 0 {
				start, n = i, 0
			}
			n++
		case start >= 0 && unicode.Is(unicode.Mn, r):
			// a combining accent of decomposed text stays in its word
		default:
			if !flush(i) {
				return norm.NFC.String(b.String()), letters
			}
		}
	}
	flush(len(text))
	return norm.NFC.String(b.String()), letters
}

// detector is the process-wide lingua detector, built on first use. Its
// models are preloaded in the same step: loading the seven trigram models
// in parallel took 54 ms, against 112 ms when the first text loads them
// one by one, and concurrent first calls would each load their own copy.
var detector = sync.OnceValue(func() lingua.LanguageDetector {
	return lingua.NewLanguageDetectorBuilder().
		FromLanguages(linguaLanguages()...).
		WithLowAccuracyMode().
		WithPreloadedLanguageModels().
		Build()
})

// linguaLanguages maps languages to lingua's identifiers.
func linguaLanguages() []lingua.Language {
	out := make([]lingua.Language, 0, len(languages))
	for _, c := range languages {
		l := lingua.GetLanguageFromIsoCode639_1(lingua.GetIsoCode639_1FromValue(c))
		if l == lingua.Unknown {
			panic(fmt.Sprintf("langid: %q is not an ISO 639-1 code lingua-go knows", c))
		}
		out = append(out, l)
	}
	return out
}

// code is the lower-case ISO 639-1 code of l.
func code(l lingua.Language) string {
	return strings.ToLower(l.IsoCode639_1().String())
}

// letterCount counts the letters Detect would weigh in all of text (in
// words of two letters or more), without a size cap.
func letterCount(text string) int {
	total, n := 0, 0
	for _, r := range text {
		switch {
		case unicode.IsLetter(r):
			n++
		case n > 0 && unicode.Is(unicode.Mn, r):
		default:
			if n >= 2 {
				total += n
			}
			n = 0
		}
	}
	if n >= 2 {
		total += n
	}
	return total
}
