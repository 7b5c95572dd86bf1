package message

// SelectionInvalid: the text selected in the viewer cannot be asked
// about: no document or page, no text, or more than max characters (the
// window checks first: a bug or a selection too long).
const SelectionInvalid = "selection.invalid" // max

func init() {
	english[SelectionInvalid] = func(p Params) string {
		return "This selection cannot be asked about: select some text of one page, at most " + str(p, "max") + " characters."
	}
}
