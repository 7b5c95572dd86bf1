package corpus

import (
	"errors"
	"strings"
	"testing"

	"vika/backend/message"
)

// TestSelectionInvalid: a selection without its page, empty or too long
// fails with ErrInvalid, coded selection.invalid with its bound (not the
// settings' error.invalid); a nil one and a passage are valid.
func TestSelectionInvalid(t *testing.T) {
	for _, sel := range []*Selection{
		{DocID: "d", Text: "some text"},
		{DocID: "d", Page: 2, Text: " \n"},
		{DocID: "d", Page: 2, Text: strings.Repeat("é", MaxSelectionRunes+1)},
	} {
		err := sel.Validate()
		m := message.Of(err)
		if !errors.Is(err, ErrInvalid) || m.Code != message.SelectionInvalid || m.Params["max"] != MaxSelectionRunes {
			t.Errorf("%.20q: %v, %+v", sel.Text, err, m)
		}
	}
	for _, sel := range []*Selection{nil, {DocID: "d", Page: 2, Text: strings.Repeat("é", MaxSelectionRunes)}} {
		if err := sel.Validate(); err != nil {
			t.Errorf("a valid selection: %v", err)
		}
	}
}
