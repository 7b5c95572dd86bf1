package pdf

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Character-level cleaning of extracted text, shared by the layout path
// (one line at a time) and CleanText (any text, e.g. OCR output).

// ligatures expands the Unicode presentation forms of Latin ligatures.
var ligatures = map[rune]string{
	'\uFB00': "ff", '\uFB01': "fi", '\uFB02': "fl", '\uFB03': "ffi", '\uFB04': "ffl",
	'\uFB05': "st", '\uFB06': "st", // ſt and st
}

// texLigatures maps the OT1 code points of TeX's ligature glyphs, which
// MuPDF passes through as control characters when a font has no Unicode
// mapping for them (e.g. "e\x1ecacité" for "efficacité" in the Quartz
// beamer slides), to their letters. They are only trusted next to a
// letter.
var texLigatures = map[rune]string{0x1B: "ff", 0x1C: "fi", 0x1D: "fl", 0x1E: "ffi", 0x1F: "ffl"}

// cleanLine normalises one line: ligatures expanded, TeX ligature codes
// decoded, control, private-use, replacement and zero-width characters
// dropped, every kind of white space turned into one space, and the ends
// trimmed. It also returns how many characters it dropped as unreadable
// (U+FFFD, private use), a sign of a broken text layer.
func cleanLine(s string) (string, int) {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	var b strings.Builder
	b.Grow(len(s))
	bad := 0
	space := false
	prev := rune(0)
	for i, r := range s {
		out := ""
		switch {
		case texLigatures[r] != "" && (unicode.IsLetter(prev) || unicode.IsLetter(nextRune(s, i))):
			out = texLigatures[r]
		case ligatures[r] != "":
			out = ligatures[r]
		case r == '\uFFFD' || unicode.Is(unicode.Co, r):
			bad++
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) && r != '\u00AD':
			continue
		default:
			out = string(r)
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteString(out)
		prev = r
	}
	return b.String(), bad
}

func nextRune(s string, i int) rune {
	_, n := utf8.DecodeRuneInString(s[i:])
	r, _ := utf8.DecodeRuneInString(s[i+n:])
	return r
}

// Hyphenation. A line ending in a hyphen after a letter, followed by a
// line starting with a lower-case letter, continues the word:
// "representa-" + "tion" -> "representation". The hyphen is kept when the
// word is a real compound: the first part is already hyphenated
// ("state-of-the-" + "art") or the page writes the compound, or a form of
// it, on one line elsewhere ("fine-tuning" keeps "fine-" + "tuned"). A
// soft hyphen (U+00AD) is always dropped. Measured on BERT: MuPDF's own
// FZ_STEXT_DEHYPHENATE turns 9 "fine-tuned" into "finetuned" and 13
// "pre-trained" into "pretrained"; this rule 1 and 4.

// hyphenated reports whether line ends with a hyphen that may split a
// word, and returns the word fragment before it.
func hyphenated(line string) (word string, ok bool) {
	r, n := utf8.DecodeLastRuneInString(line)
	if r != '-' && r != '\u2010' && r != '\u00AD' {
		return "", false
	}
	head := line[:len(line)-n]
	i := strings.LastIndexFunc(head, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	word = head[i+1:]
	last, _ := utf8.DecodeLastRuneInString(word)
	return word, word != "" && unicode.IsLetter(last)
}

// continuesWord reports whether next starts with a lower-case letter.
func continuesWord(next string) bool {
	r, _ := utf8.DecodeRuneInString(next)
	return unicode.IsLower(r)
}

// compoundSet holds the lower-cased hyphenated words written inside
// lines (not at their end), by their first part.
type compoundSet map[string][]string // "fine" -> ["tuning", "tuned"]

func compounds(lines []string) compoundSet {
	set := compoundSet{}
	for _, l := range lines {
		for _, w := range strings.Fields(l) {
			w = strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
			if i := strings.LastIndexByte(w, '-'); i > 0 && i < len(w)-1 {
				set[w[:i]] = append(set[w[:i]], w[i+1:])
			}
		}
	}
	return set
}

// has reports whether left-right, or a form of it sharing right's first
// three letters (or all of a shorter one), is a known compound.
func (c compoundSet) has(left, right string) bool {
	left, right = strings.ToLower(left), strings.ToLower(right)
	for _, r := range c[left] {
		n := min(3, len(r), len(right))
		if r == right || n > 0 && r[:n] == right[:n] {
			return true
		}
	}
	return false
}

// joinHyphen decides how line (ending in a splitting hyphen) joins next:
// it returns line with the hyphen removed unless the compound keeps it.
func joinHyphen(line, next string, known compoundSet) string {
	word, _ := hyphenated(line)
	_, n := utf8.DecodeLastRuneInString(line)
	hyphen := line[len(line)-n:]
	if hyphen == "\u00AD" {
		return line[:len(line)-n]
	}
	end := strings.IndexFunc(next, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	if end < 0 {
		end = len(next)
	}
	if strings.Contains(word, "-") || known.has(word, next[:end]) {
		return line
	}
	return line[:len(line)-n]
}
