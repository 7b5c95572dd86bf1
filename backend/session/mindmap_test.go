package session

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"vika/backend/corpus"
	"vika/backend/llm/llmtest"
	"vika/backend/mindmap"
	"vika/backend/study"
	"vika/backend/testpdf"
)

// TestMindMap adds three real PDFs (an outline, section headings, neither)
// and makes a guide of the outlined one with a fake Gemini; the map of
// that document has its outline with the guide's verified terms under
// their sections, and the course map has the three documents; every node
// cites a document of the session and a page it has, and a term a page
// whose text holds its definition's words.
func TestMindMap(t *testing.T) {
	gemini := llmtest.NewServer(t, "text/event-stream", func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Chunks: llmtest.GeminiStream("gemini-2.5-flash",
			"SUMMARY: The document has five pages [etude.pdf p.1]\n",
			"TERM: Outlined results :: Page 4 of the outlined document [etude.pdf p.4]\n",
			"TERM: Méthodes :: Page 2 of the outlined document [etude.pdf p.2]\n",
			"TERM: Unchecked :: Zebras graze in the savannah [etude.pdf p.3]\n")}
	})
	h := &heard{}
	s := openWith(t, "", h, map[string]string{"GEMINI_API_KEY": "AIzaSyFAKE-mindmap-0123456789", "VIKA_GEMINI_BASE_URL": gemini.URL})
	dir := t.TempDir()
	add := func(name string, data []byte) corpus.Document {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := s.Ingest(t.Context(), path, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r.Doc
	}
	etude := add("etude.pdf", testpdf.Outlined(5, "Une étude", "A", "S", "k", "c", []testpdf.Bookmark{
		{Title: "Introduction", Page: 1}, {Title: "Méthodes", Page: 2}, {Title: "Protocole", Depth: 1, Page: 3}, {Title: "Résultats", Page: 4}}))
	notes := add("notes.pdf", testpdf.Pages(
		testpdf.Page{Heading: "Sampling distributions", Body: "An estimator varies from sample to sample; its distribution is the sampling distribution."},
		testpdf.Page{Heading: "Confidence intervals", Body: "A confidence interval covers the parameter with a stated probability over repeated samples."}))
	long := add("long.pdf", testpdf.Text(strings.Split(strings.Repeat("Plain text without any heading at all.|", 14), "|")[:14]...))

	if err := s.StartStudyGuide(t.Context(), "g", study.Scope{DocID: etude.ID}, study.Options{}); err != nil {
		t.Fatal(err)
	}
	h.wait(t, "guide done", func(e event) bool {
		ev, ok := e.payload.(study.Event)
		return ok && e.name == EventStudyPrefix+"g" && (ev.Type == study.EventDone || ev.Type == study.EventError)
	})

	m, err := s.MindMap(t.Context(), study.Scope{DocID: etude.ID})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := shapeOf(m.Root), "etude.pdf@1[Introduction@1 Méthodes@2[Protocole@3 #Méthodes@2] Résultats@4[#Outlined results@4]]"; got != want {
		t.Errorf("document map:\n got %s\nwant %s", got, want)
	}
	checkMapCites(t, s, m)

	m, err = s.MindMap(t.Context(), study.Scope{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.Root.Kind != mindmap.KindCourse || len(m.Root.Children) != 3 {
		t.Fatalf("course map root %+v", m.Root)
	}
	if got, want := shapeOf(m.Root.Children[1]), "notes.pdf@1[Sampling distributions@1 Confidence intervals@2]"; got != want {
		t.Errorf("headings map:\n got %s\nwant %s", got, want)
	}
	if got, want := shapeOf(m.Root.Children[2]), "long.pdf@1[pp1-10 pp11-14]"; got != want {
		t.Errorf("pages map:\n got %s\nwant %s", got, want)
	}
	checkMapCites(t, s, m)
	_ = notes
	_ = long

	if _, err := s.MindMap(t.Context(), study.Scope{DocID: "nope"}); err == nil {
		t.Error("the map of a document not in the session")
	}
}

// shapeOf is a tree as "label@page[children]", a term marked #, a run
// of pages as ppA-B.
func shapeOf(n mindmap.Node) string {
	s := n.Label + "@" + itoa(n.Page)
	switch n.Kind {
	case mindmap.KindTerm:
		s = "#" + s
	case mindmap.KindPages:
		s = "pp" + itoa(n.Page) + "-" + itoa(n.To)
	}
	if len(n.Children) > 0 {
		var parts []string
		for _, c := range n.Children {
			parts = append(parts, shapeOf(c))
		}
		s += "[" + strings.Join(parts, " ") + "]"
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }

// checkMapCites fails unless every node but the course root cites a
// document of the session and one of its pages, whose text the session
// holds.
func checkMapCites(t *testing.T, s *Session, m mindmap.Map) {
	t.Helper()
	var walk func(n mindmap.Node)
	walk = func(n mindmap.Node) {
		if n.Kind != mindmap.KindCourse {
			pages, err := s.eng.Pages(t.Context(), n.DocID)
			if err != nil || n.Page < 1 || n.Page > len(pages) || pages[n.Page-1].Number != n.Page {
				t.Errorf("node %q cites %s p.%d: not a page of the session (%v)", n.Label, n.DocID, n.Page, err)
			} else if want := "Page " + itoa(n.Page) + " of the outlined"; n.Kind == mindmap.KindTerm && !strings.Contains(pages[n.Page-1].Text, want) {
				t.Errorf("term %q on p.%d whose text is %q", n.Label, n.Page, pages[n.Page-1].Text)
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(m.Root)
}

// TestMindMapSharedPDFs maps three real PDFs as a course: Vaswani's paper
// (an outline), BERT's (section titles only) and the made French scan
// (OCR's section titles, or runs of pages). Every node cites a page of its
// document, and a section's title is printed on the page it cites (its
// words, case and punctuation aside) for at least 90% of the sections.
func TestMindMapSharedPDFs(t *testing.T) {
	s := open(t, "", &heard{})
	for _, name := range []string{"vaswani2017_attention_is_all_you_need.pdf", "devlin2019_bert.pdf", "schutz2017_these_p20-22_SCANNED_MADE_fr.pdf"} {
		if _, err := s.Ingest(t.Context(), testpdf.SharedPDF(t, name), nil); err != nil {
			t.Fatal(err)
		}
	}
	m, err := s.MindMap(t.Context(), study.Scope{All: true})
	if err != nil {
		t.Fatal(err)
	}
	checkMapCites(t, s, m)
	words := func(s string) string {
		return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }), " ")
	}
	sections, printed := 0, 0
	var walk func(n mindmap.Node)
	walk = func(n mindmap.Node) {
		if n.Kind == mindmap.KindSection {
			pages, _ := s.eng.Pages(t.Context(), n.DocID)
			sections++
			if strings.Contains(words(pages[n.Page-1].Text), words(n.Label)) {
				printed++
			} else {
				t.Logf("%s p.%d: %q not found on its page", n.File, n.Page, n.Label)
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(m.Root)
	t.Logf("the scan's map: %s", shapeOf(m.Root.Children[2]))
	t.Logf("%d documents: %d nodes, %d sections, %d of them printed on the page they cite", len(m.Root.Children), m.Nodes, sections, printed)
	if sections < 30 || float64(printed) < 0.9*float64(sections) {
		t.Errorf("%d of %d sections printed on the page they cite", printed, sections)
	}
}
