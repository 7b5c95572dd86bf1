package retrieve

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"vika/backend/embed"
	"vika/backend/lowprio"
)

// Passage says how a chunk's text is fed to an embedder whose input
// window is shorter than a chunk (USE-lite reads 128 tokens): the text is
// cut into pieces of whole sentences, each piece is embedded, and the
// chunk's vector is the (weighted) mean of the pieces' vectors, scaled back
// to unit length. A zero Passage embeds the whole text in one call.
type Passage struct {
	// MaxTokens is the most tokens per piece; sentences are packed
	// greedily up to it and a longer sentence is cut between words.
	// 0 embeds the whole text at once (the model truncates it).
	MaxTokens int `json:"max_tokens"`
	// PerSentence embeds every sentence on its own (MaxTokens still cuts
	// long ones).
	PerSentence bool `json:"per_sentence,omitempty"`
	// TokenWeighted weighs each piece by its token count in the mean;
	// otherwise every piece counts the same.
	TokenWeighted bool `json:"token_weighted,omitempty"`
}

// tokenCounter is implemented by embedders that can count their tokens
// (embed.USELite).
type tokenCounter interface {
	CountTokens(text string) int
}

// counter returns emb's token counter, or an estimate of 4 tokens per 3
// words for embedders that have none.
func counter(emb embed.Embedder) func(string) int {
	if tc, ok := emb.(tokenCounter); ok {
		return tc.CountTokens
	}
	return func(s string) int { return (len(strings.Fields(s))*4 + 2) / 3 }
}

// embedGroup is how many texts EmbedPassages embeds between progress
// reports and cancellation checks.
const embedGroup = 128

// EmbedOptions tune EmbedPassages.
type EmbedOptions struct {
	// Workers is how many groups of texts are embedded at once (the
	// embedder must allow concurrent calls, as embed.Embedder promises);
	// <= 1 means one. Two workers nearly halve the time when a second
	// core is idle, and gain nothing when it is busy (measured on this project's
	// two-core machines).
	Workers int
	// Progress, if not nil, is called after each group with the number of
	// texts done so far, from one goroutine at a time.
	Progress func(done, total int)
	// Background runs the embedding at the background CPU priority
	// (lowprio): the passages of a document being added give the cores to
	// the reading and OCR of the others, and to a question's search, when
	// both want them. A query is embedded at the normal priority.
	Background bool
}

// EmbedPassages returns one unit vector per text (a zero vector for a text
// without words), embedding each text's pieces as p says.
func EmbedPassages(ctx context.Context, emb embed.Embedder, p Passage, texts []string, o EmbedOptions) ([][]float32, error) {
	out := make([][]float32, len(texts))
	if len(texts) <= embedGroup { // one group (a query): no worker goroutines
		var err error
		run := func() { err = embedGroupOf(ctx, emb, p, texts, out) }
		if o.Background {
			lowprio.Go(run)
		} else {
			run()
		}
		if err != nil {
			return nil, err
		}
		if o.Progress != nil {
			o.Progress(len(texts), len(texts))
		}
		return out, nil
	}
	groups := make(chan int)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu   sync.Mutex
		done int
		errs []error
		wg   sync.WaitGroup
	)
	for range max(o.Workers, 1) {
		wg.Add(1)
		work := func() {
			for start := range groups {
				end := min(start+embedGroup, len(texts))
				if err := embedGroupOf(ctx, emb, p, texts[start:end], out[start:end]); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					cancel()
					continue
				}
				mu.Lock()
				done += end - start
				if o.Progress != nil {
					o.Progress(done, len(texts))
				}
				mu.Unlock()
			}
		}
		go func() {
			defer wg.Done()
			if o.Background {
				lowprio.Go(work)
			} else {
				work()
			}
		}()
	}
feed:
	for start := 0; start < len(texts); start += embedGroup {
		select {
		case groups <- start:
		case <-ctx.Done():
			break feed
		}
	}
	close(groups)
	wg.Wait()
	if len(errs) > 0 {
		return nil, errs[0]
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// embedGroupOf embeds the pieces of texts and writes the texts' mean
// vectors into out.
func embedGroupOf(ctx context.Context, emb embed.Embedder, p Passage, texts []string, out [][]float32) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	count := counter(emb)
	var pieces []string
	var weights []float64
	var owner []int
	for i, t := range texts {
		for _, s := range p.split(t, count) {
			pieces = append(pieces, s.text)
			w := 1.0
			if p.TokenWeighted {
				w = float64(max(s.tokens, 1))
			}
			weights = append(weights, w)
			owner = append(owner, i)
		}
	}
	vecs, err := emb.Embed(ctx, pieces)
	if err != nil {
		return fmt.Errorf("embed passages: %w", err)
	}
	means := make([][]float64, len(texts))
	for i, v := range vecs {
		m := means[owner[i]]
		if m == nil {
			m = make([]float64, emb.Dim())
			means[owner[i]] = m
		}
		for j, x := range v {
			m[j] += weights[i] * float64(x)
		}
	}
	for i, m := range means {
		out[i] = toUnit(m, emb.Dim())
	}
	return nil
}

// toUnit converts m to float32 at unit length; nil or zero gives zeros.
func toUnit(m []float64, dim int) []float32 {
	v := make([]float32, dim)
	var sum float64
	for _, x := range m {
		sum += x * x
	}
	if sum == 0 {
		return v
	}
	scale := 1 / math.Sqrt(sum)
	for j, x := range m {
		v[j] = float32(x * scale)
	}
	return v
}

type piece struct {
	text   string
	tokens int
}

// split cuts text into the pieces p embeds.
func (p Passage) split(text string, count func(string) int) []piece {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	if p.MaxTokens <= 0 && !p.PerSentence {
		return []piece{{text, count(text)}}
	}
	limit := p.MaxTokens
	if limit <= 0 {
		limit = math.MaxInt
	}
	var out []piece
	var cur []string
	curTokens := 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, piece{strings.Join(cur, " "), curTokens})
			cur, curTokens = cur[:0], 0
		}
	}
	for _, s := range Sentences(text) {
		n := count(s)
		if n > limit {
			flush()
			out = append(out, cutWords(s, limit, count)...)
			continue
		}
		if p.PerSentence || curTokens+n > limit {
			flush()
		}
		cur = append(cur, s)
		curTokens += n
	}
	flush()
	return out
}

// cutWords cuts a sentence longer than limit tokens between words.
func cutWords(s string, limit int, count func(string) int) []piece {
	var out []piece
	var cur []string
	curTokens := 0
	for _, w := range strings.Fields(s) {
		n := count(w)
		if curTokens+n > limit && len(cur) > 0 {
			out = append(out, piece{strings.Join(cur, " "), curTokens})
			cur, curTokens = nil, 0
		}
		cur = append(cur, w)
		curTokens += n
	}
	if len(cur) > 0 {
		out = append(out, piece{strings.Join(cur, " "), curTokens})
	}
	return out
}

// Sentences splits text into sentences: after '.', '!' or '?' (and any
// closing quotes or brackets) followed by white space and a capital
// letter, digit, quote or opening bracket, and at blank lines. White space
// inside a sentence is collapsed. An abbreviation followed by a lower-case
// word ("e.g. the") stays inside its sentence; one followed by a capital
// ("Fig. 3", "et al. (2019)") ends it, which costs little here since
// pieces are packed back together up to Passage.MaxTokens.
func Sentences(text string) []string {
	var out []string
	for _, para := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		words := strings.Fields(para)
		start := 0
		for i := 0; i < len(words)-1; i++ {
			if endsSentence(words[i]) && startsSentence(words[i+1]) {
				out = append(out, strings.Join(words[start:i+1], " "))
				start = i + 1
			}
		}
		if start < len(words) {
			out = append(out, strings.Join(words[start:], " "))
		}
	}
	return out
}

func endsSentence(w string) bool {
	w = strings.TrimRight(w, `"')]»”’`)
	if w == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(w)
	return r == '.' || r == '!' || r == '?'
}

func startsSentence(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) || unicode.IsDigit(r) || strings.ContainsRune(`"'([«“‘`, r)
}
