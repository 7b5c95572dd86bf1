package session

import (
	"cmp"
	"fmt"
	"strings"

	"vika/backend/chunk"
	"vika/backend/corpus"
	"vika/backend/llm"
	"vika/backend/metrics"
	"vika/backend/prompt"
	"vika/backend/rag"
	"vika/backend/retrieve"
)

// Settings are the user's answering preferences, kept between sessions in
// one file (store.go). They never hold an API key (keys live in the OS
// keyring).
type Settings struct {
	Routing  string `json:"routing"` // "auto" or "manual"
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Mode     string `json:"mode"` // "", "dense", "bm25", "hybrid"
	// Fusion is how hybrid search fuses keywords and meaning: "" by the
	// embedding model's measured profile (the default), "convex" or "rrf"
	// (retrieve.SearchOptions.Fusion).
	Fusion     string `json:"fusion"`
	K          int    `json:"k"`
	History    bool   `json:"history"`
	HyDE       bool   `json:"hyde"`
	MultiQuery bool   `json:"multi_query"`
	// MultiQueryVariants is how many rephrasings multi-query searches
	// with, from 1 to prompt.MaxRephrasings.
	MultiQueryVariants int  `json:"multi_query_variants"`
	Rerank             bool `json:"rerank"`
	// RerankDepth is how many candidates the cross-encoder rescores (1 to
	// retrieve.MaxRerankDepth); FigureDepth how many figures the image
	// list (CLIP) adds to a search (0 turns it off, at most
	// retrieve.MaxFigureDepth).
	RerankDepth int    `json:"rerank_depth"`
	FigureDepth int    `json:"figure_depth"`
	Locale      string `json:"locale"`
	// ChunkSize and ChunkOverlap cut the documents added afterwards into
	// passages of about ChunkSize characters, each repeating the last
	// ChunkOverlap of the one before (at most a third of ChunkSize); a
	// document already added keeps its passages until it is re-chunked
	// (Session.Rechunk).
	ChunkSize    int `json:"chunk_size"`
	ChunkOverlap int `json:"chunk_overlap"`
	// Describe has every document added describe its figures with
	// DescribeModel (a vision model, "provider/id"), and summarise its
	// tables when DescribeTables and transcribe its display formulas into
	// LaTeX when DescribeFormulas, up to DescribeMax regions a document.
	// Off by default: the figure and formula images and the table text go
	// to that model's provider.
	Describe         bool   `json:"describe"`
	DescribeModel    string `json:"describe_model"`
	DescribeTables   bool   `json:"describe_tables"`
	DescribeFormulas bool   `json:"describe_formulas"`
	DescribeMax      int    `json:"describe_max"`
	// Summarize has every document added get the summary index: a text
	// model (the router's choice for background jobs, llm.Service.AskJob)
	// writes a short summary of each passage, up to SummarizeMax a
	// document, searched as a list of its own (retrieve's summary list).
	// Off by default: the passages' text goes to that model's provider
	// (as the passages an answer cites do), one request a passage.
	Summarize    bool `json:"summarize"`
	SummarizeMax int  `json:"summarize_max"`
	// Ollama turns the local Ollama server on (llm.Service.SetLocal): off
	// by default, since whatever listens at its address would receive
	// every question and passage.
	Ollama bool `json:"ollama"`
	// Remember keeps the documents processed on this computer (package
	// cache), up to CacheMaxMB (0: DefaultCacheMaxMB); off by default:
	// sessions forget.
	Remember   bool `json:"remember"`
	CacheMaxMB int  `json:"cache_max_mb"`
}

// DefaultCacheMaxMB is the default cap of the document cache (2 GB);
// MinCacheMaxMB and MaxCacheMaxMB bound Settings.CacheMaxMB.
const (
	DefaultCacheMaxMB = 2048
	MinCacheMaxMB     = 100
	MaxCacheMaxMB     = 1 << 20
)

// DefaultDescribeMax is the default cap of regions described a document;
// MaxDescribe bounds Settings.DescribeMax.
const (
	DefaultDescribeMax = 20
	MaxDescribe        = 500
)

// DefaultSummarizeMax is the default cap of passages summarised a
// document; MaxSummarize bounds Settings.SummarizeMax.
const (
	DefaultSummarizeMax = 300
	MaxSummarize        = 5000
)

// MinChunkSize and MaxChunkSize bound Settings.ChunkSize.
const (
	MinChunkSize = 200
	MaxChunkSize = 4000
)

// Routing modes of Settings: those the metrics record (package metrics
// declares every routing mode once).
const (
	RoutingAuto   = metrics.RoutingAuto
	RoutingManual = metrics.RoutingManual
)

// DefaultSettings are used when no settings file exists.
func DefaultSettings() Settings {
	return Settings{Routing: RoutingAuto, K: rag.DefaultK, History: true, Rerank: true, MultiQueryVariants: prompt.DefaultRephrasings, DescribeMax: DefaultDescribeMax, SummarizeMax: DefaultSummarizeMax, CacheMaxMB: DefaultCacheMaxMB,
		RerankDepth: retrieve.DefaultRerankDepth, FigureDepth: retrieve.FigureDepth, ChunkSize: chunk.DefaultTarget, ChunkOverlap: chunk.DefaultOverlap}
}

// CacheMaxBytes is the document cache's cap in bytes.
func (s Settings) CacheMaxBytes() int64 {
	return int64(cmp.Or(s.CacheMaxMB, DefaultCacheMaxMB)) << 20
}

// Options returns the per-question options the settings describe.
func (s Settings) Options() rag.Options {
	depth := s.FigureDepth
	o := rag.Options{Mode: s.Mode, Fusion: s.Fusion, K: s.K, History: s.History, HyDE: s.HyDE, MultiQuery: s.MultiQuery,
		MultiQueryVariants: s.MultiQueryVariants, Rerank: s.Rerank, RerankDepth: s.RerankDepth, FigureDepth: &depth}
	if s.Routing == RoutingManual {
		o.Provider, o.Model = s.Provider, s.Model
	}
	return o
}

// Chunking is how the settings cut the documents added afterwards.
func (s Settings) Chunking() chunk.Options {
	o := chunk.Options{Target: s.ChunkSize, Overlap: s.ChunkOverlap}
	if o.Overlap == 0 {
		o.Overlap = -1 // chunk.Options: 0 is the default, negative none
	}
	return o
}

// Validate reports the first invalid setting, in a sentence.
func (s Settings) Validate() error {
	switch {
	case s.Routing != RoutingAuto && s.Routing != RoutingManual:
		return fmt.Errorf("%w: routing must be \"auto\" or \"manual\", not %q", corpus.ErrInvalid, s.Routing)
	case s.Routing == RoutingManual && (s.Provider == "" || s.Model == ""):
		return fmt.Errorf("%w: manual routing needs a provider and a model", corpus.ErrInvalid)
	case s.K < 1 || s.K > rag.MaxK:
		return fmt.Errorf("%w: k must be between 1 and %d, not %d", corpus.ErrInvalid, rag.MaxK, s.K)
	case s.MultiQueryVariants < 1 || s.MultiQueryVariants > prompt.MaxRephrasings:
		return fmt.Errorf("%w: multi_query_variants must be between 1 and %d, not %d", corpus.ErrInvalid, prompt.MaxRephrasings, s.MultiQueryVariants)
	case s.RerankDepth < 1 || s.RerankDepth > retrieve.MaxRerankDepth:
		return fmt.Errorf("%w: the rerank depth must be between 1 and %d, not %d", corpus.ErrInvalid, retrieve.MaxRerankDepth, s.RerankDepth)
	case s.FigureDepth < 0 || s.FigureDepth > retrieve.MaxFigureDepth:
		return fmt.Errorf("%w: the figures from the image list must be between 0 (off) and %d, not %d", corpus.ErrInvalid, retrieve.MaxFigureDepth, s.FigureDepth)
	case s.ChunkSize < MinChunkSize || s.ChunkSize > MaxChunkSize:
		return fmt.Errorf("%w: the passage size must be between %d and %d characters, not %d", corpus.ErrInvalid, MinChunkSize, MaxChunkSize, s.ChunkSize)
	case s.ChunkOverlap < 0 || s.ChunkOverlap > s.ChunkSize/3:
		return fmt.Errorf("%w: the passages' overlap must be between 0 and a third of their size (%d), not %d", corpus.ErrInvalid, s.ChunkSize/3, s.ChunkOverlap)
	case s.DescribeMax < 0 || s.DescribeMax > MaxDescribe:
		return fmt.Errorf("%w: the figures described a document must be between 0 and %d, not %d", corpus.ErrInvalid, MaxDescribe, s.DescribeMax)
	case s.SummarizeMax < 0 || s.SummarizeMax > MaxSummarize:
		return fmt.Errorf("%w: the passages summarised a document must be between 0 and %d, not %d", corpus.ErrInvalid, MaxSummarize, s.SummarizeMax)
	case s.CacheMaxMB != 0 && (s.CacheMaxMB < MinCacheMaxMB || s.CacheMaxMB > MaxCacheMaxMB):
		return fmt.Errorf("%w: the document cache's cap must be between %d and %d MB, not %d", corpus.ErrInvalid, MinCacheMaxMB, MaxCacheMaxMB, s.CacheMaxMB)
	case s.Describe && s.DescribeModel == "":
		return fmt.Errorf("%w: describing figures needs a vision model", corpus.ErrInvalid)
	case len(s.Locale) > 35 || strings.ContainsAny(s.Locale, " /\\\n"):
		return fmt.Errorf("%w: %q is not a locale", corpus.ErrInvalid, s.Locale)
	}
	if s.Mode != "" {
		if _, err := retrieve.ParseMode(s.Mode); err != nil {
			return fmt.Errorf("%w: %v", corpus.ErrInvalid, err)
		}
	}
	if _, err := retrieve.ParseFusion(s.Fusion); err != nil {
		return fmt.Errorf("%w: %v", corpus.ErrInvalid, err)
	}
	if s.DescribeModel != "" {
		if _, _, ok := llm.SplitKey(s.DescribeModel); !ok {
			return fmt.Errorf("%w: %q is not a model (provider/id)", corpus.ErrInvalid, s.DescribeModel)
		}
	}
	if s.Provider != "" || s.Model != "" {
		if _, _, ok := llm.SplitKey(s.Provider + "/" + s.Model); !ok {
			return fmt.Errorf("%w: a manual choice needs both a provider and a model", corpus.ErrInvalid)
		}
	}
	return nil
}
