package corpus

import (
	"regexp"
	"strings"
)

// captionRe matches the start of a caption as printed: "Table 3:",
// "Tableau 2 –", "Figure 2.", "Fig. 3 —", "TABLE I", "Table 1.1:", and
// the "TABLE Ill" OCR reads for "TABLE III".
var captionRe = regexp.MustCompile(`^(?i:(table|tableau|tab\.|figure|fig\.|fig))\s*(\d+(\.\d+)*|[IVXLC][IVXLCl]*)\s*([.:–—-]|$)`)

// CaptionKind returns the kind of region a caption line announces
// (ChunkTable or ChunkFigure), or "" when the line does not open a
// caption. The PDF reader finds captions with it; the chunker keeps such
// lines in the text even where they repeat like a running header.
func CaptionKind(text string) ChunkKind {
	m := captionRe.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return ""
	}
	// "TABLE I" and "FIGURE" in capitals are captions; a lower-case
	// "table" at a line start is running text.
	if r := m[1][0]; r < 'A' || r > 'Z' {
		return ""
	}
	if strings.HasPrefix(strings.ToLower(m[1]), "tab") {
		return ChunkTable
	}
	return ChunkFigure
}
