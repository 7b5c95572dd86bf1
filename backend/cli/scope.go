package cli

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"vika/backend/corpus"
)

// scopeFlags are the --doc and --pages flags of ask and search: the
// documents (by name) and the pages a question is limited to.
type scopeFlags struct {
	docs    stringList
	pages   string
	section string
}

func (s *scopeFlags) register(fs *flag.FlagSet) {
	fs.Var(&s.docs, "doc", "search only this document: its file name, without .pdf, or a part of it that names one (repeatable)")
	fs.StringVar(&s.pages, "pages", "", "search only these pages of the documents: 10-20, 10-, -20 or 7")
	fs.StringVar(&s.section, "section", "", "search only this section of a document's outline (its bookmark title, any case): its pages, within --pages")
}

// check validates the flags before anything is ingested.
func (s *scopeFlags) check() error {
	if _, _, err := corpus.ParsePages(s.pages); err != nil {
		return fmt.Errorf("%w: --pages: %v", errUsage, err)
	}
	return nil
}

// documentLister is what resolve needs of a session: its documents.
type documentLister interface {
	Documents(ctx context.Context) ([]corpus.Document, error)
}

// resolve turns the flags into a scope over eng's documents.
func (s *scopeFlags) resolve(ctx context.Context, eng documentLister) (corpus.Scope, error) {
	var sc corpus.Scope
	var err error
	if sc.From, sc.To, err = corpus.ParsePages(s.pages); err != nil {
		return sc, fmt.Errorf("%w: --pages: %v", errUsage, err)
	}
	if len(s.docs) == 0 && s.section == "" {
		return sc, nil
	}
	docs, err := eng.Documents(ctx)
	if err != nil {
		return sc, err
	}
	for _, name := range s.docs {
		d, err := findDoc(docs, name)
		if err != nil {
			return sc, err
		}
		sc.Docs = append(sc.Docs, d.ID)
	}
	if s.section == "" {
		return sc, nil
	}
	sc.Section = s.section
	if sc, err = sc.Resolve(docs); err != nil {
		return sc, fmt.Errorf("%w: --section: %v", errUsage, err)
	}
	return sc, nil
}

// findDoc is the document name names: its label or file name exactly
// (with or without .pdf, any case), else the only one whose name holds it.
func findDoc(docs []corpus.Document, name string) (corpus.Document, error) {
	want := strings.ToLower(strings.TrimSpace(name))
	bare := func(s string) string { return strings.TrimSuffix(strings.ToLower(s), ".pdf") }
	var part []corpus.Document
	for _, d := range docs {
		for _, n := range []string{d.Label, d.File} {
			if strings.ToLower(n) == want || bare(n) == bare(want) {
				return d, nil
			}
		}
		if want != "" && strings.Contains(strings.ToLower(d.Label), want) {
			part = append(part, d)
		}
	}
	if len(part) == 1 {
		return part[0], nil
	}
	names := make([]string, 0, len(docs))
	for _, d := range docs {
		names = append(names, filepath.Base(d.Label))
	}
	if len(part) > 1 {
		var many []string
		for _, d := range part {
			many = append(many, d.Label)
		}
		return corpus.Document{}, fmt.Errorf("%w: --doc %q names %d documents (%s): give more of the name", errUsage, name, len(part), strings.Join(many, ", "))
	}
	return corpus.Document{}, fmt.Errorf("%w: --doc %q names none of the documents (%s)", errUsage, name, strings.Join(names, ", "))
}
