package anki

import (
	"bufio"
	"io"
	"strings"
)

// WriteTSV writes d in Anki's text import format: the file headers Anki
// reads since 2.1.54 (tab separator, HTML fields, the note type, the deck,
// the columns and which of them holds the tags), then one line per note:
// Front, Back, tags separated by spaces.
func WriteTSV(w io.Writer, d Deck) error {
	if err := d.check(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, h := range []string{
		"#separator:tab",
		"#html:true",
		"#notetype:Basic",
		"#deck:" + headerValue(d.Name),
		"#columns:Front\tBack\tTags",
		"#tags column:3",
	} {
		bw.WriteString(h + "\n")
	}
	for _, n := range d.Notes {
		bw.WriteString(field(n.Front) + "\t" + field(n.Back) + "\t" + strings.Join(tagsOf(d, n), " ") + "\n")
	}
	return bw.Flush()
}

// headerValue keeps a header on its line.
func headerValue(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
