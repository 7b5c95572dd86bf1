package prompt

// DefaultMinBM25 is the best BM25 score below which Vika abstains,
// measured on examples (abstain_test.go; re-measure there whenever
// retrieval's scoring or the chunker changes):
//
//   - the PDFs of ../shared/data (8 text documents, 1,674 chunks), 67
//     questions they answer (testdata/pdf_questions.jsonl)
//     and 40 they do not (testdata/abstain/unanswerable.txt: half
//     off-topic, half near their topics; English and French). AUC 0.94.
//     Abstentions on answerable/unanswerable questions by threshold: 0.20
//     0%/38%, 0.25 1%/60%, 0.30 3%/65%, 0.35 4%/72%, 0.40 9%/78%, 0.50
//     13%/80%;
//   - a generated two-document corpus (24 short chunks, 12 + 12
//     questions), separated perfectly by any threshold from 0.01 to 0.9.
//
// The largest threshold that abstains on at most 3% of the answerable PDF
// questions is 0.345; the default keeps a margin below it, since the
// retriever's scoring and the chunker are still changing. The near-topic
// questions (GPT-3's parameters, GPT-4's BLEU on WMT14 beside the
// Transformer paper) are the ones that pass: their words match, their
// answer is absent. The model, told to say "not found", is the second line
// of defence for them.
const DefaultMinBM25 = 0.3

// Abstain reports whether Vika should give NotFound instead of asking a
// model: topBM25, the best BM25 score among the chunks retrieved for the
// question (index.Lexical's, as corpus.Hit.LexicalScore carries it), is
// below minBM25 (DefaultMinBM25 unless configured). A question with no
// BM25 hit (topBM25 0) abstains.
//
// The raw score is already normalised per query: bleve multiplies BM25's
// sum of term scores by a query norm (measured: 1/sqrt of the sum of the
// query terms' squared IDFs) and by the share of query terms the chunk
// contains, so a long question does not score higher for its length.
// Dividing it again by the number of query terms was measured and is
// worse (AUC 0.82 against 0.94 on the PDFs).
//
// In dense mode no BM25 score is known: do not abstain on this ground.
func Abstain(topBM25, minBM25 float64) bool {
	return topBM25 < minBM25
}
