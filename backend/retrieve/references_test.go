package retrieve

import (
	"slices"
	"testing"

	"vika/backend/corpus"
)

func TestListsReferences(t *testing.T) {
	for _, tc := range []struct {
		c    corpus.Chunk
		want bool
	}{
		{corpus.Chunk{Kind: corpus.ChunkReferences, Text: "[45] R. Szeliski. Fast surface interpolation. TPAMI, 1990.\n[46] R. Szeliski. Locally adapted preconditioning. In SIGGRAPH, 2006."}, true},
		{corpus.Chunk{Kind: corpus.ChunkReferences, Text: "Kenton Lee and Kristina Toutanova. 2019. Latent retrieval. In ACL. Ilya Loshchilov. 2017. Decoupled weight decay. Tomas Mikolov. 2013. Efficient estimation."}, true},
		// the closing abstract of a thesis, after its bibliography
		{corpus.Chunk{Kind: corpus.ChunkReferences, Text: "A partir des données de séquençage de l'ADNr 16S de 188 prélèvements provenant de 47 patients (13-38 ans), le pipeline créé a permis de révéler la structure du microbiote."}, false},
		{corpus.Chunk{Kind: corpus.ChunkBody, Text: "[45] R. Szeliski. TPAMI, 1990. [46] In SIGGRAPH, 2006."}, false},
	} {
		if got := listsReferences(tc.c); got != tc.want {
			t.Errorf("listsReferences(%s %.50q) = %v", tc.c.Kind, tc.c.Text, got)
		}
	}
}

func TestAboutReferences(t *testing.T) {
	for q, want := range map[string]bool{
		"residual learning framework to ease the training of deep networks": false,
		"Which papers does the paper cite on batch normalization?":          true,
		"What is the paper's full title that proposes the method?":          true,
		"Quelles références sont données pour le test du khi-deux ?":        true,
		"How many layers does the deepest network have?":                    false,
		"Quels travaux sont cités pour la régression ?":                     true,
		"Which method is recited by the authorities?":                       false,
	} {
		if got := aboutReferences(q); got != want {
			t.Errorf("aboutReferences(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestReferencesLast: a reference-list passage comes after the others,
// unless the question is about references; with the page ranking off,
// the order stays.
func TestReferencesLast(t *testing.T) {
	refs := "[1] A. B. Deep residual networks. In CVPR, 2015.\n[2] C. D. Deep residual networks again. In ICCV, 2016.\n[3] E. F. Deep residual networks. TPAMI, 1990.\n[4] G. H. Deep residual networks. In NIPS, 2013."
	chunks := []corpus.Chunk{
		{ID: "refs", DocID: "d", Page: 9, Lang: "en", Text: refs, Kind: corpus.ChunkReferences},
		{ID: "body", DocID: "d", Page: 1, Lang: "en", Text: "We present residual networks, easier to train than plain ones, and measure them on images."},
	}
	r, _ := emptyRetriever(t, Options{})
	if err := r.Add(t.Context(), chunks, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		q    string
		p    PageRanking
		want []string
	}{
		{"deep residual networks", DefaultPageRanking, []string{"body", "refs"}},
		{"which references on deep residual networks", DefaultPageRanking, []string{"refs", "body"}},
		{"deep residual networks", PageRanking{}, []string{"refs", "body"}},
	} {
		res, err := r.WithPages(tc.p).Search(t.Context(), tc.q, SearchOptions{Mode: ModeBM25, K: 5})
		if err != nil {
			t.Fatal(err)
		}
		if got := hitIDs(res.Hits); !slices.Equal(got, tc.want) {
			t.Errorf("%q (pages %+v): %v, want %v", tc.q, tc.p, got, tc.want)
		}
	}
}
