// Package latex checks a vision model's transcription of a formula image
// into LaTeX before it is kept: it must be LaTeX only (no prose, no
// apology), of bounded length, with balanced braces. A transcription that
// fails is refused, and the formula keeps only its text.
package latex

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"vika/backend/message"
)

// MaxRunes bounds a transcription: a display formula of a few lines is
// far shorter; a longer answer is not a formula.
const MaxRunes = 1500

// ErrRefused is a transcription that is not a formula in LaTeX.
var ErrRefused = errors.New("not a LaTeX formula")

// maxProseWords is the most words of four letters or more, outside LaTeX
// commands and \text{...}, a formula may hold ("softmax", "Attention").
const maxProseWords = 3

var (
	// fence is a Markdown code fence around the answer: ```latex ... ```.
	fence = regexp.MustCompile("(?s)^```[A-Za-z]*\\s*\n?(.*?)\\s*```$")
	// textArg is a command whose argument is text, not mathematics.
	textArg = regexp.MustCompile(`\\(?:text[a-z]*|mathrm|mathit|mathbf|mathsf|operatorname\*?|mbox|hbox|label|tag)\s*\{[^{}]*\}`)
	// command is a LaTeX control word.
	command = regexp.MustCompile(`\\[A-Za-z]+`)
	// sentence is the end of a sentence followed by the start of another.
	sentence = regexp.MustCompile(`[a-z]{2,}[.!?:]\s+[A-Z][a-z]`)
)

// delimiters are the math delimiters a model may wrap its answer in.
var delimiters = [][2]string{{"$$", "$$"}, {`\[`, `\]`}, {`\(`, `\)`}, {"$", "$"}}

// refuse is ErrRefused with why, in English, and its message code
// (message.Refused*) with kv as its parameters.
func refuse(why, code string, kv ...any) error {
	return message.Wrap(fmt.Errorf("%w: %s", ErrRefused, why), code, kv...)
}

// Check returns the LaTeX of a model's answer, without the code fence or
// math delimiters it may be wrapped in, or an error wrapping ErrRefused
// that says why it is not a formula (its message.Refused* code:
// message.Of).
func Check(answer string) (string, error) {
	s := strings.TrimSpace(answer)
	if m := fence.FindStringSubmatch(s); m != nil {
		s = strings.TrimSpace(m[1])
	}
	for _, d := range delimiters {
		if len(s) >= len(d[0])+len(d[1]) && strings.HasPrefix(s, d[0]) && strings.HasSuffix(s, d[1]) {
			s = strings.TrimSpace(s[len(d[0]) : len(s)-len(d[1])])
			break
		}
	}
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return "", refuse("the answer is empty", message.RefusedEmpty)
	case n > MaxRunes:
		return "", refuse(fmt.Sprintf("the answer has %d characters, more than %d", n, MaxRunes), message.RefusedTooLong, "chars", n, "limit", MaxRunes)
	case !utf8.ValidString(s):
		return "", refuse("the answer is not valid UTF-8", message.RefusedNotUTF8)
	}
	if strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }) {
		return "", refuse("the answer holds control characters", message.RefusedControl)
	}
	if strings.Contains(s, "```") {
		return "", refuse("the answer holds a code block among other text", message.RefusedCodeBlock)
	}
	if err := balanced(s); err != nil {
		return "", err
	}
	math := textArg.ReplaceAllString(s, " ")
	if sentence.MatchString(math) {
		return "", refuse("the answer holds sentences", message.RefusedSentences)
	}
	if n := proseWords(math); n > maxProseWords {
		return "", refuse(fmt.Sprintf("the answer holds %d words of prose", n), message.RefusedProse, "words", n)
	}
	return s, nil
}

// balanced checks that the braces of s (not counting \{ and \}) open
// before they close and all close.
func balanced(s string) error {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // an escaped character, \{ and \} among them
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return refuse("a brace closes that was not opened", message.RefusedBraceUnopened)
			}
		}
	}
	if depth != 0 {
		return refuse(fmt.Sprintf("%d braces are left open", depth), message.RefusedBracesOpen, "count", depth)
	}
	return nil
}

// proseWords counts the runs of four letters or more of s that are not
// LaTeX commands.
func proseWords(s string) int {
	s = command.ReplaceAllString(s, " ")
	n := 0
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if utf8.RuneCountInString(w) >= 4 {
			n++
		}
	}
	return n
}

// Words returns the words of a LaTeX formula a student may search it
// with: its command names without the backslash ("frac", "sigma",
// "sum"), space-separated, each once, in order of first appearance.
func Words(s string) string {
	seen := map[string]bool{}
	var out []string
	for _, c := range command.FindAllString(s, -1) {
		w := c[1:]
		if len(w) < 2 || seen[w] || layout[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// layout are commands that shape a formula without meaning anything a
// student would search for.
var layout = map[string]bool{
	"left": true, "right": true, "big": true, "Big": true, "bigg": true, "Bigg": true,
	"quad": true, "qquad": true, "displaystyle": true, "textstyle": true, "mathrm": true,
	"text": true, "begin": true, "end": true, "label": true, "tag": true, "nonumber": true,
	"mathcal": true, "mathbf": true, "mathbb": true, "mathit": true, "mathsf": true, "boldsymbol": true,
	"operatorname": true,
}
