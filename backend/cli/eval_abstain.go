package cli

import (
	"context"

	"vika/backend/eval"
	"vika/backend/prompt"
	"vika/backend/retrieve"
)

// abstainScore is the abstain rule (prompt.Abstain at its default
// threshold, as an answer applies it) measured on a question set: how
// many of its unanswerable questions it abstains on, and how many
// answerable ones it wrongly abstains on.
type abstainScore struct {
	MinBM25          float64  `json:"min_bm25"`
	Unanswerable     int      `json:"unanswerable"`
	Abstained        int      `json:"abstained"`
	Answerable       int      `json:"answerable"`
	WronglyAbstained int      `json:"wrongly_abstained"`
	Wrong            []string `json:"wrong,omitempty"` // ids of the answerable questions abstained on
}

// measureAbstain searches every question of qs on its own document in the
// default mode with the page ranking p and applies the abstain rule of an
// answer (no hit, or, outside dense mode, a best BM25 score below
// prompt.DefaultMinBM25). It returns nil when qs has no unanswerable
// question.
func measureAbstain(ctx context.Context, qs []eval.PageQuestion, docs map[string]*pagesDoc, p retrieve.PageRanking) (*abstainScore, error) {
	s := &abstainScore{MinBM25: prompt.DefaultMinBM25}
	for _, q := range qs {
		if !q.Answerable() {
			s.Unanswerable++
		}
	}
	if s.Unanswerable == 0 {
		return nil, nil
	}
	for _, q := range qs {
		d := docs[q.File]
		if d == nil {
			return nil, errNoDoc
		}
		res, err := d.r.WithPages(p).Search(ctx, q.Question, retrieve.SearchOptions{Mode: defaultPagesMode(d), K: eval.SourcesCutoff})
		if err != nil {
			return nil, err
		}
		abstains := len(res.Hits) == 0 || (res.Stats.Mode != retrieve.ModeDense && prompt.Abstain(res.Stats.TopLexical, s.MinBM25))
		switch {
		case !q.Answerable() && abstains:
			s.Abstained++
		case q.Answerable():
			s.Answerable++
			if abstains {
				s.WronglyAbstained++
				s.Wrong = append(s.Wrong, q.ID)
			}
		}
	}
	return s, nil
}
