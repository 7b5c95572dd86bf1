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
