package sandbox

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/testpdf"
)

// illustrated is a page with a captioned block diagram and a ruled table.
func illustrated() []byte {
	return testpdf.Drawn(func(f *fpdf.Fpdf) {
		f.SetLineWidth(1)
		f.Rect(150, 100, 100, 40, "D")
		f.Rect(330, 100, 100, 40, "D")
		f.Line(250, 120, 330, 120)
		f.SetFont("Helvetica", "", 9)
		f.Text(165, 124, "SOURCE")
		f.Text(345, 124, "CHANNEL")
		f.SetFont("Helvetica", "", 10)
		f.Text(150, 170, "Figure 1. A source feeds a channel.")
		f.Text(72, 300, "Table 1: Capacities of two channels.")
		f.Line(100, 310, 480, 310)
		f.Text(110, 324, "channel")
		f.Text(300, 324, "capacity")
		f.Line(100, 330, 480, 330)
		f.Text(110, 344, "binary")
		f.Text(300, 344, "1 bit")
		f.Text(110, 358, "ternary")
		f.Text(300, 358, "1.58 bits")
		f.Line(100, 366, 480, 366)
	})
}

// Regions, figure crops included, come back from the worker as the
// in-process reader makes them.
func TestRegionsCrossTheWorker(t *testing.T) {
	data := illustrated()
	o := newOpener(t, Config{})
	ctx := context.Background()
	remote, err := ingest.Run(ctx, "fig.pdf", data, ingest.Options{Opener: o, Regions: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	local, err := ingest.Run(ctx, "fig.pdf", data, ingest.Options{Regions: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rs := remote.Pages[0].Regions
	if len(rs) != 2 || rs[0].Kind != corpus.ChunkFigure || rs[1].Kind != corpus.ChunkTable {
		t.Fatalf("regions %+v, want a figure then a table", rs)
	}
	if len(rs[0].Image) < 100 || !strings.HasPrefix(string(rs[0].Image), "\x89PNG") {
		t.Errorf("figure crop of %d bytes, want a PNG", len(rs[0].Image))
	}
	if !reflect.DeepEqual(rs, local.Pages[0].Regions) {
		t.Errorf("worker regions differ from in-process ones:\n%+v\n%+v", rs, local.Pages[0].Regions)
	}
	if !strings.Contains(rs[1].Text, "| ternary | 1.58 bits |") {
		t.Errorf("table %q", rs[1].Text)
	}
}

// Detection stays within the page budget on hostile pages: the pages
// fail alone as they do without it.
func TestRegionsOnHostilePages(t *testing.T) {
	o := newOpener(t, Config{PageTimeout: time.Second})
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"fanout.pdf", testpdf.FanOut(10, 8), "took too long"},
		{"thin.pdf", testpdf.ThinPage(1e20, 100), "larger than the 14400 pt"},
		{"flood.pdf", testpdf.ImageFlood(400, 2000), "draws 400 images"},
	} {
		start := time.Now()
		res, err := ingest.Run(context.Background(), c.name, c.data, ingest.Options{Opener: o, Regions: true}, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("%s took %v with a 1 s page budget", c.name, took)
		}
		if msg := checkAround(t, res); !strings.Contains(msg, c.want) {
			t.Errorf("%s: page 2 error %q, want %q", c.name, msg, c.want)
		}
	}
}
