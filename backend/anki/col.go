package anki

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"strconv"
)

// modelID is the id of Vika's note type, the same in every export so
// that Anki recognises it when a second deck is imported.
var modelID = func() int64 {
	sum := sha256.Sum256([]byte("vika.anki.basic"))
	return int64(binary.BigEndian.Uint64(sum[:8])>>12) + 2
}()

// ModelName is the name of the note type an .apkg brings into Anki.
const ModelName = "Vika Basic"

const css = `.card { font-family: arial; font-size: 20px; text-align: center; color: black; background-color: white; }`

type fieldDef struct {
	Name   string   `json:"name"`
	Ord    int      `json:"ord"`
	Sticky bool     `json:"sticky"`
	RTL    bool     `json:"rtl"`
	Font   string   `json:"font"`
	Size   int      `json:"size"`
	Media  []string `json:"media"`
}

type tmplDef struct {
	Name  string `json:"name"`
	Ord   int    `json:"ord"`
	Qfmt  string `json:"qfmt"`
	Afmt  string `json:"afmt"`
	Bqfmt string `json:"bqfmt"`
	Bafmt string `json:"bafmt"`
	Did   *int64 `json:"did"`
}

// modelsJSON is the col.models of the collection: the Basic note type
// (Front, Back; one card showing the Front, then both).
func modelsJSON(deck, secs int64) ([]byte, error) {
	m := map[string]any{
		"id": modelID, "name": ModelName, "type": 0, "mod": secs, "usn": -1, "sortf": 0, "did": deck,
		"flds": []fieldDef{
			{Name: "Front", Ord: 0, Font: "Arial", Size: 20, Media: []string{}},
			{Name: "Back", Ord: 1, Font: "Arial", Size: 20, Media: []string{}},
		},
		"tmpls": []tmplDef{{Name: "Card 1", Qfmt: "{{Front}}", Afmt: "{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}"}},
		"css":   css, "tags": []string{}, "vers": []int{},
		"latexPre":  "\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n\\begin{document}\n",
		"latexPost": "\\end{document}",
		"req":       []any{[]any{0, "all", []int{0}}},
	}
	return json.Marshal(map[string]any{strconv.FormatInt(modelID, 10): m})
}

// decksJSON is col.decks: Anki's Default deck (id 1, which every
// collection has) and the exported one.
func decksJSON(deck int64, name string, secs int64) ([]byte, error) {
	entry := func(id int64, name string) map[string]any {
		return map[string]any{
			"id": id, "name": name, "desc": "", "mod": secs, "usn": -1, "dyn": 0, "conf": 1,
			"collapsed": false, "browserCollapsed": false, "extendNew": 10, "extendRev": 50,
			"newToday": []int{0, 0}, "revToday": []int{0, 0}, "lrnToday": []int{0, 0}, "timeToday": []int{0, 0},
		}
	}
	return json.Marshal(map[string]any{"1": entry(1, "Default"), strconv.FormatInt(deck, 10): entry(deck, name)})
}

// dconfJSON is col.dconf: Anki's default options group (id 1).
func dconfJSON(secs int64) ([]byte, error) {
	return json.Marshal(map[string]any{"1": map[string]any{
		"id": 1, "name": "Default", "mod": secs, "usn": 0, "maxTaken": 60, "autoplay": true, "timer": 0,
		"replayq": true, "dyn": false,
		"new": map[string]any{"delays": []float64{1, 10}, "ints": []int{1, 4, 7}, "initialFactor": 2500,
			"order": 1, "perDay": 20, "bury": false, "separate": true},
		"rev": map[string]any{"perDay": 200, "ease4": 1.3, "fuzz": 0.05, "ivlFct": 1, "maxIvl": 36500,
			"bury": false, "minSpace": 1},
		"lapse": map[string]any{"delays": []float64{10}, "mult": 0, "minInt": 1, "leechFails": 8, "leechAction": 1},
	}})
}

// confJSON is col.conf: the collection's settings, its current deck the
// exported one.
func confJSON(deck int64) ([]byte, error) {
	return json.Marshal(map[string]any{
		"activeDecks": []int64{deck}, "curDeck": deck, "curModel": strconv.FormatInt(modelID, 10),
		"newSpread": 0, "collapseTime": 1200, "timeLim": 0, "estTimes": true, "dueCounts": true,
		"addToCur": true, "sortType": "noteFld", "sortBackwards": false, "nextPos": 1,
	})
}
