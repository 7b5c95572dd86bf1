package rag

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vika/backend/corpus"
	"vika/backend/engine"
	"vika/backend/ingest"
	"vika/backend/llm"
	"vika/backend/llm/llmtest"
	"vika/backend/message"
	"vika/backend/pdf"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// figurePage is a page that talks about its figure 3.
const figurePage = "Figure 3 compares the training error of plain and residual networks of 18 and 34 layers on ImageNet."

// cropOf renders the top of page 1 of data as a PNG, the way a figure's
// crop is made (backend/pdf's renderer, 150 DPI).
func cropOf(t *testing.T, data []byte) []byte {
	t.Helper()
	d, err := pdf.Open(data, pdf.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	img, err := d.RenderRegion(1, pdf.Rect{X0: 40, Y0: 20, X1: 560, Y1: 160}, 150)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// lookEngine is the session engine with the figure regions a detector
// would have found: page 1 of figs.pdf holds figure 3 with its crop.
type lookEngine struct {
	*engine.Engine
	doc     string
	regions []corpus.Region
}

func (e lookEngine) RegionOf(context.Context, string) (corpus.Region, bool) {
	return corpus.Region{}, false
}

func (e lookEngine) RegionsOn(_ context.Context, doc string, page int) []corpus.Region {
	var out []corpus.Region
	for _, r := range e.regions {
		if doc == e.doc && r.Page == page {
			out = append(out, r)
		}
	}
	return out
}

func newLookEngine(t *testing.T) (lookEngine, []byte) {
	t.Helper()
	eng := newEngine(t)
	data := testpdf.Text(figurePage, "Deeper plain networks have higher training error than shallower ones.")
	if _, err := addPDF(t, eng, "figs.pdf", data); err != nil {
		t.Fatal(err)
	}
	crop := cropOf(t, data)
	return lookEngine{Engine: eng, doc: ingest.DocID(data), regions: []corpus.Region{
		{Kind: corpus.ChunkFigure, Page: 1, BBox: [4]float64{40, 20, 560, 160}, Caption: "Figure 3: Training on ImageNet.", Image: crop},
		{Kind: corpus.ChunkFigure, Page: 1, BBox: [4]float64{40, 400, 560, 560}, Caption: "Figure 4: Error on CIFAR-10.", Image: crop[:len(crop)-1]},
	}}, crop
}

// geminiImages returns the images of the last message of a Gemini request.
func geminiImages(t *testing.T, body string) (texts []string, images [][]byte) {
	t.Helper()
	var req struct {
		Contents []struct {
			Parts []struct {
				Text       string `json:"text"`
				InlineData *struct {
					MIMEType string `json:"mimeType"`
					Data     string `json:"data"`
				} `json:"inlineData"`
			} `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Fatal(err)
	}
	last := req.Contents[len(req.Contents)-1]
	for _, p := range last.Parts {
		if p.InlineData == nil {
			texts = append(texts, p.Text)
			continue
		}
		if p.InlineData.MIMEType != "image/png" {
			t.Errorf("mime type %q", p.InlineData.MIMEType)
		}
		b, err := base64.StdEncoding.DecodeString(p.InlineData.Data)
		if err != nil {
			t.Fatal(err)
		}
		images = append(images, b)
	}
	return texts, images
}

// TestAnswerLooksAtTheNamedFigure: a question naming figure 3 sends its
// crop (and not figure 4's) to Gemini, labelled by the source it belongs
// to, and the metrics record that one image was sent.
func TestAnswerLooksAtTheNamedFigure(t *testing.T) {
	eng, crop := newLookEngine(t)
	p := newProviders(t, func(llmtest.Request) llmtest.Reply {
		return geminiSays("Figure 3 shows plain networks training worse than residual ones [figs.pdf p.1].")
	}, func(llmtest.Request) llmtest.Reply { return groqSays("unused") }, 0)
	s := New(eng, p.svc, Config{})
	a, err := s.Ask(t.Context(), "What does figure 3 show about plain networks?", testOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.ModelUsed != "gemini/gemini-2.5-flash-lite" || a.Metrics.ImagesSent != 1 || a.Metrics.ImagesWithheld != 0 {
		t.Fatalf("model %s, images sent %d, withheld %d", a.ModelUsed, a.Metrics.ImagesSent, a.Metrics.ImagesWithheld)
	}
	texts, images := geminiImages(t, p.gemini.Last().Body)
	if len(images) != 1 || !bytes.Equal(images[0], crop) {
		t.Fatalf("Gemini received %d images (want figure 3's crop, %d bytes)", len(images), len(crop))
	}
	if _, err := png.Decode(bytes.NewReader(images[0])); err != nil {
		t.Errorf("the crop received is not a PNG: %v", err)
	}
	src := 0
	for _, s := range a.Sources {
		if s.Label == "[figs.pdf p.1]" {
			src = s.Index
		}
	}
	wantLabel := `Image of source ` + itoa(src) + ` [figs.pdf p.1] (figure: "Figure 3: Training on ImageNet.")`
	if src == 0 || len(texts) != 2 || texts[1] != wantLabel || !strings.Contains(texts[0], "Images of some sources follow the question") {
		t.Errorf("text parts = %q, want the prompt then %q", texts, wantLabel)
	}
	for _, n := range a.Notices {
		if n.Code == message.NoticeImagesWithheld {
			t.Errorf("notice %q for a vision model", n.Message)
		}
	}
}

// TestTextOnlyModelIsToldAndStudentNoticed: a manual choice of a text-only
// model gets the text without images; the student is told, with a code.
func TestTextOnlyModelIsToldAndStudentNoticed(t *testing.T) {
	eng, _ := newLookEngine(t)
	p := newProviders(t, func(llmtest.Request) llmtest.Reply { return geminiSays("unused") },
		func(llmtest.Request) llmtest.Reply {
			return groqSays("Plain networks train worse [figs.pdf p.1].")
		}, 0)
	s := New(eng, p.svc, Config{})
	o := testOptions()
	o.Provider, o.Model = "groq", "llama-3.1-8b-instant"
	a, err := s.Ask(t.Context(), "What does figure 3 show about the training error of plain networks?", o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.ModelUsed != "groq/llama-3.1-8b-instant" || a.Metrics.ImagesSent != 0 || a.Metrics.ImagesWithheld != 1 {
		t.Fatalf("model %s, images sent %d, withheld %d", a.ModelUsed, a.Metrics.ImagesSent, a.Metrics.ImagesWithheld)
	}
	body := p.groq.Last().Body
	if strings.Contains(body, "image_url") || strings.Contains(body, "Images of some sources") {
		t.Error("a text-only model was sent images or told of them")
	}
	var got []llm.Notice
	for _, n := range a.Notices {
		if n.Code == message.NoticeImagesWithheld {
			got = append(got, n)
		}
	}
	if len(got) != 1 || got[0].Params["count"] != 1 || got[0].Params["model"] != "Llama 3.1 8B (Groq)" {
		t.Errorf("notices = %+v", a.Notices)
	}
	if p.gemini.Count() != 0 {
		t.Error("Gemini was asked despite the manual choice")
	}
}

// TestNoPicturesNoImages: a question that names no figure, over sources
// that are no table or figure, sends nothing and notices nothing.
func TestNoPicturesNoImages(t *testing.T) {
	eng, _ := newLookEngine(t)
	p := newProviders(t, func(llmtest.Request) llmtest.Reply {
		return geminiSays("Deeper plain networks have higher training error [figs.pdf p.2].")
	}, nil, 0)
	a, err := New(eng, p.svc, Config{}).Ask(t.Context(), "Do deeper plain networks have higher training error?", testOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, images := geminiImages(t, p.gemini.Last().Body); len(images) != 0 || a.Metrics.ImagesSent != 0 || a.Metrics.ImagesWithheld != 0 {
		t.Errorf("%d images sent, metrics %d/%d", len(images), a.Metrics.ImagesSent, a.Metrics.ImagesWithheld)
	}
}

func TestPicturesFor(t *testing.T) {
	eng, crop := newLookEngine(t)
	res, err := eng.Search(t.Context(), retrieve.Query{Question: "figure 3 figure 4 plain networks"}, engine.SearchOptions{Mode: "bm25", K: 8})
	if err != nil {
		t.Fatal(err)
	}
	srcs := sourcesOf(retrieval{hits: res.Hits})
	got := picturesFor(t.Context(), eng, "Compare Figure 4 and fig. 3", srcs)
	var caps []string
	for _, p := range got {
		caps = append(caps, p.Caption)
	}
	if diff := cmp.Diff([]string{"Figure 4: Error on CIFAR-10.", "Figure 3: Training on ImageNet."}, caps); diff != "" {
		t.Errorf("pictures (-want +got):\n%s", diff)
	}
	if len(got) == 2 && !bytes.Equal(got[1].Data, crop) {
		t.Error("figure 3's crop is not the one sent")
	}
	if got := picturesFor(t.Context(), eng, "What does the third figure show?", srcs); len(got) == 0 || got[0].Caption != "Figure 3: Training on ImageNet." {
		t.Errorf("the third figure: %d pictures, want Figure 3's first", len(got))
	}
	if got := picturesFor(t.Context(), nil, "figure 3", srcs); got != nil {
		t.Error("pictures without a source of them")
	}
	if got := picturesFor(t.Context(), eng, "What is table 3?", srcs); len(got) != 0 {
		t.Errorf("a table named, figures sent: %d", len(got))
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
