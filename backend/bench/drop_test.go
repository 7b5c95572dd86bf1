package bench

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestDropTimeline(t *testing.T) {
	d := NewDrop()
	d.start = time.Now().Add(-10 * time.Second)
	d.Searchable("b.pdf", 10, 1, 8, 1) // its words so far: one page still reading
	time.Sleep(10 * time.Millisecond)
	d.Searchable("b.pdf", 10, 2, 30, 0)
	d.Searchable("a.pdf", 5, 0, 12, 0)
	d.Done("a.pdf", nil)
	d.Done("c.pdf", errors.New("not a PDF"))
	r := DropResult{CPURatio: 1.9, Reference: &Reference{WallSeconds: 100, Command: []string{"py", "bench.py"}}}
	r.Finish(d)
	if len(r.Docs) != 3 || r.Docs[0].File != "a.pdf" || r.Docs[2].Error == "" {
		t.Fatalf("docs = %+v", r.Docs)
	}
	if r.Pages != 15 || r.OCR != 2 || r.FirstSearchable < 10 || r.AllSearchable < r.FirstSearchable || r.AllVectors < 10 {
		t.Errorf("result = %+v", r)
	}
	if b := r.Docs[1]; b.Chunks != 30 || b.FirstPassages >= b.Searchable || r.AllFirstPassages != max(b.FirstPassages, r.Docs[0].FirstPassages) {
		t.Errorf("b.pdf = %+v, every document partly searchable at %.3f s", b, r.AllFirstPassages)
	}
	r.Judge()
	// 10 s of 100: within a sixth; vectors under 90 s; CPU 1.9.
	if got := strings.Join(r.Aims, "\n"); strings.Count(got, "MET:") != 3 {
		t.Errorf("aims = %s", got)
	}
	var b strings.Builder
	if err := WriteDrop(&b, r); err != nil || !strings.Contains(b.String(), "c.pdf") || !strings.Contains(b.String(), "failed: not a PDF") {
		t.Errorf("text = %s, %v", b.String(), err)
	}
}

func TestSummarise(t *testing.T) {
	l := Summarise([]float64{5, 1, 3, 2, 4})
	if l.P50 != 3 || l.Max != 5 || l.P95 != 5 || l.Samples[0] != 1 {
		t.Errorf("Summarise = %+v", l)
	}
	if z := Summarise(nil); z.P50 != 0 || z.Max != 0 {
		t.Errorf("Summarise(nil) = %+v", z)
	}
}
