package retrieve

import (
	"slices"
	"testing"

	"vika/backend/corpus"
)

func TestLabelOf(t *testing.T) {
	for _, tc := range []struct {
		c    corpus.Chunk
		want corpus.Label
	}{
		{corpus.Chunk{Kind: corpus.ChunkTable, Text: "Table 3. Error rates (%, 10-crop testing)"}, corpus.Label{Kind: corpus.ChunkTable, Number: "3"}},
		{corpus.Chunk{Kind: corpus.ChunkTable, Text: "TABLE III\n| a | b |"}, corpus.Label{Kind: corpus.ChunkTable, Number: "iii"}},
		{corpus.Chunk{Kind: corpus.ChunkTable, Text: "TABLE Ill\n| a | b |"}, corpus.Label{Kind: corpus.ChunkTable, Number: "iii"}}, // OCR's l for I
		{corpus.Chunk{Kind: corpus.ChunkTable, Text: "Table LX. Fifty-nine"}, corpus.Label{Kind: corpus.ChunkTable, Number: "lx"}},
		{corpus.Chunk{Kind: corpus.ChunkTable, Text: "Tableau 2 – Patients"}, corpus.Label{Kind: corpus.ChunkTable, Number: "2"}},
		{corpus.Chunk{Kind: corpus.ChunkFigure, Text: "Figure 4. Training on ImageNet."}, corpus.Label{Kind: corpus.ChunkFigure, Number: "4"}},
		{corpus.Chunk{Kind: corpus.ChunkFigure, Text: "Fig. 2 — Loss"}, corpus.Label{Kind: corpus.ChunkFigure, Number: "2"}},
		{corpus.Chunk{Kind: corpus.ChunkFigure, Text: "20\n10\niter. (1e4)"}, corpus.Label{}}, // no caption
		{corpus.Chunk{Kind: corpus.ChunkFormula, Text: "y = F(x, {Wi}) + x. (1)"}, corpus.Label{Kind: corpus.ChunkFormula, Number: "1"}},
		{corpus.Chunk{Kind: corpus.ChunkFormula, Text: "y = Ws x"}, corpus.Label{}},
	} {
		if got := labelOf(tc.c); got != tc.want {
			t.Errorf("%q: got %v, want %v", tc.c.Text, got, tc.want)
		}
	}
}

// resNetPages are passages shaped like the ResNet paper's: page 6's body
// text holds Table 3's cells flattened among its prose, page 6's table
// passage holds them as Markdown under the caption, page 1's figure
// passage holds Figure 1's axis labels, and page 5's figure passage is
// Figure 4's caption.
func resNetPages() []corpus.Chunk {
	return []corpus.Chunk{
		{ID: "p1-c1", DocID: "resnet", Page: 1, Kind: corpus.ChunkBody, Lang: "en", Text: "Deep residual learning. Deeper neural networks are more difficult to train. We present a residual learning framework on ImageNet."},
		{ID: "p1-c2", DocID: "resnet", Page: 1, Kind: corpus.ChunkFigure, Lang: "en", Text: "Figure 1. Training error (left) and test error (right) of plain networks and residual networks, as on ImageNet.\n\niter. (1e4) training error (%) test error (%) plain networks residual networks ImageNet plain residual"},
		{ID: "p5-c1", DocID: "resnet", Page: 5, Kind: corpus.ChunkBody, Lang: "en", Text: "Plain networks. We first evaluate 18-layer and 34-layer plain nets. The 34-layer plain net has higher training error than the shallower 18-layer plain net on ImageNet, see the curves of the residual networks too."},
		{ID: "p5-c2", DocID: "resnet", Page: 5, Kind: corpus.ChunkFigure, Lang: "en", Text: "Figure 4. Training on ImageNet. Thin curves denote training error, and bold curves denote validation error of the center crops. Left: plain networks of 18 and 34 layers. Right: ResNets of 18 and 34 layers."},
		{ID: "p6-c1", DocID: "resnet", Page: 6, Kind: corpus.ChunkBody, Lang: "en", Text: "model top-1 err. top-5 err. VGG-16 28.07 9.33 GoogLeNet - 9.15 PReLU-net 24.27 7.38 plain-34 28.54 10.02 ResNet-34 A 25.03 7.76 ResNet-50 22.85 6.71 ResNet-101 21.75 6.05 ResNet-152 21.43 5.71. Table 3. Error rates (%, 10-crop testing) on ImageNet validation. We compare deeper models, and the 152-layer ResNet has a lower top-5 error on the validation set than VGG nets, with testing of 10 crops and a single model on the ImageNet set. The top-5 error of ResNet-152 in 10-crop testing is the lowest top-5 error on ImageNet validation, and ResNet-152 testing beats ResNet-101 testing."},
		{ID: "p6-c2", DocID: "resnet", Page: 6, Kind: corpus.ChunkTable, Lang: "en", Text: "Table 3. Error rates (%, 10-crop testing) on ImageNet validation set.\n\n| model | top-1 err. | top-5 err. |\n| --- | --- | --- |\n| VGG-16 | 28.07 | 9.33 |\n| ResNet-101 | 21.75 | 6.05 |\n| ResNet-152 | 21.43 | 5.71 |"},
		{ID: "p8-c1", DocID: "resnet", Page: 8, Kind: corpus.ChunkBody, Lang: "en", Text: "Object detection on PASCAL and MS COCO with Faster R-CNN, replacing VGG-16 with ResNet-101."},
	}
}

// TestSearchRegionRepresentsItsPage: a question whose words page 6's
// table passage holds as well as its body text gets the table first (on
// the code before regions.go: the body text, the table dropped to the
// page's second turn).
func TestSearchRegionRepresentsItsPage(t *testing.T) {
	r := bm25Retriever(t, resNetPages())
	res, err := r.Search(t.Context(), "top-5 error of ResNet-152 on the ImageNet validation set, 10-crop testing", SearchOptions{Mode: ModeBM25, K: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOfHits(res.Hits); len(got) < 2 || got[0] != "p6-c2" {
		t.Fatalf("hits %v: want the table passage p6-c2 first", got)
	}
	// A question whose words only the body holds keeps the body first.
	res, err = r.Search(t.Context(), "compare deeper models than VGG nets with a single model", SearchOptions{Mode: ModeBM25, K: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOfHits(res.Hits); got[0] != "p6-c1" {
		t.Errorf("hits %v: want the body p6-c1 first (the table lacks the question's words)", got)
	}
}

// TestSearchNamedRegionFirst: "Figure 4" brings Figure 4's passage first,
// ahead of Figure 1's axis labels that match the question's other words
// (before regions.go: Figure 1 first); outside the scope it is not
// brought; a region the words do not find is brought, unscored.
func TestSearchNamedRegionFirst(t *testing.T) {
	r := bm25Retriever(t, resNetPages())
	q := "What does Figure 4 show about plain and residual networks on ImageNet?"
	res, err := r.Search(t.Context(), q, SearchOptions{Mode: ModeBM25, K: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOfHits(res.Hits); got[0] != "p5-c2" {
		t.Fatalf("hits %v: want Figure 4's passage p5-c2 first", got)
	}
	res, err = r.Search(t.Context(), q, SearchOptions{Mode: ModeBM25, K: 4, Scope: corpus.Scope{From: 6}})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(idsOfHits(res.Hits), "p5-c2") {
		t.Errorf("hits %v: Figure 4 is outside the scope (pages 6-)", idsOfHits(res.Hits))
	}
	res, err = r.Search(t.Context(), "Table 3 please", SearchOptions{Mode: ModeBM25, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].ChunkID != "p6-c2" || res.Hits[0].FoundBy != FoundBM25 {
		t.Fatalf("hits %+v: want Table 3's passage first, found by its caption's words", res.Hits)
	}
	res, err = r.Search(t.Context(), "Object detection with Faster R-CNN, and Figure 4", SearchOptions{Mode: ModeBM25, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOfHits(res.Hits); got[0] != "p5-c2" || !slices.Contains(got, "p8-c1") {
		t.Errorf("hits %v: want Figure 4 first, then what the words found", got)
	}
}

// TestNamedRegionOfTheBestDocument: two documents have a Table 2; the one
// whose passages rank best gives it, and a model's description of the
// region comes after the region's own passage.
func TestNamedRegionOfTheBestDocument(t *testing.T) {
	chunks := []corpus.Chunk{
		{ID: "a-p1", DocID: "a", Page: 1, Kind: corpus.ChunkBody, Text: "Patients with cystic fibrosis and their microbiota."},
		{ID: "a-p2", DocID: "a", Page: 2, Kind: corpus.ChunkTable, Text: "Table 2. Patients."},
		{ID: "b-p1", DocID: "b", Page: 1, Kind: corpus.ChunkBody, Text: "Transformer attention layers."},
		{ID: "b-p3", DocID: "b", Page: 3, Kind: corpus.ChunkTable, Text: "Table 2. Attention."},
		{ID: "b-p3" + corpus.DescribedSuffix, DocID: "b", Page: 3, Kind: corpus.ChunkTable, Text: "Table 2. A summary of attention costs."},
	}
	r := bm25Retriever(t, chunks)
	for q, want := range map[string]string{
		"What does Table 2 say about patients with cystic fibrosis?": "a-p2",
		"What does Table 2 say about transformer attention?":         "b-p3",
	} {
		res, err := r.Search(t.Context(), q, SearchOptions{Mode: ModeBM25, K: 3})
		if err != nil {
			t.Fatal(err)
		}
		if got := idsOfHits(res.Hits); got[0] != want {
			t.Errorf("%q: hits %v, want %s first", q, got, want)
		}
	}
}

func TestCaptionLabels(t *testing.T) {
	tab := func(n string) corpus.Label { return corpus.Label{Kind: corpus.ChunkTable, Number: n} }
	fig := func(n string) corpus.Label { return corpus.Label{Kind: corpus.ChunkFigure, Number: n} }
	for text, want := range map[string][]corpus.Label{
		"TABLE II DOWNSTREAM TASKS AND DATASETS OF RAG\nTask Sub Task Dataset": {tab("ii")},
		"Results.\nTable 3: Error rates\nFig. 2. Loss curves":                  {tab("3"), fig("2")},
		"FIGURE 4 PLAIN AND RESIDUAL NETWORKS":                                 {fig("4")},
		"Table 2 shows the error rates of every model.":                        nil, // running text
		"as summarized in Table II.":                                           nil, // not at a line start
		"table 2: lower case":                                                  nil,
	} {
		if got := captionLabels(text); !slices.Equal(got, want) {
			t.Errorf("%q: got %v, want %v", text, got, want)
		}
	}
}

// TestNamedCaptionInBodyText: a table detected without its caption and
// first rows (MMLongBench's RAG survey, page 13) leaves "TABLE II" in its
// page's text. "According to table II" brings that page's passage first,
// ahead of the page that only cites Table II, though the cells, citation
// numbers, hold few of the question's words; a region's passage carrying
// the label still comes before a body caption.
func TestNamedCaptionInBodyText(t *testing.T) {
	chunks := []corpus.Chunk{
		{ID: "p12-c1", DocID: "rag", Page: 12, Kind: corpus.ChunkBody, Text: "The main downstream tasks of RAG and their corresponding datasets are summarized in Table II. Datasets and methods for each task."},
		{ID: "p13-c1", DocID: "rag", Page: 13, Kind: corpus.ChunkBody, Text: "TABLE II DOWNSTREAM TASKS AND DATASETS OF RAG\nTask Sub Task Dataset Method\nQA Single-hop Natural Question [111] [26], [30], [34], [42], [45]"},
		{ID: "p13-c2", DocID: "rag", Page: 13, Kind: corpus.ChunkTable, Text: "| Multi-hop | HotpotQA [118] | [23], [26] |\n| --- | --- | --- |"},
		{ID: "p14-c1", DocID: "rag", Page: 14, Kind: corpus.ChunkBody, Text: "TABLE III SUMMARY OF METRICS\nContext relevance, faithfulness."},
		{ID: "p14-c2", DocID: "rag", Page: 14, Kind: corpus.ChunkTable, Text: "TABLE III SUMMARY OF METRICS\n\n| Context | Faithfulness |\n| --- | --- |"},
	}
	r := bm25Retriever(t, chunks)
	for q, want := range map[string]string{
		"According to table II, which are the datasets that has exactly three methods?": "p13-c1",
		"Which metrics does Table III list?":                                            "p14-c2",
	} {
		res, err := r.Search(t.Context(), q, SearchOptions{Mode: ModeBM25, K: 3})
		if err != nil {
			t.Fatal(err)
		}
		if got := idsOfHits(res.Hits); len(got) == 0 || got[0] != want {
			t.Errorf("%q: hits %v, want %s first", q, got, want)
		}
	}
}

func idsOfHits(hs []corpus.Hit) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.ChunkID
	}
	return out
}

// TestRegionsFirstSwapsWithinThePage: the table passage takes its body
// text's place when it holds every question word the body holds; the
// page keeps its place, and past the window nothing moves.
func TestRegionsFirstSwapsWithinThePage(t *testing.T) {
	book := newPageBook()
	book.add(resNetPages())
	cands := func() []*candidate {
		return []*candidate{{id: "p6-c1"}, {id: "p8-c1"}, {id: "p5-c1"}, {id: "p6-c2"}, {id: "p1-c1"}}
	}
	for _, tc := range []struct {
		name, q string
		window  int
		want    []string
	}{
		{"the table holds the words", "top-5 error of ResNet-152 10-crop testing", 0, []string{"p6-c2", "p8-c1", "p5-c1", "p6-c1", "p1-c1"}},
		{"the body holds more words", "top-5 error of ResNet-152 compared with VGG nets", 0, []string{"p6-c1", "p8-c1", "p5-c1", "p6-c2", "p1-c1"}},
		{"no word at all", "quokka", 0, []string{"p6-c1", "p8-c1", "p5-c1", "p6-c2", "p1-c1"}},
		{"past the window", "top-5 error of ResNet-152 10-crop testing", 3, []string{"p6-c1", "p8-c1", "p5-c1", "p6-c2", "p1-c1"}},
	} {
		if got := idsOf(book.regionsFirst(cands(), tc.q, tc.window)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}
