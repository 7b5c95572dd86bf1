package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"vika/backend/corpus"
	"vika/backend/message"
	"vika/backend/retrieve"
	"vika/backend/testpdf"
)

// summaryPaper is a three-page PDF of passages long enough to summarise
// (MinSummaryChars) and one too short.
var summaryPaper = testpdf.Pages(
	testpdf.Page{Heading: "1 Grazing", Body: strings.Repeat("The plains zebra grazes the tall grass of the savannah at dawn and dusk, moving between water holes with its herd. ", 3)},
	testpdf.Page{Heading: "2 Channels", Body: strings.Repeat("Channel capacity bounds the rate at which information can be sent reliably over a noisy line, whatever the code. ", 3)},
	testpdf.Page{Heading: "3 Note", Body: "Short."},
)

// TestSummarizeIndexesSummaries: each long passage gets one summary (the
// short one none), kept with it; a dense search with words only a summary
// holds returns the passage itself (its id and its own text, ViaSummary),
// which it did not before; a second run asks nothing again, a refusal is
// recorded and not asked again of the same model but asked of another;
// the cap counts what it leaves out; removing the document forgets its
// summaries.
func TestSummarizeIndexesSummaries(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{})
	doc := mustAdd(t, e, "paper.pdf", summaryPaper)
	q := "Shannon theorem about the throughput of a telephone wire"
	find := func() corpus.Hit {
		t.Helper()
		res, err := e.Search(ctx, retrieve.Query{Question: q}, SearchOptions{Mode: "dense", K: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 {
			t.Fatal("no hit")
		}
		return res.Hits[0]
	}
	before := find()

	var asked []string
	sum := func(ctx context.Context, c corpus.Chunk) (string, string, error) {
		asked = append(asked, fmt.Sprintf("p%d", c.Page))
		if c.Page == 1 {
			return "", "gemini/a", message.Wrap(fmt.Errorf("%w: blocked", ErrRefused), message.RefusedBlocked)
		}
		return "Shannon's theorem: the throughput of a telephone wire has a ceiling.", "gemini/a", nil
	}
	rep, err := e.Summarize(ctx, doc.ID, sum, SummarizeOptions{Max: 10, Model: "gemini/a"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summarized != 1 || rep.Refused != 1 || rep.Short == 0 || strings.Join(asked, ",") != "p1,p2" {
		t.Fatalf("report %+v, asked %v", rep, asked)
	}
	after := find()
	if after.Page != 2 || !after.ViaSummary || !strings.Contains(after.Text, "Channel capacity bounds") || strings.Contains(after.Text, "Shannon") {
		t.Fatalf("after summaries: %+v (before: page %d)", after, before.Page)
	}
	if before.ChunkID == after.ChunkID && before.ViaSummary {
		t.Fatalf("before summaries the hit came via a summary: %+v", before)
	}
	kept, err := e.Summaries(ctx, doc.ID)
	if err != nil || len(kept) != 2 {
		t.Fatalf("kept %+v, %v", kept, err)
	}

	asked = nil
	rep, err = e.Summarize(ctx, doc.ID, sum, SummarizeOptions{Max: 10, Model: "gemini/a"})
	if err != nil || len(asked) != 0 || rep.Already != 1 || rep.RefusedBefore != 1 {
		t.Fatalf("second run: %+v, asked %v, %v", rep, asked, err)
	}
	rep, err = e.Summarize(ctx, doc.ID, sum, SummarizeOptions{Max: 0, Model: "mistral/b"})
	if err != nil || len(asked) != 0 || rep.OverCap != 1 {
		t.Fatalf("another model with cap 0: %+v, asked %v, %v", rep, asked, err)
	}
	rep, err = e.Summarize(ctx, doc.ID, sum, SummarizeOptions{Max: 10, Model: "mistral/b"})
	if err != nil || strings.Join(asked, ",") != "p1" {
		t.Fatalf("another model: %+v, asked %v, %v", rep, asked, err)
	}

	// A failure (not a refusal) stops the job; what was done stays.
	failing := func(ctx context.Context, c corpus.Chunk) (string, string, error) { return "", "", errors.New("quota") }
	if _, err := e.Summarize(ctx, doc.ID, failing, SummarizeOptions{Max: 10, Model: "groq/c"}); err == nil {
		t.Fatal("a failing model did not stop the job")
	}
	if got := find(); got.ChunkID != after.ChunkID {
		t.Fatalf("a failed run lost the summary: %+v", got)
	}

	if err := e.RemoveDocument(ctx, doc.ID); err != nil {
		t.Fatal(err)
	}
	if n := e.models.Load().ret.SummaryVectors(); n != 0 {
		t.Fatalf("%d summary vectors after the document was removed", n)
	}
	if kept, _ := e.Summaries(ctx, ""); len(kept) != 0 {
		t.Fatalf("summaries kept after the document was removed: %+v", kept)
	}
}

// TestSummarizeJobCancels: a summarising job reports its stage and
// progress and ends cancelled when cancelled, keeping what was done.
func TestSummarizeJobCancels(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{NoEmbeddings: true, ModelsRoot: t.TempDir()})
	doc := mustAdd(t, e, "paper.pdf", summaryPaper)
	started := make(chan struct{})
	block := func(ctx context.Context, c corpus.Chunk) (string, string, error) {
		if c.Page == 1 {
			return "Zebras graze at dawn.", "m/x", nil
		}
		close(started)
		<-ctx.Done()
		return "", "", ctx.Err()
	}
	events := make(chan Progress, 16)
	id := e.StartSummarize(doc.ID, block, SummarizeOptions{Max: 10, Model: "m/x"}, func(p Progress) { events <- p })
	<-started
	e.Cancel(id)
	var stages []string
	for p := range events {
		stages = append(stages, fmt.Sprintf("%s:%d/%d", p.Stage, p.Done, p.Total))
		if p.Stage == StageCancelled || p.Stage == StageDone || p.Stage == StageFailed {
			break
		}
	}
	if got := strings.Join(stages, " "); got != "queued:0/0 summarizing:0/0 summarizing:1/2 cancelled:1/1" {
		t.Fatalf("stages %s", got)
	}
	kept, err := e.Summaries(ctx, doc.ID)
	if err != nil || len(kept) != 1 || kept[0].Text != "Zebras graze at dawn." {
		t.Fatalf("kept %+v, %v", kept, err)
	}
}
