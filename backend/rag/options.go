package rag

import (
	"fmt"

	"vika/backend/prompt"
)

// MaxK bounds Options.K (and the settings' K).
const MaxK = 50

// validate reports an option out of its range (K is bounded, not refused).
func (o Options) validate() error {
	if o.MultiQueryVariants < 0 || o.MultiQueryVariants > prompt.MaxRephrasings {
		return fmt.Errorf("%w: multi_query_variants must be between 1 and %d (0 for %d), not %d",
			ErrInvalid, prompt.MaxRephrasings, prompt.DefaultRephrasings, o.MultiQueryVariants)
	}
	if sc := o.Scope; sc.From < 0 || sc.To < 0 || (sc.To > 0 && sc.From > sc.To) {
		return fmt.Errorf("%w: the scope's pages %d-%d are not a range", ErrInvalid, sc.From, sc.To)
	}
	return o.Selection.Validate()
}
