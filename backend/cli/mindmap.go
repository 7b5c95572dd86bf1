package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"vika/backend/export"
	"vika/backend/mindmap"
	"vika/backend/retrieve"
)

// runMap is vika study map: the mind map of the documents added (their
// outlines and section titles; no model, so no key terms), printed as an
// indented tree with each node's citation, as JSON, or exported as SVG
// or HTML.
func runMap(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := newFlagSet("study map", errOut)
	var f studyFlags
	fs.Var(&f.pdfs, "pdf", "a PDF to add to the session (repeatable); the first is mapped unless --doc or --all says otherwise")
	fs.Var(&f.docs, "doc", "a document to map: its file name, without .pdf, or a part of it that names one (repeatable)")
	fs.BoolVar(&f.all, "all", false, "map every document added, as a course")
	fs.StringVar(&f.lang, "lang", "en", "the language of the export's few words (en or fr)")
	fs.BoolVar(&f.asJSON, "json", false, "print the map as JSON")
	fs.StringVar(&f.format, "export", "", "write the map to --out: svg or html")
	fs.StringVar(&f.out, "out", "", "with --export: the file to write")
	fs.Usage = func() {
		fmt.Fprintln(errOut, "Usage: vika study map --pdf FILE [--pdf FILE...] [--doc NAME...|--all] [--json] [--export svg|html --out FILE]")
		fs.PrintDefaults()
	}
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if err := f.check("map"); err != nil {
		return err
	}
	if f.format != "" && f.format != export.FormatSVG && f.format != export.FormatHTML {
		return fmt.Errorf("%w: a map exports as svg or html", errUsage)
	}
	eng, err := openSession(ctx, retrieve.ModeBM25, true, false, errOut)
	if err != nil {
		return err
	}
	defer eng.Close()
	if err := addAll(ctx, eng, f.pdfs, "vika study", errOut); err != nil {
		return err
	}
	sc, err := f.scope(ctx, eng)
	if err != nil {
		return err
	}
	m, err := eng.MindMap(ctx, sc)
	if err != nil {
		return err
	}
	return f.emit(out, m, func(w io.Writer) error { return export.MindMap(w, f.format, m, f.lang, time.Now()) }, func() { printMap(out, m) })
}

// printMap prints the tree, two spaces a level, each node with its
// citation.
func printMap(out io.Writer, m mindmap.Map) {
	var b strings.Builder
	var walk func(n mindmap.Node, depth int)
	walk = func(n mindmap.Node, depth int) {
		label := n.Label
		switch n.Kind {
		case mindmap.KindCourse:
			label = fmt.Sprintf("Course (%d documents)", len(n.Children))
		case mindmap.KindPages:
			label = fmt.Sprintf("Pages %d-%d", n.Page, n.To)
		case mindmap.KindTerm:
			label = "term: " + label
		}
		b.WriteString(strings.Repeat("  ", depth) + label)
		if n.DocID != "" {
			fmt.Fprintf(&b, " [%s p.%d]", n.File, n.Page)
		}
		b.WriteString("\n")
		for _, c := range n.Children {
			walk(c, depth+1)
		}
	}
	walk(m.Root, 0)
	fmt.Fprintf(&b, "%d documents and sections, %d key terms", m.Nodes, m.Terms)
	if m.Truncated {
		b.WriteString(" (cut to the map's bounds)")
	}
	b.WriteString("\n")
	io.WriteString(out, b.String())
}
