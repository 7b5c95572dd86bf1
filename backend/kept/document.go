package kept

import (
	"slices"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/message"
)

// Document is a processed document as kept: what an add read of the PDF,
// with its figures' crops beside it (a region's crop is not part of the
// region's JSON, which goes to the window).
type Document struct {
	Doc    corpus.Document
	Pages  []corpus.Page
	Chunks []corpus.Chunk
	// Crops are the regions' crops (PNG), by page and place among the
	// page's regions; a course file keeps none (the PDF is read again).
	Crops []Crop `json:",omitempty"`
	// Outputs are the models' outputs about the document a course file
	// carries (the cache keeps each as an entry of its own).
	Outputs []Output `json:",omitempty"`
}

// Crop is the crop of the i-th region of a page.
type Crop struct {
	Page, Region int
	PNG          []byte
}

// NewDocument keeps res's document, pages (their regions' crops among
// Crops) and passages.
func NewDocument(res ingest.Result) Document {
	d := Document{Doc: res.Doc, Pages: res.Pages, Chunks: res.Chunks}
	for _, p := range res.Pages {
		for i, r := range p.Regions {
			if len(r.Image) > 0 {
				d.Crops = append(d.Crops, Crop{Page: p.Number, Region: i, PNG: r.Image})
			}
		}
	}
	return d
}

// Result is the ingest result d keeps, its crops back with their regions
// (on copies of the pages' regions: d is left as it is). A crop that
// names no region is left out.
func (d Document) Result() ingest.Result {
	pages := d.Pages
	if len(d.Crops) > 0 {
		pages = slices.Clone(d.Pages)
		own := map[int]bool{} // pages whose regions are copied already
		for _, c := range d.Crops {
			i := c.Page - 1
			if i < 0 || i >= len(pages) || c.Region < 0 || c.Region >= len(pages[i].Regions) {
				continue
			}
			if !own[i] {
				pages[i].Regions, own[i] = slices.Clone(pages[i].Regions), true
			}
			pages[i].Regions[c.Region].Image = c.PNG
		}
	}
	return ingest.Result{Doc: d.Doc, Pages: pages, Chunks: d.Chunks}
}

// Belongs reports whether every part of d belongs to the document id and
// keeps an ingest's budgets (ingest.WithinBudget; maxPages 0 is the
// default): processed data that did not come from this session's workers
// is read as untrusted.
func (d Document) Belongs(id string, maxPages int) bool {
	if d.Doc.ID != id || d.Doc.Pages != len(d.Pages) || d.Doc.Chunks != len(d.Chunks) {
		return false
	}
	for i, p := range d.Pages {
		if p.DocID != id || p.Number != i+1 {
			return false
		}
	}
	for _, c := range d.Chunks {
		if c.DocID != id || c.Page < 1 || c.Page > len(d.Pages) {
			return false
		}
	}
	return ingest.WithinBudget(d.Pages, d.Chunks, maxPages)
}

// Vectors are a document's passage vectors by one set of embedding
// models (in passage order), and its figures' image vectors by CLIP, by
// the id of their passage.
type Vectors struct {
	Vecs       [][]float32
	FigChunks  []string
	FigVectors [][]float32
}

// Output is a model's output about a document, kept so that it is not
// asked for again: a figure's description, a table's or a passage's
// summary, a formula's LaTeX (Kind "region" or "passage": Text is the
// output), or a study guide (Kind "study": Text is the guide in this
// encoding). Key names what it is of, the model that wrote it and the
// prompt's version (the engine's fingerprint of them); Model is that
// model ("provider/id"), shown with it ("" for a guide, which names its
// models itself).
type Output struct {
	Kind  string `json:"kind"`
	Key   string `json:"key"`
	Model string `json:"model"`
	Text  string `json:"text"`
	// Refusal is why the model's answer was not kept (a message.Refused*
	// code), Text then empty: the cache keeps refusals too, so that the
	// same model is not asked the same question again.
	Refusal *message.Message `json:"refusal,omitempty"`
}
