package rag

import (
	"fmt"

	"vika/backend/corpus"
	"vika/backend/prompt"
	"vika/backend/retrieve"
)

// MaxK bounds Options.K (and the settings' K).
const MaxK = 50

// validate reports an option out of its range (K is bounded, not refused).
func (o Options) validate() error {
	if o.MultiQueryVariants < 0 || o.MultiQueryVariants > prompt.MaxRephrasings {
		return fmt.Errorf("%w: multi_query_variants must be between 1 and %d (0 for %d), not %d",
			corpus.ErrInvalid, prompt.MaxRephrasings, prompt.DefaultRephrasings, o.MultiQueryVariants)
	}
	if _, err := retrieve.ParseFusion(o.Fusion); err != nil {
		return fmt.Errorf("%w: %v", corpus.ErrInvalid, err)
	}
	if o.RerankDepth < 0 || o.RerankDepth > retrieve.MaxRerankDepth {
		return fmt.Errorf("%w: rerank_depth must be between 1 and %d (0 for %d), not %d",
			corpus.ErrInvalid, retrieve.MaxRerankDepth, retrieve.DefaultRerankDepth, o.RerankDepth)
	}
	if d := o.FigureDepth; d != nil && (*d < 0 || *d > retrieve.MaxFigureDepth) {
		return fmt.Errorf("%w: figure_depth must be between 0 (off) and %d, not %d", corpus.ErrInvalid, retrieve.MaxFigureDepth, *d)
	}
	if sc := o.Scope; sc.From < 0 || sc.To < 0 || (sc.To > 0 && sc.From > sc.To) {
		return fmt.Errorf("%w: the scope's pages %d-%d are not a range", corpus.ErrInvalid, sc.From, sc.To)
	}
	return o.Selection.Validate()
}
