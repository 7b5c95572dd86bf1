package corpus

import "testing"

func TestCaptionKind(t *testing.T) {
	for s, want := range map[string]ChunkKind{
		"Table 3: Results":              ChunkTable,
		"Tableau 2 – Classification":    ChunkTable,
		"TABLE I":                       ChunkTable,
		"Table 1.1: Summary":            ChunkTable,
		"Figure 2. Residual learning":   ChunkFigure,
		"Fig. 3 — A graph":              ChunkFigure,
		"Figure 12 – Exemple":           ChunkFigure,
		"Table 2 summarizes our result": "",
		"table 2: lower case":           "",
		"Figures 2 and 3 show":          "",
	} {
		if got := CaptionKind(s); got != want {
			t.Errorf("CaptionKind(%q) = %q, want %q", s, got, want)
		}
	}
}
