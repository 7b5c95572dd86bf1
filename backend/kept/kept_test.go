package kept

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"vika/backend/corpus"
	"vika/backend/ingest"
	"vika/backend/jsonbound"
	"vika/backend/testpdf"
)

// TestDocumentRoundTrip: a real paper with figures, tables and formulas,
// read with its regions, comes back from kept's encoding (through a
// file, as the page evaluation keeps it) exactly as ingest gave it, the
// figures' crops included, which a region's own JSON leaves out.
func TestDocumentRoundTrip(t *testing.T) {
	data, err := os.ReadFile(testpdf.SharedPDF(t, "vaswani2017_attention_is_all_you_need.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Run(context.Background(), "attention.pdf", data, ingest.Options{Regions: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Timings = ingest.Timings{} // not kept
	d := NewDocument(res)
	if len(d.Crops) == 0 {
		t.Fatal("no figure crop to keep: the test needs a paper with figures")
	}
	path := filepath.Join(t.TempDir(), "kept", "attention.json")
	if err := WriteFile(path, d); err != nil {
		t.Fatal(err)
	}
	var back Document
	if err := ReadFile(path, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res, back.Result()); diff != "" {
		t.Errorf("read back (-ingest +kept):\n%s", diff)
	}
	if !back.Belongs(res.Doc.ID, 0) || back.Belongs("another", 0) {
		t.Error("Belongs does not tell the document's data from another's")
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("kept file mode %v, %v; want 0600", fi.Mode(), err)
	}
}

// TestUnmarshalBounds: data over its bounds is refused before it is
// decoded; a crop naming no region is left out, not a panic.
func TestUnmarshalBounds(t *testing.T) {
	var v []int
	err := Unmarshal([]byte("[1,2,3,4]"), &v, jsonbound.Limits{MaxValues: 100, MaxContainers: 10, MaxArray: 3, MaxDepth: 4})
	if !errors.Is(err, jsonbound.ErrBounds) {
		t.Errorf("an array over its bound: %v", err)
	}
	d := Document{Crops: []Crop{{Page: 9, Region: 0, PNG: []byte{1}}, {Page: 1, Region: 5, PNG: []byte{2}}}}
	d.Pages = make([]corpus.Page, 1)
	if r := d.Result(); len(r.Pages[0].Regions) != 0 {
		t.Errorf("crops naming no region were placed: %+v", r.Pages)
	}
}

// TestVectorsRoundTrip: vectors come back bit for bit (an infinity and the
// smallest subnormal included), half the size of decimal numbers; those
// saved as arrays of numbers (course files before) are read too.
func TestVectorsRoundTrip(t *testing.T) {
	v := Vectors{Vecs: [][]float32{{1, -0.5, float32(math.SmallestNonzeroFloat32), 0.123456789}, {}}, FigChunks: []string{"c1"},
		FigVectors: [][]float32{{float32(math.Inf(1)), 2}}}
	b, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back Vectors
	if err := Unmarshal(b, &back, Trusted); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(v, back, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("vectors (-kept +read):\n%s", diff)
	}
	old := []byte(`{"Vecs":[[1,-0.5],[0.25]],"FigChunks":null,"FigVectors":null}`)
	if err := Unmarshal(old, &back, Trusted); err != nil || !cmp.Equal(back.Vecs, [][]float32{{1, -0.5}, {0.25}}) {
		t.Errorf("vectors saved as numbers: %v, %v", back, err)
	}
	if err := Unmarshal([]byte(`{"Vecs":["AAA="]}`), &back, Trusted); err == nil {
		t.Error("a vector of 2 bytes was read")
	}
	big := Vectors{}
	for range 100 {
		x := make([]float32, 384)
		for i := range x {
			x[i] = float32(math.Sin(float64(i))) / 20
		}
		big.Vecs = append(big.Vecs, x)
	}
	packed, _ := Marshal(big)
	numbers, _ := json.Marshal(struct{ Vecs [][]float32 }{big.Vecs})
	t.Logf("100 vectors of 384: %d bytes packed, %d as numbers", len(packed), len(numbers))
	if len(packed)*3 > len(numbers)*2 {
		t.Errorf("packed vectors take %d bytes, numbers %d", len(packed), len(numbers))
	}
}
