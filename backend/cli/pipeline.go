package cli

import (
	"flag"
	"fmt"

	"vika/backend/chunk"
	"vika/backend/engine"
	"vika/backend/rag"
	"vika/backend/retrieve"
	"vika/backend/session"
)

// pipelineFlags are the per-pipeline controls of search and ask (figures
// from the image list, rerank depth) and of every command that adds PDFs
// (passage size and overlap), with the settings' defaults and bounds.
type pipelineFlags struct {
	figureDepth, rerankDepth *int
	chunkSize, chunkOverlap  *int
}

// register adds the flags: the depths when search is set (search and
// ask), the chunking always.
func (p *pipelineFlags) register(fs *flag.FlagSet, search bool) {
	d := session.DefaultSettings()
	if search {
		p.figureDepth = fs.Int("figure-depth", d.FigureDepth, fmt.Sprintf("figures the image list (CLIP, when installed) adds to the search, 0 to %d (0: off)", retrieve.MaxFigureDepth))
		p.rerankDepth = fs.Int("rerank-depth", d.RerankDepth, fmt.Sprintf("candidates the cross-encoder rescores, 1 to %d", retrieve.MaxRerankDepth))
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

// ask sets the depths of o.
func (p pipelineFlags) ask(o *rag.Options) error {
	s, err := p.settings()
	if err != nil {
		return err
	}
	so := s.Options()
	o.FigureDepth, o.RerankDepth = so.FigureDepth, so.RerankDepth
	return nil
}

// search sets the depths of o (engine's: a figure depth of 0 is off).
func (p pipelineFlags) search(o *engine.SearchOptions) error {
	s, err := p.settings()
	if err != nil {
		return err
	}
	o.RerankDepth, o.FigureDepth = s.RerankDepth, s.FigureDepth
	if s.FigureDepth == 0 {
		o.FigureDepth = -1
	}
	return nil
}
