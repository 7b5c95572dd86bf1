package embed

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// boundary is SentencePiece's word-boundary mark, U+2581 LOWER ONE EIGHTH BLOCK.
const boundary = '\u2581'

// reservedIDs are the control entries at the head of the USE-lite vocabulary
// (unknown, <s>, </s> and three spare ids): they never match text.
const reservedIDs = 6

// unknownID is the id of text no vocabulary piece covers.
const unknownID = 0

// Tokenizer is the SentencePiece unigram encoder of Universal Sentence
// Encoder lite, written to give the same ids as the JavaScript tokenizer of
// npm @energetic-ai/embeddings (checked by a golden test): NFKC, ASCII spaces
// become U+2581 and one is prepended, the best-scoring split over the
// vocabulary wins (Viterbi), and a run of unknown characters yields a single
// unknown id. It is safe for concurrent use.
type Tokenizer struct {
	steps []int32             // by id: the piece's length in UTF-16 units (see Encode)
	nodes []trieNode          // prefix tree of the pieces; nodes[0] is the root
	next  map[trieEdge]uint32 // child of a node for one rune
}

type trieNode struct {
	id    int32 // piece ending here, or -1
	score float64
}

type trieEdge struct {
	node uint32
	r    rune
}

// LoadTokenizer reads a vocab.json: a JSON array of [piece, score] pairs in id
// order (a null score counts as 0, as in JavaScript arithmetic).
func LoadTokenizer(path string) (*Tokenizer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := ReadTokenizer(f)
	if err != nil {
		return nil, fmt.Errorf("vocabulary %s: %w", path, err)
	}
	return t, nil
}

// ReadTokenizer is LoadTokenizer over a reader.
func ReadTokenizer(r io.Reader) (*Tokenizer, error) {
	var entries [][]json.RawMessage
	if err := json.NewDecoder(r).Decode(&entries); err != nil {
		return nil, err
	}
	if len(entries) <= reservedIDs {
		return nil, fmt.Errorf("only %d entries", len(entries))
	}
	t := &Tokenizer{
		steps: make([]int32, len(entries)),
		nodes: []trieNode{{id: -1}},
		next:  make(map[trieEdge]uint32, 4*len(entries)),
	}
	for id, e := range entries {
		var piece string
		var score *float64
		if len(e) != 2 || json.Unmarshal(e[0], &piece) != nil || json.Unmarshal(e[1], &score) != nil {
			return nil, fmt.Errorf("entry %d is not a [piece, score] pair", id)
		}
		t.steps[id] = int32(max(1, len(utf16.Encode([]rune(piece)))))
		if id < reservedIDs || piece == "" {
			continue
		}
		n := t.walk(piece)
		t.nodes[n].id = int32(id) // a repeated piece keeps its last id, like the JS trie
		t.nodes[n].score = 0
		if score != nil {
			t.nodes[n].score = *score
		}
	}
	return t, nil
}

// walk returns the node for piece, creating the missing part of its path.
func (t *Tokenizer) walk(piece string) uint32 {
	var n uint32
	for _, r := range piece {
		c, ok := t.next[trieEdge{n, r}]
		if !ok {
			c = uint32(len(t.nodes))
			t.nodes = append(t.nodes, trieNode{id: -1})
			t.next[trieEdge{n, r}] = c
		}
		n = c
	}
	return n
}

// VocabSize is the number of vocabulary entries (ids run from 0 to VocabSize-1).
func (t *Tokenizer) VocabSize() int { return len(t.steps) }

// lattice edge: the piece id covering symbols [start, end).
type span struct {
	start, end int32
	id         int32
	score      float64
}

// Encode returns the token ids of text; an empty text has none.
func (t *Tokenizer) Encode(text string) []int64 {
	syms := symbols(text)
	n := len(syms)
	if n == 0 {
		return nil
	}
	spans := t.lattice(syms)

	// best[e] is the score of the best split of syms[:e] and piece[e] its last
	// piece. This follows the JavaScript original rule for rule, quirks
	// included, so that ids match: spans are visited by end, then by start; a
	// later span wins ties; a best of exactly 0 counts as "none yet"; a
	// position no span ends at keeps piece 0 (unknown); and the walk back
	// steps by the length of the chosen piece's text in UTF-16 units, not by
	// the span it came from.
	best := make([]float64, n+1)
	piece := make([]int32, n+1)
	for _, s := range byEnd(spans, n) {
		score := s.score + best[s.start]
		if best[s.end] == 0 || score >= best[s.end] {
			best[s.end], piece[s.end] = score, s.id
		}
	}

	var ids []int64
	for e := int32(n); e > 0; e -= t.steps[piece[e]] {
		id := int64(piece[e])
		if id == unknownID && len(ids) > 0 && ids[len(ids)-1] == unknownID {
			continue // merge a run of unknowns into one
		}
		ids = append(ids, id)
	}
	for i, j := 0, len(ids)-1; i < j; i, j = i+1, j-1 {
		ids[i], ids[j] = ids[j], ids[i]
	}
	return ids
}

// symbols normalises text (NFKC), turns ASCII spaces into the boundary mark
// and prepends one. Invalid UTF-8 bytes become U+FFFD, an unknown symbol.
func symbols(text string) []rune {
	s := norm.NFKC.String(text)
	if s == "" {
		return nil
	}
	syms := make([]rune, 1, utf8.RuneCountInString(s)+1)
	syms[0] = boundary
	for _, r := range s {
		if r == ' ' {
			r = boundary
		}
		syms = append(syms, r)
	}
	return syms
}

// lattice lists every vocabulary piece occurring in syms, by start position;
// a position where no piece starts gets a one-symbol unknown span.
func (t *Tokenizer) lattice(syms []rune) []span {
	spans := make([]span, 0, 4*len(syms))
	for i := range syms {
		found := false
		var n uint32
		for j := i; j < len(syms); j++ {
			c, ok := t.next[trieEdge{n, syms[j]}]
			if !ok {
				break
			}
			n = c
			if node := t.nodes[n]; node.id >= 0 {
				spans = append(spans, span{int32(i), int32(j + 1), node.id, node.score})
				found = true
			}
		}
		if !found {
			spans = append(spans, span{int32(i), int32(i + 1), unknownID, 0})
		}
	}
	return spans
}

// byEnd orders spans by end position with a stable counting sort, so spans
// sharing an end stay ordered by start.
func byEnd(spans []span, n int) []span {
	pos := make([]int, n+2)
	for _, s := range spans {
		pos[s.end+1]++
	}
	for e := 1; e < len(pos); e++ {
		pos[e] += pos[e-1]
	}
	out := make([]span, len(spans))
	for _, s := range spans {
		out[pos[s.end]] = s
		pos[s.end]++
	}
	return out
}
