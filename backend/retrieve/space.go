package retrieve

import (
	"context"

	"vika/backend/index"
)

// fuseLists fuses the candidates of both retrievers (with feedback if the
// profile asks for it) and returns them best first, by method or, when it
// is "", by the profile's (Profile.fusion). qv is nil if the query has no
// vector.
func (s *space) fuseLists(ctx context.Context, qv []float32, denseList, lexList []index.Scored, depth int, method Fusion) ([]*candidate, error) {
	f := s.prof.fusion(method)
	cands, err := s.candidates(qv, nil, denseList, lexList)
	if err != nil {
		return nil, err
	}
	fuse(cands, f)
	if p := s.prof.PRF; p.Docs > 0 && qv != nil && len(cands) > 0 {
		return s.feedback(ctx, qv, cands, lexList, depth, f)
	}
	return cands, nil
}

// candidates merges the two lists. Every candidate with a vector in s's
// index gets its exact cosine with qv, the question's vector (for the
// statistics), and, as its dense score, with fq, the vector fusion uses
// (nil: qv itself).
func (s *space) candidates(qv, fq []float32, denseList, lexList []index.Scored) ([]*candidate, error) {
	byID := make(map[string]*candidate, len(denseList)+len(lexList))
	var cands []*candidate
	get := func(id string) *candidate {
		c := byID[id]
		if c == nil {
			c = &candidate{id: id}
			byID[id] = c
			cands = append(cands, c)
		}
		return c
	}
	for i, d := range denseList {
		get(d.ChunkID).denseRank = i + 1
	}
	for i, l := range lexList {
		c := get(l.ChunkID)
		c.lexicalRank, c.lexical = i+1, l.Score
	}
	if qv == nil || len(cands) == 0 {
		return cands, nil
	}
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i] = c.id
	}
	cos, found, err := s.dense.Similarity(qv, ids)
	if err != nil {
		return nil, err
	}
	sims := cos
	if fq != nil {
		if sims, _, err = s.dense.Similarity(fq, ids); err != nil {
			return nil, err
		}
	}
	name := s.emb.Name()
	for i, c := range cands {
		c.dense, c.hasDense, c.cosine = sims[i], found[i], cos[i]
		if found[i] {
			c.model = name
		}
	}
	return cands, nil
}

// feedback runs dense pseudo-relevance feedback (see PRF) on the fused
// candidates and fuses again.
func (s *space) feedback(ctx context.Context, qv []float32, cands []*candidate, lexList []index.Scored, depth int, f fusion) ([]*candidate, error) {
	p := s.prof.PRF
	centroid := make([]float64, len(qv))
	n := 0
	for _, c := range cands[:min(p.Docs, len(cands))] {
		if v, ok := s.dense.Vector(c.id); ok {
			for j, x := range v {
				centroid[j] += float64(x)
			}
			n++
		}
	}
	if n == 0 {
		return cands, nil
	}
	q2 := make([]float64, len(qv))
	for j := range qv {
		q2[j] = float64(qv[j]) + p.Weight*centroid[j]/float64(n)
	}
	fq := toUnit(q2, len(qv))
	denseList, err := s.dense.Search(ctx, fq, depth)
	if err != nil {
		return nil, err
	}
	cands, err = s.candidates(qv, fq, denseList, lexList)
	if err != nil {
		return nil, err
	}
	fuse(cands, f)
	return cands, nil
}
