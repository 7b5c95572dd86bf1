package rag

import (
	"fmt"
	"strings"

	"vika/backend/llm"
	"vika/backend/metrics"
	"vika/backend/prompt"
	"vika/backend/retrieve"
)

// Settings are the user's answering preferences; package settings keeps
// them between sessions. They never hold an API key (keys live in the OS
// keyring).
type Settings struct {
	Routing    string `json:"routing"` // "auto" or "manual"
	Provider   string `json:"provider"`
	Model      string `json:"model"`
	Mode       string `json:"mode"` // "", "dense", "bm25", "hybrid"
	K          int    `json:"k"`
	History    bool   `json:"history"`
	HyDE       bool   `json:"hyde"`
	MultiQuery bool   `json:"multi_query"`
	// MultiQueryVariants is how many rephrasings multi-query searches
	// with, from 1 to prompt.MaxRephrasings.
	MultiQueryVariants int    `json:"multi_query_variants"`
	Rerank             bool   `json:"rerank"`
	Locale             string `json:"locale"`
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
}

// DefaultDescribeMax is the default cap of regions described a document;
// MaxDescribe bounds Settings.DescribeMax.
const (
	DefaultDescribeMax = 20
	MaxDescribe        = 500
)

// Routing modes of Settings: those the metrics record (package metrics
// declares every routing mode once).
const (
	RoutingAuto   = metrics.RoutingAuto
	RoutingManual = metrics.RoutingManual
)

// MaxK bounds Settings.K and Options.K.
const MaxK = 50

// DefaultSettings are used when no settings file exists.
func DefaultSettings() Settings {
	return Settings{Routing: RoutingAuto, K: DefaultK, History: true, Rerank: true, MultiQueryVariants: prompt.DefaultRephrasings, DescribeMax: DefaultDescribeMax}
}

// Options returns the per-question options the settings describe.
func (s Settings) Options() Options {
	o := Options{Mode: s.Mode, K: s.K, History: s.History, HyDE: s.HyDE, MultiQuery: s.MultiQuery,
		MultiQueryVariants: s.MultiQueryVariants, Rerank: s.Rerank}
	if s.Routing == RoutingManual {
		o.Provider, o.Model = s.Provider, s.Model
	}
	return o
}

// Validate reports the first invalid setting, in a sentence.
func (s Settings) Validate() error {
	switch {
	case s.Routing != RoutingAuto && s.Routing != RoutingManual:
		return fmt.Errorf("%w: routing must be \"auto\" or \"manual\", not %q", ErrInvalid, s.Routing)
	case s.Routing == RoutingManual && (s.Provider == "" || s.Model == ""):
		return fmt.Errorf("%w: manual routing needs a provider and a model", ErrInvalid)
	case s.K < 1 || s.K > MaxK:
		return fmt.Errorf("%w: k must be between 1 and %d, not %d", ErrInvalid, MaxK, s.K)
	case s.MultiQueryVariants < 1 || s.MultiQueryVariants > prompt.MaxRephrasings:
		return fmt.Errorf("%w: multi_query_variants must be between 1 and %d, not %d", ErrInvalid, prompt.MaxRephrasings, s.MultiQueryVariants)
	case s.DescribeMax < 0 || s.DescribeMax > MaxDescribe:
		return fmt.Errorf("%w: the figures described a document must be between 0 and %d, not %d", ErrInvalid, MaxDescribe, s.DescribeMax)
	case s.Describe && s.DescribeModel == "":
		return fmt.Errorf("%w: describing figures needs a vision model", ErrInvalid)
	case len(s.Locale) > 35 || strings.ContainsAny(s.Locale, " /\\\n"):
		return fmt.Errorf("%w: %q is not a locale", ErrInvalid, s.Locale)
	}
	if s.Mode != "" {
		if _, err := retrieve.ParseMode(s.Mode); err != nil {
			return fmt.Errorf("%w: %v", ErrInvalid, err)
		}
	}
	if s.DescribeModel != "" {
		if _, _, ok := llm.SplitKey(s.DescribeModel); !ok {
			return fmt.Errorf("%w: %q is not a model (provider/id)", ErrInvalid, s.DescribeModel)
		}
	}
	if s.Provider != "" || s.Model != "" {
		if _, _, ok := llm.SplitKey(s.Provider + "/" + s.Model); !ok {
			return fmt.Errorf("%w: a manual choice needs both a provider and a model", ErrInvalid)
		}
	}
	return nil
}

// validate reports an option out of its range (K is bounded, not refused).
func (o Options) validate() error {
	if o.MultiQueryVariants < 0 || o.MultiQueryVariants > prompt.MaxRephrasings {
		return fmt.Errorf("%w: multi_query_variants must be between 1 and %d (0 for %d), not %d",
			ErrInvalid, prompt.MaxRephrasings, prompt.DefaultRephrasings, o.MultiQueryVariants)
	}
	if sc := o.Scope; sc.From < 0 || sc.To < 0 || (sc.To > 0 && sc.From > sc.To) {
		return fmt.Errorf("%w: the scope's pages %d-%d are not a range", ErrInvalid, sc.From, sc.To)
	}
	return o.Selection.validate()
}
