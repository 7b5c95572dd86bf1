package bench

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"vika/backend/corpus"
	"vika/backend/ocr"
)

func TestCompare(t *testing.T) {
	approx := cmpopts.EquateApprox(0, 1e-9)
	tests := []struct {
		name   string
		pages  int
		rounds []Round
		aim    float64
		want   Comparison
	}{
		{
			name:   "ours twice as slow, aim a third",
			pages:  10,
			rounds: []Round{{Ours: 2, Reference: 1, OursFirst: true}, {Ours: 2, Reference: 1}},
			aim:    1.0 / 3,
			want: Comparison{Reference: "ref", Pages: 10, OursRate: 5, ReferenceRate: 10,
				Ratio: 0.5, RatioMin: 0.5, RatioMax: 0.5, Aim: 1.0 / 3, Met: true},
		},
		{
			name:  "rates over all rounds, not the mean of ratios",
			pages: 6,
			// 12 pages in 4 s against 12 pages in 3 s.
			rounds: []Round{{Ours: 1, Reference: 2, OursFirst: true}, {Ours: 3, Reference: 1}},
			aim:    1 / 1.3,
			want: Comparison{Reference: "ref", Pages: 6, OursRate: 3, ReferenceRate: 4,
				Ratio: 0.75, RatioMin: 1.0 / 3, RatioMax: 2, Aim: 1 / 1.3, Met: false},
		},
		{
			name:   "aim met exactly",
			pages:  4,
			rounds: []Round{{Ours: 3, Reference: 1, OursFirst: true}},
			aim:    1.0 / 3,
			want: Comparison{Reference: "ref", Pages: 4, OursRate: 4.0 / 3, ReferenceRate: 4,
				Ratio: 1.0 / 3, RatioMin: 1.0 / 3, RatioMax: 1.0 / 3, Aim: 1.0 / 3, Met: true},
		},
		{
			name:   "no time measured",
			pages:  4,
			rounds: []Round{{OursFirst: true}},
			aim:    0.5,
			want:   Comparison{Reference: "ref", Pages: 4, Aim: 0.5},
		},
		{
			name: "no rounds",
			aim:  0.5,
			want: Comparison{Reference: "ref", Aim: 0.5},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := compare("ref", tt.pages, tt.rounds, tt.aim)
			tt.want.Rounds = tt.rounds
			if diff := cmp.Diff(tt.want, got, approx); diff != "" {
				t.Errorf("compare (-want +got):\n%s", diff)
			}
		})
	}
}

func TestInterleave(t *testing.T) {
	var calls []string
	step := func(name string, d time.Duration) func() (time.Duration, error) {
		return func() (time.Duration, error) {
			calls = append(calls, name)
			return d, nil
		}
	}
	rounds, err := interleave(3, step("ours", 2*time.Second), step("ref", time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"ours", "ref", "ref", "ours", "ours", "ref"}, calls); diff != "" {
		t.Errorf("call order (-want +got):\n%s", diff)
	}
	want := []Round{{Ours: 2, Reference: 1, OursFirst: true}, {Ours: 2, Reference: 1}, {Ours: 2, Reference: 1, OursFirst: true}}
	if diff := cmp.Diff(want, rounds); diff != "" {
		t.Errorf("rounds (-want +got):\n%s", diff)
	}
}

func TestInterleaveStopsOnError(t *testing.T) {
	boom := errors.New("boom")
	n := 0
	ok := func() (time.Duration, error) { n++; return time.Second, nil }
	failing := func() (time.Duration, error) {
		n++
		if n > 2 {
			return 0, boom
		}
		return time.Second, nil
	}
	rounds, err := interleave(3, ok, failing)
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if len(rounds) != 1 {
		t.Errorf("%d complete rounds kept, want 1", len(rounds))
	}
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		types       map[corpus.PageType]int
		pages       int
		ocr         int
		wantScanned bool
	}{
		{map[corpus.PageType]int{corpus.PageText: 10}, 10, 0, false},
		{map[corpus.PageType]int{corpus.PageText: 37, corpus.PageMixed: 25, corpus.PageScanned: 2, corpus.PageIllustrative: 3}, 67, 27, false},
		{map[corpus.PageType]int{corpus.PageScanned: 28}, 28, 28, true},
		{map[corpus.PageType]int{corpus.PageScanned: 2, corpus.PageText: 2}, 4, 2, false},
		{map[corpus.PageType]int{corpus.PageScanned: 3, corpus.PageText: 2}, 5, 3, true},
	}
	for _, tt := range tests {
		got := describe(FileRow{Pages: tt.pages, PageTypes: tt.types})
		if got.OCRNeeded != tt.ocr || got.Scanned != tt.wantScanned {
			t.Errorf("describe(%v) = OCR %d, scanned %v; want %d, %v", tt.types, got.OCRNeeded, got.Scanned, tt.ocr, tt.wantScanned)
		}
	}
}

func TestLangLabel(t *testing.T) {
	tests := []struct {
		row  FileRow
		want string
	}{
		{FileRow{Lang: "en"}, "en"},
		{FileRow{}, "und"},
		{FileRow{Lang: "fr", LangShares: map[string]float64{"fr": 0.9, "en": 0.1}}, "fr"},
		{FileRow{Lang: "fr", LangMixed: true, LangShares: map[string]float64{"fr": 0.62, "en": 0.35, "de": 0.03}}, "fr 62% en 35%"},
	}
	for _, tt := range tests {
		if got := langLabel(tt.row); got != tt.want {
			t.Errorf("langLabel(%+v) = %q, want %q", tt.row, got, tt.want)
		}
	}
}

func TestMegabytes(t *testing.T) {
	if got := megabytes(312_456_789); got != 312.5 {
		t.Errorf("megabytes = %v, want 312.5", got)
	}
	if math.Abs(megabytes(0)) != 0 {
		t.Error("megabytes(0) != 0")
	}
}

func TestCLIArgs(t *testing.T) {
	cfg := ocr.Config{Languages: []string{"fra", "eng"}, PSM: ocr.PSMAuto, DPI: 300, Threshold: ocr.ThresholdSauvola,
		Variables: map[string]string{"b": "2", "a": "1"}}
	want := []string{"stdout", "-l", "fra+eng", "--psm", "3", "--dpi", "300", "-c", "thresholding_method=2", "-c", "a=1", "-c", "b=2"}
	if diff := cmp.Diff(want, cliArgs(cfg)); diff != "" {
		t.Errorf("cliArgs (-want +got):\n%s", diff)
	}
	for th, v := range map[ocr.Threshold]string{ocr.ThresholdOtsu: "0", ocr.ThresholdLeptonicaOtsu: "1", ocr.ThresholdSauvola: "2", ocr.ThresholdDefault: "2"} {
		if got := thresholdValue(th); got != v {
			t.Errorf("thresholdValue(%d) = %s, want %s", th, got, v)
		}
	}
}

func TestDefaultDir(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "main")
	deep := filepath.Join(repo, "backend", "bench")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module vika\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := DefaultDir(deep); !errors.Is(err, ErrNoData) || !strings.Contains(err.Error(), "pass --pdfs") {
		t.Fatalf("without the data set: %v, want ErrNoData suggesting --pdfs", err)
	}
	pdfs := filepath.Join(root, "shared", "data", "pdfs")
	if err := os.MkdirAll(pdfs, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{repo, deep} {
		got, err := DefaultDir(dir)
		if err != nil || got != pdfs {
			t.Errorf("DefaultDir(%s) = %q, %v; want %q", dir, got, err, pdfs)
		}
	}
	if _, err := DefaultDir(root); !errors.Is(err, ErrNoData) {
		t.Errorf("outside a repository: %v, want ErrNoData", err)
	}
}

func TestListPDFs(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.pdf", "a.PDF", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "c.pdf"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := listPDFs(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "a.PDF"), filepath.Join(dir, "b.pdf")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("listPDFs (-want +got):\n%s", diff)
	}
	if _, err := listPDFs(t.TempDir()); !errors.Is(err, ErrNoData) {
		t.Errorf("empty folder: %v, want ErrNoData", err)
	}
}
