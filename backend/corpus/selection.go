package corpus

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"vika/backend/message"
)

// ErrInvalid is a setting or an option out of its bounds, wrapped with
// what is wrong (message.Invalid): the answers' options, a selection, the
// session's settings.
var ErrInvalid = message.Register(errors.New("invalid settings"), message.Invalid)

// Selection is a passage the student selected in the viewer (the PDF's
// text layer, or the OCR lines of a scanned page) and asks about: it goes
// to the model as the first source, cited by its page, and the search
// looks around its page first.
type Selection struct {
	DocID string `json:"doc_id"`
	Page  int    `json:"page"`
	Text  string `json:"text"`
}

// MaxSelectionRunes bounds a selection: a passage, not a chapter.
const MaxSelectionRunes = 2000

// SelectionID is the chunk id of a selection's source.
const SelectionID = "selection"

// Validate checks a selection: its document and page given, some text,
// at most MaxSelectionRunes of it. A nil selection is valid (none); an
// invalid one fails with ErrInvalid, coded message.SelectionInvalid.
func (sel *Selection) Validate() error {
	var err error
	switch {
	case sel == nil:
		return nil
	case sel.DocID == "" || sel.Page < 1:
		err = fmt.Errorf("%w: a selection needs its document and page", ErrInvalid)
	case strings.TrimSpace(sel.Text) == "":
		err = fmt.Errorf("%w: the selection is empty", ErrInvalid)
	case utf8.RuneCountInString(sel.Text) > MaxSelectionRunes:
		err = fmt.Errorf("%w: the selection is longer than %d characters", ErrInvalid, MaxSelectionRunes)
	}
	return message.Wrap(err, message.SelectionInvalid, "max", MaxSelectionRunes)
}
