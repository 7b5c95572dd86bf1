package cli

import (
	"testing"

	"vika/backend/corpus"
)

// TestLeadSummary: the stand-in summary is the section and the first
// sentence, at most leadWords words (frontend/e2e/fake-gemini.mjs's
// leadSummary answers the same for the same passage).
func TestLeadSummary(t *testing.T) {
	for _, tc := range []struct {
		c    corpus.Chunk
		want string
	}{
		{corpus.Chunk{SectionTitle: "2 Channels & codes", Text: "Channel capacity bounds the rate.\nThe <code> matters here."}, "2 Channels & codes: Channel capacity bounds the rate."},
		{corpus.Chunk{Text: "e.g. a value of 3.5 is fine and no sentence ends"}, "e.g. a value of 3.5 is fine and no sentence ends"},
		{corpus.Chunk{Text: "one two three four five six seven eight nine ten one two three four five six seven eight nine ten one two three four five six seven eight nine ten one two three four five six seven eight nine ten FORTYONE"},
			"one two three four five six seven eight nine ten one two three four five six seven eight nine ten one two three four five six seven eight nine ten one two three four five six seven eight nine ten"},
	} {
		if got := leadSummary(tc.c); got != tc.want {
			t.Errorf("leadSummary(%q) = %q, want %q", tc.c.Text, got, tc.want)
		}
	}
}
