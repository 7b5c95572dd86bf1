package corpus

import (
	"slices"
	"testing"
)

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

func TestNamedLabels(t *testing.T) {
	fig := func(n string) Label { return Label{ChunkFigure, n} }
	tab := func(n string) Label { return Label{ChunkTable, n} }
	eq := func(n string) Label { return Label{ChunkFormula, n} }
	for q, want := range map[string][]Label{
		"What does Figure 4 show about plain and residual networks?":                       {fig("4")},
		"Compare Fig. 2 and fig 3":                                                         {fig("2"), fig("3")},
		"Que montre le tableau 2 ?":                                                        {tab("2")},
		"What do Tables 1 and Table II report?":                                            {tab("1"), tab("ii")},
		"Derive eq. (3) from équation 3 and Eq.(2.4)":                                      {eq("3"), eq("2.4")},
		"Explain Equation 5a":                                                              {eq("5a")},
		"What does Fig. 2a show?":                                                          {fig("2")}, // a panel of Figure 2
		"Which table shows the error rates?":                                               nil,
		"What does figure i mean?":                                                         nil, // a Roman number counts in capitals only
		"the timetable 3 of the refigured plan":                                            nil, // inside a word
		"How many rectangles in the first figure of the paper?":                            {fig("1"), fig("i")},
		"Que résume le deuxième tableau, après la Figure 3 ?":                              {tab("2"), tab("ii"), fig("3")},
		"The second table and Table 1":                                                     {tab("2"), tab("ii"), tab("1")},
		"the first figures' colours":                                                       {fig("1"), fig("i")},
		"first, figure out the table":                                                      nil, // not an ordinal of a region
		"What do Figure 3, fig. 2, Fig.5, table 1, Tableau 2 and tab. 4 show? (figures 7)": {fig("3"), fig("2"), fig("5"), tab("1"), tab("2"), tab("4"), fig("7")},
	} {
		if got := NamedLabels(q); !slices.Equal(got, want) {
			t.Errorf("%q: got %v, want %v", q, got, want)
		}
	}
}

func TestCaptionNumber(t *testing.T) {
	for text, want := range map[string]string{
		"Figure 2: x": "2", "Fig. 3. y": "3", "Tableau 2 – z": "2", "TABLE 10 a": "10",
		"TABLE III\n| a | b |": "iii", "TABLE Ill": "iii", "Table LX. Fifty-nine": "lx", "Table 1.1: nested": "1.1",
		"The figure 2 below": "", "20\n10\niter. (1e4)": "",
	} {
		if got := CaptionNumber(text); got != want {
			t.Errorf("CaptionNumber(%q) = %q, want %q", text, got, want)
		}
	}
}
