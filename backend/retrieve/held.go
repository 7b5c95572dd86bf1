package retrieve

import "vika/backend/corpus"

// Held returns the vectors the dense indexes hold for chunks, in order
// (nil for a chunk none holds: a passage without text), and the figure
// passages among chunks with the image vectors the figure list holds:
// what AddEmbedded and AddFigures were given, for a course file to keep.
func (r *Retriever) Held(chunks []corpus.Chunk) (vecs [][]float32, figs []corpus.Chunk, figVecs [][]float32) {
	if len(r.spaces) > 0 {
		vecs = make([][]float32, len(chunks))
		for i, c := range chunks {
			for _, s := range r.spaces {
				if v, ok := s.dense.Vector(c.ID); ok {
					vecs[i] = v
					break
				}
			}
		}
	}
	if r.figs != nil {
		for _, c := range chunks {
			if v, ok := r.figs.Index.Vector(c.ID); ok {
				figs, figVecs = append(figs, c), append(figVecs, v)
			}
		}
	}
	return vecs, figs, figVecs
}

// DocVectors returns how many vectors the indexes hold for document docID,
// by the model that made them: each embedding model's name for its
// passages, the image model's for its figure crops. Models holding none of
// the document are left out; nil when none holds any.
func (r *Retriever) DocVectors(docID string) map[string]int {
	var out map[string]int
	add := func(model string, n int) {
		if n == 0 {
			return
		}
		if out == nil {
			out = map[string]int{}
		}
		out[model] += n
	}
	for _, s := range r.spaces {
		add(s.emb.Name(), s.dense.CountDoc(docID))
	}
	if r.figs != nil {
		add(r.figs.Model.Name(), r.figs.Index.CountDoc(docID))
	}
	return out
}
