package study

import (
	"context"
	"log"
	"math"
	"regexp"
	"slices"
)

// How near-duplicate flashcards were found (Deck.Dedup).
const (
	// DedupEmbedding: the cosine of the cards' embeddings (question and
	// answer, citations removed) reached the model's DuplicateCosine.
	DedupEmbedding = "embedding"
	// DedupText: no embedding model (or one with no measured threshold):
	// only cards with the same question and the same answer (citations,
	// case, spacing and final punctuation aside) are merged.
	DedupText = "text"
	// DedupTextFallback: the embedding model failed (not cancelled), so
	// the cards merged on text only, as with DedupText, rather than the
	// deck being lost.
	DedupTextFallback = "text_fallback"
)

// DuplicateCosine is, for each embedding model, the cosine from which two
// cards (question and answer, citations removed) are the same card, if
// their answers do not give different numbers (duplicate). Measured by
// TestDuplicateCosine on the hand-written pairs of
// testdata/study/card_pairs.json: 18 pairs asking the same fact (as two
// documents, or two batches, give it) against 18 asking a neighbouring
// fact of the same topic, English and French. Each threshold merges no
// distinct pair and most duplicates, a lost card being worse than a
// card twice:
//
//	bge-small-en-v1.5 at 0.89: duplicates 0.831-0.953 (en), 0.884-0.967 (fr);
//	  distinct pairs up to 0.883 (en), 0.875 (fr): 14 of 18 duplicates merged
//	multilingual-e5-small at 0.94: duplicates 0.914-0.974 (en), 0.961-0.976 (fr);
//	  distinct up to 0.902 (en; 0.955 for 28.4 against 41.8 BLEU, kept apart
//	  by their numbers), 0.935 (fr): 17 of 18 merged
//	all-MiniLM-L6-v2 at 0.80: duplicates 0.633-0.940 (en), 0.722-0.923 (fr);
//	  distinct up to 0.764 (0.883 for the BLEU pair): 14 of 18 merged
//
// USE-lite is not listed: its French distinct pairs reach 0.929 and its
// duplicates start at 0.898, so no threshold separates them; with it (or
// any model not listed) cards merge on text only (DedupText).
var DuplicateCosine = map[string]float64{
	"bge-small-en-v1.5":     0.89,
	"multilingual-e5-small": 0.94,
	"all-MiniLM-L6-v2":      0.80,
}

// merge folds each card into an earlier one it duplicates: the earlier
// keeps its place and adds the duplicate's page to Also (a verified card
// takes the place of an unverified one it duplicates). It returns the
// cards left, how many were merged, and how duplicates were found; an
// embedding that fails (ctx not cancelled) falls back to text equality
// (DedupTextFallback).
func (s *Studier) merge(ctx context.Context, cards []Card, lang string) (out []Card, merged int, how, model string, err error) {
	if len(cards) < 2 {
		return cards, 0, DedupText, "", nil
	}
	texts := make([]string, len(cards))
	for i, c := range cards {
		texts[i] = c.Question + "\n" + bare(c.Answer)
	}
	model, vecs, err := s.docs.Embed(ctx, lang, texts)
	failed := false
	if err != nil {
		if ctx.Err() != nil {
			return cards, 0, "", "", err
		}
		// The deck is paid for: it merges on text rather than being lost.
		log.Printf("flashcards: embedding the cards failed, merging on text only: %v", err)
		model, vecs, failed = "", nil, true
	}
	threshold, measured := DuplicateCosine[model]
	same := func(i, j int) bool {
		return norm(cards[i].Question) == norm(cards[j].Question) && norm(bare(cards[i].Answer)) == norm(bare(cards[j].Answer))
	}
	how = DedupText
	if failed {
		how = DedupTextFallback
	}
	if measured && len(vecs) == len(cards) {
		how = DedupEmbedding
		same = func(i, j int) bool {
			return duplicate(cosine(vecs[i], vecs[j]), threshold, bare(cards[i].Answer), bare(cards[j].Answer))
		}
	} else {
		model = ""
	}
	var kept []int // indexes into cards of the cards kept, in out's order
	for i, c := range cards {
		k := slices.IndexFunc(kept, func(j int) bool { return same(i, j) })
		if k < 0 {
			kept = append(kept, i)
			out = append(out, c)
			continue
		}
		merged++
		if into := &out[k]; c.Check.Verified && !into.Check.Verified {
			c.Also = append([]Cited(nil), c.Also...)
			absorb(&c, *into)
			*into = c
		} else {
			absorb(into, c)
		}
	}
	return out, merged, how, model, nil
}

// absorb adds dup's pages to c's Also, those c does not cite already.
func absorb(c *Card, dup Card) {
	for _, p := range append([]Cited{{Label: dup.Label, DocID: dup.DocID, Page: dup.Page, Verified: dup.Check.Verified}}, dup.Also...) {
		if (p.DocID == c.DocID && p.Page == c.Page) ||
			slices.ContainsFunc(c.Also, func(a Cited) bool { return a.DocID == p.DocID && a.Page == p.Page }) {
			continue
		}
		c.Also = append(c.Also, p)
	}
}

// duplicate tells whether two cards whose embeddings have cosine c are
// the same card: c reaches threshold, and their answers do not give
// different numbers (when both hold numbers, one's must all be in the
// other's: "28.4 BLEU on English-German" and "41.8 BLEU on
// English-French" are two cards however near their embeddings).
func duplicate(c, threshold float64, a, b string) bool {
	if c < threshold {
		return false
	}
	na, nb := answerNumbers.FindAllString(a, -1), answerNumbers.FindAllString(b, -1)
	if len(na) == 0 || len(nb) == 0 {
		return true
	}
	within := func(x, y []string) bool {
		for _, n := range x {
			if !slices.Contains(y, n) {
				return false
			}
		}
		return true
	}
	return within(na, nb) || within(nb, na)
}

// answerNumbers finds the numbers of an answer.
var answerNumbers = regexp.MustCompile(`\d+(?:[.,]\d+)?`)

// cosine is the cosine similarity of two vectors (0 when either is zero).
func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range min(len(a), len(b)) {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
