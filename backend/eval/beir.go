// Package eval measures retrieval quality the way the BEIR benchmark does:
// it loads a dataset in the BEIR layout (corpus.jsonl, queries.jsonl,
// qrels/<split>.tsv) and computes the ranking metrics BEIR reports, nDCG@10
// with binary gains, Recall@100 and MRR@10, plus latency percentiles.
package eval

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"vika/backend/corpus"
)

// ErrBadDataset is wrapped by the errors of LoadBEIR for malformed files.
var ErrBadDataset = errors.New("malformed BEIR dataset")

// Doc is one corpus entry.
type Doc struct {
	ID    string `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Query is one question of the split.
type Query struct {
	ID   string `json:"_id"`
	Text string `json:"text"`
}

// Qrels holds the relevance judgements: query id -> document id -> grade.
// A grade above zero means relevant.
type Qrels map[string]map[string]int

// Dataset is a BEIR dataset restricted to one split: Queries holds only the
// queries judged in that split, in the order of queries.jsonl.
type Dataset struct {
	Split   string
	Corpus  []Doc
	Queries []Query
	Qrels   Qrels
}

// LoadBEIR reads the BEIR dataset in dir for split ("test", "train", ...).
func LoadBEIR(dir, split string) (*Dataset, error) {
	if split == "" || strings.ContainsAny(split, `/\`) {
		return nil, fmt.Errorf("eval: bad split name %q", split)
	}
	qrels, err := readQrels(filepath.Join(dir, "qrels", split+".tsv"))
	if err != nil {
		return nil, err
	}
	var corpus []Doc
	if err := readJSONL(filepath.Join(dir, "corpus.jsonl"), func(d Doc) error {
		if d.ID == "" {
			return errors.New("document without _id")
		}
		corpus = append(corpus, d)
		return nil
	}); err != nil {
		return nil, err
	}
	var queries []Query
	if err := readJSONL(filepath.Join(dir, "queries.jsonl"), func(q Query) error {
		if _, ok := qrels[q.ID]; ok {
			queries = append(queries, q)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if len(queries) != len(qrels) {
		return nil, fmt.Errorf("%w: %d queries of qrels/%s.tsv are missing from queries.jsonl",
			ErrBadDataset, len(qrels)-len(queries), split)
	}
	return &Dataset{Split: split, Corpus: corpus, Queries: queries, Qrels: qrels}, nil
}

// readJSONL decodes one JSON object per line of path into fn.
func readJSONL[T any](path string, fn func(T) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(f, 1<<20))
	for n := 1; ; n++ {
		var v T
		err := dec.Decode(&v)
		if err == io.EOF {
			return nil
		}
		if err == nil {
			err = fn(v)
		}
		if err != nil {
			return fmt.Errorf("%w: %s: record %d: %v", ErrBadDataset, path, n, err)
		}
	}
}

// readQrels reads a TSV of query-id, corpus-id, score with a header line.
func readQrels(path string) (Qrels, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	return parseQrels(f, path)
}

func parseQrels(r io.Reader, name string) (Qrels, error) {
	qrels := Qrels{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" || (n == 1 && strings.HasPrefix(line, "query-id")) {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			return nil, fmt.Errorf("%w: %s:%d: want 3 tab-separated fields, got %d", ErrBadDataset, name, n, len(f))
		}
		grade, err := strconv.Atoi(strings.TrimSpace(f[2]))
		if err != nil {
			return nil, fmt.Errorf("%w: %s:%d: score %q", ErrBadDataset, name, n, f[2])
		}
		if qrels[f[0]] == nil {
			qrels[f[0]] = map[string]int{}
		}
		qrels[f[0]][f[1]] = grade
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: %s: %w", name, err)
	}
	if len(qrels) == 0 {
		return nil, fmt.Errorf("%w: %s has no judgement", ErrBadDataset, name)
	}
	return qrels, nil
}

// Chunks makes one chunk of each document: title, blank line, text. It is
// what every retriever indexes in Vika's BEIR evaluations.
func Chunks(docs []Doc) []corpus.Chunk {
	out := make([]corpus.Chunk, len(docs))
	for i, d := range docs {
		out[i] = corpus.Chunk{ID: d.ID, DocID: d.ID, Lang: "en", Text: strings.TrimSpace(d.Title + "\n\n" + d.Text)}
	}
	return out
}
