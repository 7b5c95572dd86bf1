package cli

import (
	"fmt"
	"strconv"

	"vika/backend/retrieve"
)

// profileFlags are the flags that override the retrieval profile.
type profileFlags struct {
	fusion, norm                string
	denseWeight, prfWeight      float64
	depth, prfDocs              int
	setWeight, setPRF, setDepth bool
}

func (p *profileFlags) register(fs interface {
	StringVar(*string, string, string, string)
	Func(string, string, func(string) error)
}) {
	fs.StringVar(&p.fusion, "fusion", "", "hybrid fusion: convex or rrf (default: the model's profile)")
	fs.StringVar(&p.norm, "norm", "", "convex score normalisation: minmax or zscore")
	fs.Func("dense-weight", "weight of the dense side in hybrid fusion, 0..1", func(s string) error {
		w, err := strconv.ParseFloat(s, 64)
		if err != nil || w < 0 || w > 1 {
			return fmt.Errorf("want a number in [0, 1]")
		}
		p.denseWeight, p.setWeight = w, true
		return nil
	})
	fs.Func("depth", "candidates per retriever in hybrid mode", func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return fmt.Errorf("want a positive integer")
		}
		p.depth, p.setDepth = n, true
		return nil
	})
	fs.Func("prf-docs", "dense pseudo-relevance feedback: chunks averaged (0: off)", func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return fmt.Errorf("want a non-negative integer")
		}
		p.prfDocs, p.setPRF = n, true
		return nil
	})
	fs.Func("prf-weight", "dense pseudo-relevance feedback: weight of the feedback vector", func(s string) error {
		w, err := strconv.ParseFloat(s, 64)
		if err != nil || w < 0 {
			return fmt.Errorf("want a non-negative number")
		}
		p.prfWeight, p.setPRF = w, true
		return nil
	})
}

// apply returns prof with the flags' overrides.
func (p *profileFlags) apply(prof retrieve.Profile) (retrieve.Profile, error) {
	switch retrieve.Fusion(p.fusion) {
	case "":
	case retrieve.FusionConvex, retrieve.FusionRRF:
		prof.Fusion = retrieve.Fusion(p.fusion)
	default:
		return prof, fmt.Errorf("%w: --fusion %q: want convex or rrf", errUsage, p.fusion)
	}
	switch retrieve.Norm(p.norm) {
	case "":
	case retrieve.NormMinMax, retrieve.NormZScore:
		prof.Norm = retrieve.Norm(p.norm)
	default:
		return prof, fmt.Errorf("%w: --norm %q: want minmax or zscore", errUsage, p.norm)
	}
	if p.setWeight {
		prof.DenseWeight = p.denseWeight
	}
	if p.setDepth {
		prof.Depth = p.depth
	}
	if p.setPRF {
		prof.PRF = retrieve.PRF{Docs: p.prfDocs, Weight: p.prfWeight}
	}
	return prof, nil
}
