package index

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"vika/backend/corpus"
)

func randomVectors(rng *rand.Rand, n, dim int) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		out[i] = v
	}
	return out
}

func chunksFor(doc string, n int) []corpus.Chunk {
	out := make([]corpus.Chunk, n)
	for i := range out {
		out[i] = corpus.Chunk{ID: fmt.Sprintf("%s-%05d", doc, i), DocID: doc}
	}
	return out
}

// bruteForce scores every vector in float64 and sorts.
func bruteForce(chunks []corpus.Chunk, vecs [][]float32, q []float32, k int) []Scored {
	norm := func(v []float32) float64 {
		var s float64
		for _, x := range v {
			s += float64(x) * float64(x)
		}
		return math.Sqrt(s)
	}
	var all []Scored
	for i, v := range vecs {
		var s float64
		for j := range v {
			s += float64(v[j]) * float64(q[j])
		}
		all = append(all, Scored{chunks[i].ID, s / norm(v) / norm(q)})
	}
	slices.SortFunc(all, func(a, b Scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ChunkID, b.ChunkID)
	})
	return all[:min(k, len(all))]
}

func TestDenseMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const dim = 48
	for _, n := range []int{0, 1, 7, 500, ParallelRows + 301} {
		chunks := chunksFor("doc", n)
		vecs := randomVectors(rng, n, dim)
		d := NewDense(dim)
		if err := d.Add(chunks, vecs); err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{1, 10, 100, n + 5} {
			q := randomVectors(rng, 1, dim)[0]
			got, err := d.Search(context.Background(), q, k)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteForce(chunks, vecs, q, k)
			if diff := gocmp.Diff(want, got, cmpopts.EquateEmpty(), gocmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-5 })); diff != "" {
				t.Errorf("n=%d k=%d (-brute +dense):\n%s", n, k, diff)
			}
		}
	}
}

func TestDenseTiesAndZero(t *testing.T) {
	d := NewDense(2)
	chunks := []corpus.Chunk{{ID: "b", DocID: "x"}, {ID: "a", DocID: "x"}, {ID: "c", DocID: "x"}, {ID: "z", DocID: "x"}}
	if err := d.Add(chunks, [][]float32{{1, 0}, {2, 0}, {0, 1}, {0, 0}}); err != nil {
		t.Fatal(err)
	}
	got, _ := d.Search(context.Background(), []float32{3, 0}, 3)
	want := []Scored{{"a", 1}, {"b", 1}, {"c", 0}} // a, b tie (same direction): by id; c and z tie at 0
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if v, ok := d.Vector("a"); !ok || !gocmp.Equal(v, []float32{1, 0}) {
		t.Errorf("Vector(a) = %v, %v (want it normalised)", v, ok)
	}
	sims, found, err := d.Similarity([]float32{0, 5}, []string{"c", "a", "nope"})
	if err != nil || !gocmp.Equal(sims, []float64{1, 0, 0}) || !gocmp.Equal(found, []bool{true, true, false}) {
		t.Errorf("Similarity = %v %v %v", sims, found, err)
	}
}

func TestDenseReplaceAndDelete(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const dim = 16
	d := NewDense(dim)
	a, b := chunksFor("A", 50), chunksFor("B", 30)
	va, vb := randomVectors(rng, 50, dim), randomVectors(rng, 30, dim)
	if err := d.Add(a, va); err != nil {
		t.Fatal(err)
	}
	if err := d.Add(b, vb); err != nil {
		t.Fatal(err)
	}
	// Replace one vector of B: the replacement is what is found.
	vb[3] = randomVectors(rng, 1, dim)[0]
	if err := d.Add(b[3:4], vb[3:4]); err != nil {
		t.Fatal(err)
	}
	if d.Len() != 80 {
		t.Fatalf("Len = %d, want 80", d.Len())
	}
	if got, _ := d.Search(context.Background(), vb[3], 1); got[0].ChunkID != b[3].ID {
		t.Errorf("replaced vector: top is %v", got)
	}
	if n := d.DeleteDoc("A"); n != 50 {
		t.Errorf("DeleteDoc = %d, want 50", n)
	}
	if n := d.DeleteDoc("A"); n != 0 {
		t.Errorf("second DeleteDoc = %d", n)
	}
	q := randomVectors(rng, 1, dim)[0]
	got, _ := d.Search(context.Background(), q, 100)
	want := bruteForce(b, vb, q, 100)
	if diff := gocmp.Diff(want, got, cmpopts.EquateEmpty(), gocmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-5 })); diff != "" {
		t.Errorf("after delete (-brute +dense):\n%s", diff)
	}
	for _, c := range b {
		if _, ok := d.Vector(c.ID); !ok {
			t.Errorf("lost %s", c.ID)
		}
	}
	if n := d.Delete([]string{b[0].ID, "absent", b[29].ID}); n != 2 || d.Len() != 28 {
		t.Errorf("Delete = %d, Len %d; want 2, 28", n, d.Len())
	}
	if _, ok := d.Vector(b[29].ID); ok {
		t.Error("deleted vector still there")
	}
	if v, ok := d.Vector(b[28].ID); !ok || math.Abs(float64(v[0]-vb[28][0]/norm32(vb[28]))) > 1e-5 {
		t.Errorf("vector of %s after Delete: %v, %v", b[28].ID, v, ok)
	}
}

func norm32(v []float32) float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return float32(math.Sqrt(s))
}

func TestDenseErrors(t *testing.T) {
	d := NewDense(4)
	if err := d.Add(chunksFor("x", 1), [][]float32{{1, 2}}); !errors.Is(err, ErrDim) {
		t.Errorf("Add short vector = %v", err)
	}
	if err := d.Add(chunksFor("x", 2), [][]float32{{1, 2, 3, 4}}); err == nil {
		t.Error("Add with fewer vectors than chunks succeeded")
	}
	if _, err := d.Search(context.Background(), []float32{1}, 3); !errors.Is(err, ErrDim) {
		t.Errorf("Search short query = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := d.Search(ctx, make([]float32, 4), 3); !errors.Is(err, context.Canceled) {
		t.Errorf("Search(cancelled) = %v", err)
	}
}

func TestDenseConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	d := NewDense(8)
	q := randomVectors(rng, 1, 8)[0]
	var wg sync.WaitGroup
	for w := range 4 {
		vecs := randomVectors(rng, 100, 8)
		wg.Add(1)
		go func() {
			defer wg.Done()
			doc := fmt.Sprint("d", w)
			for i := 0; i < 5; i++ {
				if err := d.Add(chunksFor(doc, 100), vecs); err != nil {
					t.Error(err)
				}
				if _, err := d.Search(context.Background(), q, 10); err != nil {
					t.Error(err)
				}
				if i == 3 {
					d.DeleteDoc(doc)
				}
			}
		}()
	}
	wg.Wait()
	if d.Len() != 400 {
		t.Errorf("Len = %d, want 400", d.Len())
	}
}

// BenchmarkDenseSearch measures exact search over n x 512 vectors.
// Compare sizes against each other (the machines are shared).
func BenchmarkDenseSearch(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	const dim = 512
	for _, n := range []int{5000, 10000, 50000} {
		d := NewDense(dim)
		if err := d.Add(chunksFor("d", n), randomVectors(rng, n, dim)); err != nil {
			b.Fatal(err)
		}
		q := randomVectors(rng, 1, dim)[0]
		for _, k := range []int{10, 100, 1000} {
			b.Run(fmt.Sprintf("n=%d/k=%d", n, k), func(b *testing.B) {
				for b.Loop() {
					if _, err := d.Search(context.Background(), q, k); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkDenseScan compares one goroutine against two at each size, to
// place ParallelRows.
func BenchmarkDenseScan(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	const dim = 512
	for _, n := range []int{2000, 5000, 10000, 50000} {
		d := NewDense(dim)
		if err := d.Add(chunksFor("d", n), randomVectors(rng, n, dim)); err != nil {
			b.Fatal(err)
		}
		q := randomVectors(rng, 1, dim)[0]
		b.Run(fmt.Sprintf("n=%d/serial", n), func(b *testing.B) {
			for b.Loop() {
				d.scan(q, 0, n, 100, corpus.Scope{})
			}
		})
		b.Run(fmt.Sprintf("n=%d/two", n), func(b *testing.B) {
			for b.Loop() {
				done := make(chan struct{})
				go func() { d.scan(q, n/2, n, 100, corpus.Scope{}); close(done) }()
				d.scan(q, 0, n/2, 100, corpus.Scope{})
				<-done
			}
		})
	}
}
