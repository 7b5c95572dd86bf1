package llm

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"vika/backend/message"
)

// The bounds of an answer beyond its timeouts (StreamTimed, Timeouts.Total):
// the cap on the text held, and the notices of an answer cut at a cap.

var (
	// errAnswerDeadline ends an answer that outlived Timeouts.Total.
	errAnswerDeadline = errors.New("the answer took too long")
	// errTextCap stops a stream whose text reached MaxAnswerBytes.
	errTextCap = errors.New("the answer reached the cap on its length")
)

func (r *Runner) maxAnswer() int {
	if r.MaxAnswerBytes > 0 {
		return r.MaxAnswerBytes
	}
	return DefaultMaxAnswerBytes
}

// truncation is the notice of an answer cut at a cap: the cap on text
// held, or the model's output-token cap (finish reason "length" or
// "max_tokens").
func truncation(m Model, u Usage, capped bool, maxBytes int) (Notice, bool) {
	n := Notice{Kind: NoticeTruncated, Model: m.Key()}
	switch {
	case capped:
		n.Reason = fmt.Sprintf("longer than %d KB", maxBytes>>10)
		n = n.Say(message.NoticeCutBytes, "model", m.Name, "kb", maxBytes>>10)
	case u.StopReason == "length" || u.StopReason == "max_tokens":
		n.Reason = fmt.Sprintf("output cap of %d tokens", m.MaxOutputTokens)
		n = n.Say(message.NoticeCutTokens, "model", m.Name, "tokens", m.MaxOutputTokens)
	default:
		return n, false
	}
	return n, true
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// split a character.
func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	if n <= 0 {
		return ""
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
