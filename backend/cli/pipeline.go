package cli

import (
	"cmp"
	"flag"
	"fmt"

	"vika/backend/chunk"
	"vika/backend/engine"
	"vika/backend/rag"
	"vika/backend/retrieve"
	"vika/backend/session"
)

// pipelineFlags are the per-pipeline controls of search and ask (figures
// from the image list, rerank depth, hybrid fusion) and of every command
// that adds PDFs (passage size and overlap), with the settings' defaults
// and bounds.
type pipelineFlags struct {
	figureDepth, rerankDepth *int
	fusion                   *string
	chunkSize, chunkOverlap  *int
}

// fusionProfile is --fusion's name for the settings' "" fusion: each
// embedding model's measured profile.
const fusionProfile = "profile"

// register adds the flags: the depths and the fusion when search is set
// (search and ask), the chunking always.
func (p *pipelineFlags) register(fs *flag.FlagSet, search bool) {
	d := session.DefaultSettings()
	if search {
		p.figureDepth = fs.Int("figure-depth", d.FigureDepth, fmt.Sprintf("figures the image list (CLIP, when installed) adds to the search, 0 to %d (0: off)", retrieve.MaxFigureDepth))
		p.rerankDepth = fs.Int("rerank-depth", d.RerankDepth, fmt.Sprintf("candidates the cross-encoder rescores, 1 to %d", retrieve.MaxRerankDepth))
		p.fusion = fs.String("fusion", cmp.Or(d.Fusion, fusionProfile), "how hybrid search fuses keywords and meaning: profile (the embedding model's measured one), convex or rrf")
	}
	p.chunkSize = fs.Int("chunk-size", d.ChunkSize, fmt.Sprintf("passage size of the PDFs added, in characters (%d to %d)", session.MinChunkSize, session.MaxChunkSize))
	p.chunkOverlap = fs.Int("chunk-overlap", d.ChunkOverlap, "characters of a passage repeated at the start of the next (0 to a third of --chunk-size)")
}

// settings are the defaults with the flags' values, validated as the
// window's settings are.
func (p pipelineFlags) settings() (session.Settings, error) {
	s := session.DefaultSettings()
	if p.figureDepth != nil {
		s.FigureDepth, s.RerankDepth = *p.figureDepth, *p.rerankDepth
	}
	if p.fusion != nil {
		f := *p.fusion
		if f == fusionProfile {
			f = ""
		}
		if _, err := retrieve.ParseFusion(f); err != nil {
			return s, fmt.Errorf("%w: --fusion %q: want %s, %s or %s", errUsage, *p.fusion, fusionProfile, retrieve.FusionConvex, retrieve.FusionRRF)
		}
		s.Fusion = f
	}
	s.ChunkSize, s.ChunkOverlap = *p.chunkSize, *p.chunkOverlap
	if err := s.Validate(); err != nil {
		return s, fmt.Errorf("%w: %v", errUsage, err)
	}
	return s, nil
}

// chunking is the chunking the flags ask for.
func (p pipelineFlags) chunking() (chunk.Options, error) {
	s, err := p.settings()
	return s.Chunking(), err
}

// ask sets the depths and the fusion of o.
func (p pipelineFlags) ask(o *rag.Options) error {
	s, err := p.settings()
	if err != nil {
		return err
	}
	so := s.Options()
	o.FigureDepth, o.RerankDepth, o.Fusion = so.FigureDepth, so.RerankDepth, so.Fusion
	return nil
}

// search sets the depths (engine's: a figure depth of 0 is off) and the
// fusion of o.
func (p pipelineFlags) search(o *engine.SearchOptions) error {
	s, err := p.settings()
	if err != nil {
		return err
	}
	o.RerankDepth, o.FigureDepth, o.Fusion = s.RerankDepth, s.FigureDepth, retrieve.Fusion(s.Fusion)
	if s.FigureDepth == 0 {
		o.FigureDepth = -1
	}
	return nil
}
