package eval

import (
	"math"
	"testing"
	"time"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// Hand-computed: relevant {a, b, c}; ranking x a y b.
// DCG@10 = 1/log2(3) + 1/log2(5) = 0.63093 + 0.43068 = 1.06161
// IDCG@10 (3 relevant) = 1 + 0.63093 + 0.5 = 2.13093; nDCG = 0.49819.
func TestNDCG(t *testing.T) {
	rel := map[string]int{"a": 1, "b": 1, "c": 2, "z": 0}
	tests := []struct {
		name   string
		ranked []string
		k      int
		want   float64
	}{
		{"mixed", []string{"x", "a", "y", "b"}, 10, (1/math.Log2(3) + 1/math.Log2(5)) / (1 + 1/math.Log2(3) + 0.5)},
		{"ideal", []string{"c", "b", "a", "x"}, 10, 1},
		{"graded counts as binary", []string{"c"}, 10, 1 / (1 + 1/math.Log2(3) + 0.5)},
		{"cut at k", []string{"x", "a"}, 1, 0},
		{"k smaller than relevant", []string{"a", "x"}, 2, 1 / (1 + 1/math.Log2(3))},
		{"duplicate counts once", []string{"a", "a"}, 10, 1 / (1 + 1/math.Log2(3) + 0.5)},
		{"zero grade is not relevant", []string{"z"}, 10, 0},
		{"empty", nil, 10, 0},
	}
	for _, tc := range tests {
		if got := NDCG(tc.ranked, rel, tc.k); !near(got, tc.want) {
			t.Errorf("%s: NDCG = %.6f, want %.6f", tc.name, got, tc.want)
		}
	}
	if got := NDCG([]string{"a"}, map[string]int{}, 10); got != 0 {
		t.Errorf("no relevant document: NDCG = %v, want 0", got)
	}
	// A literal value, so that the formula above is not only checked against itself.
	if got := NDCG([]string{"x", "a", "y", "b"}, rel, 10); math.Abs(got-0.49819) > 5e-6 {
		t.Errorf("NDCG = %.6f, want 0.49819", got)
	}
}

func TestRecallAndMRR(t *testing.T) {
	rel := map[string]int{"a": 1, "b": 1, "c": 1, "d": 1}
	ranked := []string{"x", "a", "y", "b", "a"}
	if got := Recall(ranked, rel, 100); !near(got, 0.5) {
		t.Errorf("Recall@100 = %v, want 0.5", got)
	}
	if got := Recall(ranked, rel, 3); !near(got, 0.25) {
		t.Errorf("Recall@3 = %v, want 0.25", got)
	}
	if got := Recall(ranked, map[string]int{}, 3); got != 0 {
		t.Errorf("Recall without relevant = %v", got)
	}
	if got := MRR(ranked, rel, 10); !near(got, 0.5) {
		t.Errorf("MRR = %v, want 0.5", got)
	}
	if got := MRR(ranked, rel, 1); got != 0 {
		t.Errorf("MRR@1 = %v, want 0", got)
	}
	if got := MRR([]string{"y", "x", "c"}, rel, 10); !near(got, 1.0/3) {
		t.Errorf("MRR = %v, want 1/3", got)
	}
}

func TestEvaluate(t *testing.T) {
	qrels := Qrels{
		"q1": {"a": 1},
		"q2": {"b": 1, "c": 1},
		"q3": {"d": 1}, // not in the run: scores 0
	}
	run := Run{
		"q1": {"a"},      // nDCG 1, recall 1, MRR 1
		"q2": {"x", "b"}, // nDCG (1/log2 3)/(1+1/log2 3), recall 0.5, MRR 0.5
		"q9": {"a"},      // not judged: ignored
	}
	got := Evaluate(run, qrels)
	ndcg2 := (1 / math.Log2(3)) / (1 + 1/math.Log2(3))
	if got.Queries != 3 || !near(got.NDCG10, (1+ndcg2)/3) || !near(got.Recall100, 0.5) || !near(got.MRR10, 0.5) {
		t.Errorf("Evaluate = %+v", got)
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 10; i >= 1; i-- {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	for _, tc := range []struct {
		p    float64
		want time.Duration
	}{{50, 5 * time.Millisecond}, {95, 10 * time.Millisecond}, {90, 9 * time.Millisecond}, {1, time.Millisecond}, {100, 10 * time.Millisecond}} {
		if got := Percentile(d, tc.p); got != tc.want {
			t.Errorf("Percentile(%v) = %v, want %v", tc.p, got, tc.want)
		}
	}
	if d[0] != 10*time.Millisecond {
		t.Error("Percentile sorted its input in place")
	}
	if Percentile(nil, 50) != 0 {
		t.Error("Percentile(nil) != 0")
	}
}
