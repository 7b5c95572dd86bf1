package anki

import (
	"time"
)

// sample is a deck whose fields hold what a naive writer would break: a
// tab, line breaks, markup characters, quotes, a leading "=" and a tag
// with a space.
func sample() Deck {
	return Deck{
		Name:    "Vika::attention_is_all_you_need.pdf",
		Tags:    []string{"vika", "attention is all"},
		Created: time.Date(2026, 12, 2, 13, 0, 0, 0, time.UTC),
		Notes: []Note{
			{Front: "How many heads does the base Transformer use?", Back: "8 parallel attention heads [attention_is_all_you_need.pdf p.5]", Tags: []string{"p5"}},
			{Front: "What is d_k\twhen h = 8?", Back: "d_k = d_model/h = 64\n<verified> & \"checked\" [attention_is_all_you_need.pdf p.5]"},
			{Front: "=1+1 is not a formula", Back: "a question may start with \"=\" [attention_is_all_you_need.pdf p.1]", Tags: []string{"vika"}},
		},
	}
}
