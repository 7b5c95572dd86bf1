package ingest

import (
	"context"
	"testing"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/testpdf"
)

// TestCropBudget: four pages of eight captioned figures that all draw one
// shared incompressible image are read with regions under budgets of
// 1 MiB of crops a page and 2 MiB a document: every figure is kept with
// its caption, the crops stay within both budgets, and the document is
// added with a coded warning counting the figures that lost their
// picture. (With the crop checks taken out, the same run keeps 32 crops
// of about 400 KB each and fails.)
func TestCropBudget(t *testing.T) {
	data := testpdf.SharedFigures(4, 8)
	if len(data) > 1<<20 {
		t.Fatalf("the file is %d bytes, want about 720 KB", len(data))
	}
	const page, doc = 1 << 20, 2 << 20
	res, err := Run(context.Background(), "figures.pdf", data, Options{Regions: true, Budget: Budget{PageCropBytes: page, DocCropBytes: doc}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	total, figures, crops := 0, 0, 0
	for _, p := range res.Pages {
		bytes := 0
		for _, r := range p.Regions {
			if r.Kind != corpus.ChunkFigure {
				continue
			}
			figures++
			if r.Caption == "" {
				t.Errorf("page %d: a figure without its caption", p.Number)
			}
			if len(r.Image) > 0 {
				crops++
			}
			bytes += len(r.Image)
		}
		if bytes > page {
			t.Errorf("page %d keeps %d bytes of crops, over its budget of %d", p.Number, bytes, page)
		}
		total += bytes
	}
	if figures != 32 || crops == 0 {
		t.Fatalf("%d figures, %d with a crop; want 32, some cropped", figures, crops)
	}
	if total > doc {
		t.Errorf("the document keeps %d bytes of crops, over its budget of %d", total, doc)
	}
	w := res.Doc.Warning
	if w == nil || w.Code != message.RegionBudget || w.Params["crops"] != 32-crops {
		t.Errorf("warning %+v, want %s with crops %d", w, message.RegionBudget, 32-crops)
	}
	t.Logf("%d of 32 figures kept their crop, %d bytes", crops, total)
}
