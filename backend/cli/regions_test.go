package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"

	"vika/backend/testpdf"
)

// illustratedPDF is a page with a ruled, captioned table about channel
// capacities and a captioned block diagram.
func illustratedPDF() []byte {
	return testpdf.Drawn(func(f *fpdf.Fpdf) {
		f.SetFont("Helvetica", "", 10)
		f.Text(72, 90, "Some running text about channels, before the table and the figure.")
		f.Text(72, 120, "Table 1: Capacities of two channels.")
		f.Line(100, 130, 480, 130)
		f.Text(110, 144, "channel")
		f.Text(300, 144, "capacity")
		f.Line(100, 150, 480, 150)
		f.Text(110, 164, "binary")
		f.Text(300, 164, "1 bit")
		f.Text(110, 178, "ternary")
		f.Text(300, 178, "1.58 bits")
		f.Line(100, 186, 480, 186)
		f.Rect(150, 300, 100, 40, "D")
		f.Rect(330, 300, 100, 40, "D")
		f.Line(250, 320, 330, 320)
		f.Text(165, 324, "SOURCE")
		f.Text(345, 324, "RECEIVER")
		f.Text(150, 370, "Figure 1. A source and a receiver.")
	})
}

// `vika ingest --json` counts the regions; --pages lists them with boxes;
// VIKA_REGIONS=off turns detection off.
func TestIngestCountsRegions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "channels.pdf")
	if err := os.WriteFile(path, illustratedPDF(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), []string{"ingest", "--json", "--pages", path}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep ingestReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if rep.Tables != 1 || rep.Figures != 1 || rep.Formulas != 0 {
		t.Errorf("counts: %d tables, %d figures, %d formulas", rep.Tables, rep.Figures, rep.Formulas)
	}
	if len(rep.PageList) != 1 || len(rep.PageList[0].Regions) != 2 {
		t.Fatalf("page list %+v", rep.PageList)
	}
	tb, fg := rep.PageList[0].Regions[0], rep.PageList[0].Regions[1]
	if tb.Kind != "table" || tb.Caption != "Table 1: Capacities of two channels." || !strings.Contains(tb.Text, "| ternary | 1.58 bits |") || tb.BBox[1] < 129 || tb.BBox[3] > 188 {
		t.Errorf("table %+v", tb)
	}
	if fg.Kind != "figure" || fg.ImageBytes == 0 || !strings.Contains(fg.Text, "RECEIVER") || fg.BBox[0] > 151 {
		t.Errorf("figure %+v", fg)
	}

	t.Setenv("VIKA_REGIONS", "off")
	out.Reset()
	if code := Run(context.Background(), []string{"ingest", "--json", path}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	rep = ingestReport{}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Tables != 0 || rep.Figures != 0 {
		t.Errorf("VIKA_REGIONS=off: %d tables, %d figures", rep.Tables, rep.Figures)
	}
}

// `vika search` hits carry the passage's kind: the table's cells find the
// table passage.
func TestSearchHitKind(t *testing.T) {
	path := filepath.Join(t.TempDir(), "channels.pdf")
	if err := os.WriteFile(path, illustratedPDF(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runSearchCmd("--json", "--mode", "bm25", "--pdf", path, "ternary capacity bits")
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	var res struct {
		Hits []struct {
			Kind string `json:"kind"`
			Text string `json:"text"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	hits := res.Hits
	if len(hits) == 0 || hits[0].Kind != "table" || !strings.HasPrefix(hits[0].Text, "Table 1: Capacities") {
		t.Errorf("hits %+v: want the table passage first, kind table", hits)
	}
	kinds := map[string]bool{}
	for _, h := range hits {
		kinds[h.Kind] = true
	}
	if !kinds["body"] {
		t.Errorf("kinds %v: the page's running text should be found too", kinds)
	}
}
