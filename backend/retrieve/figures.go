package retrieve

import (
	"context"
	"fmt"
	"slices"

	"vika/backend/corpus"
	"vika/backend/index"
	"vika/backend/langid"
)

// ImageModel puts questions and figure crops in one vector space (CLIP:
// package clip). The figures' vectors are computed by its image side and
// given to AddFigures; EmbedText gives a question's unit vector.
type ImageModel interface {
	Name() string
	Dim() int
	EmbedText(ctx context.Context, text string) ([]float32, error)
}

// Figures is the figure list of a search: the image vectors of the figure
// passages (corpus.ChunkFigure, by chunk id) and the model whose text side
// scores them for a question.
type Figures struct {
	Model ImageModel
	Index *index.Dense
}

// The figure list joins a search's ranked list by Reciprocal Rank Fusion
// (k = DefaultRRFK, as for a question's expansions): a passage scores
// 1/(k + its rank in the search's list) + FigureWeight/(k + its rank among
// the figures) over the FigureDepth figures nearest the question.
//
// Equal weight is plain RRF: without a measurement of CLIP over PDF
// figures (its weights cannot be fetched where Vika is built) there is
// nothing to tune it from. The depth bounds what a poor list costs: at
// most FigureDepth figures the text did not find enter the list, the
// first of them just after the search's first hit, and the passages the
// text found keep their order among themselves.
const (
	FigureWeight = 1.0
	FigureDepth  = 3
	// MaxFigureDepth bounds SearchOptions.FigureDepth (and the settings').
	MaxFigureDepth = 20
)

// figureDepth is the figure list's depth for SearchOptions.FigureDepth n:
// FigureDepth for 0, none for a negative n, at most MaxFigureDepth.
func figureDepth(n int) int {
	switch {
	case n == 0:
		return FigureDepth
	case n < 0:
		return 0
	}
	return min(n, MaxFigureDepth)
}

// FoundImage is Hit.FoundBy of a figure only the figure list found.
const FoundImage = "image"

// ImageModel names the text-to-image model of the figure list; "" without
// one.
func (r *Retriever) ImageModel() string {
	if r.figs == nil {
		return ""
	}
	return r.figs.Model.Name()
}

// FigureVectors counts the figures holding an image vector.
func (r *Retriever) FigureVectors() int {
	if r.figs == nil {
		return 0
	}
	return r.figs.Index.Len()
}

// AddFigures indexes the image vectors of figure passages (replacing those
// of the same ids); it does nothing without a figure list. Passages of
// other kinds are refused.
func (r *Retriever) AddFigures(chunks []corpus.Chunk, vecs [][]float32) error {
	if r.figs == nil || len(chunks) == 0 {
		return nil
	}
	if len(chunks) != len(vecs) {
		return fmt.Errorf("retrieve: %d figures but %d vectors", len(chunks), len(vecs))
	}
	for _, c := range chunks {
		if c.Kind != corpus.ChunkFigure {
			return fmt.Errorf("retrieve: passage %s is a %q, not a figure", c.ID, c.Kind)
		}
	}
	return r.figs.Index.Add(chunks, vecs)
}

// FigureLang is the language of the questions the figure list serves:
// CLIP's text side learnt English captions only, so its vector of a
// question in another language ranks figures by chance.
const FigureLang = "en"

// figureList returns the depth figures nearest question, best first;
// none for depth 0, without a figure list, in bm25 mode (lexical search only),
// for a question in another language than FigureLang, or when no figure
// has a vector. The question's language is chosen among FigureLang and
// the languages of the session's passages (langid.Question): in a
// session of English documents every question is taken for English, so
// a keyword query that lingua alone would call French ("confusion
// matrix") keeps its figure list; in a session that also holds French
// documents, a French question searched in hybrid mode (which a
// multilingual text model allows) gets none. A question in a language no
// document is in (German in an English session) is taken for the nearest
// of those; one too short to tell keeps its figure list.
func (r *Retriever) figureList(ctx context.Context, question string, mode Mode, scope corpus.Scope, depth int, st *Stats) ([]index.Scored, error) {
	if depth <= 0 || r.figs == nil || mode == ModeBM25 || r.figs.Index.Len() == 0 {
		return nil, nil
	}
	among := r.book.languages()
	if !slices.Contains(among, FigureLang) {
		among = append(among, FigureLang)
	}
	if l := langid.Question(question, among...).Lang; l != langid.Undetermined && l != FigureLang {
		return nil, nil
	}
	t := r.now()
	qv, err := r.figs.Model.EmbedText(ctx, question)
	if err != nil {
		return nil, err
	}
	list, err := r.figs.Index.SearchScoped(ctx, qv, depth, scope)
	if err != nil {
		return nil, err
	}
	st.ImageModel = r.figs.Model.Name()
	st.FigureCandidates = len(list)
	st.Figures = r.now().Sub(t)
	return list, nil
}

// fuseFigures merges the figure list into cands, the search's ranked list
// (see FigureWeight), and returns the result best first (fuseExtra).
func fuseFigures(cands []*candidate, figs []index.Scored) []*candidate {
	return fuseExtra(cands, figureExtra(figs))
}

// figureExtra is the figure list as fuseExtra takes it.
func figureExtra(figs []index.Scored) extraList {
	return extraList{list: figs, weight: FigureWeight, mark: func(c *candidate, rank int) { c.figureRank = rank }}
}
