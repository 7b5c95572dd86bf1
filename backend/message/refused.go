package message

// Refusal codes: why a vision model's answer for a region (a formula's
// LaTeX, a figure's description, a table's summary) was not kept
// (corpus.Refusal). The explorer shows them; a later describe run with
// the same model skips the region.
const (
	RefusedEmpty         = "refused.empty"
	RefusedTooLong       = "refused.too_long" // chars, limit
	RefusedNotUTF8       = "refused.not_utf8"
	RefusedControl       = "refused.control"
	RefusedCodeBlock     = "refused.code_block"
	RefusedBraceUnopened = "refused.brace_unopened"
	RefusedBracesOpen    = "refused.braces_open" // count
	RefusedSentences     = "refused.sentences"
	RefusedProse         = "refused.prose"     // words
	RefusedTruncated     = "refused.truncated" // cut at the model's token limit
	RefusedBlocked       = "refused.blocked"   // the provider's content filter
)

func init() {
	refused := map[string]func(Params) string{
		RefusedEmpty: fixed("the answer is empty"),
		RefusedTooLong: func(p Params) string {
			return "the answer has " + str(p, "chars") + " characters, more than " + str(p, "limit")
		},
		RefusedNotUTF8:       fixed("the answer is not valid UTF-8"),
		RefusedControl:       fixed("the answer holds control characters"),
		RefusedCodeBlock:     fixed("the answer holds a code block among other text"),
		RefusedBraceUnopened: fixed("a brace closes that was not opened"),
		RefusedBracesOpen:    func(p Params) string { return str(p, "count") + " braces are left open" },
		RefusedSentences:     fixed("the answer holds sentences"),
		RefusedProse:         func(p Params) string { return "the answer holds " + str(p, "words") + " words of prose" },
		RefusedTruncated:     fixed("the answer was cut at the model's token limit"),
		RefusedBlocked:       fixed("the provider's content filter blocked the answer"),
	}
	for code, f := range refused {
		english[code] = f
	}
}
