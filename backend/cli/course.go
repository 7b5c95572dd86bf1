package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

const courseUsage = `Usage: vika course save [--cache DIR] [--json] OUT.vika PDF...
       vika course open [--json] FILE.vika
       vika course info [--json] FILE.vika

save ingests the PDFs (from the document cache in DIR when given) and
writes them with their processed data and vectors to OUT.vika; open checks
a course file and adds its PDFs to a session, reporting each; info checks
it and lists its PDFs without adding them. A course file is untrusted: a
damaged or tampered one is refused with the reason.`

// courseReport is the output of vika course save|open|info --json.
type courseReport struct {
	File      string          `json:"file"`
	Bytes     int64           `json:"bytes"`
	Seconds   float64         `json:"seconds"` // to save, or to open into a session
	Documents []courseDocLine `json:"documents"`
	Failed    []string        `json:"failed,omitempty"`
}

type courseDocLine struct {
	File    string `json:"file"`
	DocID   string `json:"doc_id,omitempty"`
	Pages   int    `json:"pages"`
	Chunks  int    `json:"chunks"`
	Vectors bool   `json:"vectors,omitempty"` // info: its vectors are kept
	Setup   bool   `json:"same_pipeline,omitempty"`
}

func runCourse(ctx context.Context, args []string, out, errOut io.Writer) error {
	if len(args) == 0 || (args[0] != "save" && args[0] != "open" && args[0] != "info") {
		fmt.Fprintln(errOut, courseUsage)
		return fmt.Errorf("%w: want save, open or info", errUsage)
	}
	fs := newFlagSet("course "+args[0], errOut)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	cacheDir := fs.String("cache", "", "save: read and keep processed documents in the document cache in DIR")
	fs.Usage = func() { fmt.Fprintln(errOut, courseUsage); fs.PrintDefaults() }
	rest, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	if len(rest) == 0 || (args[0] != "save" && len(rest) != 1) || (args[0] == "save" && len(rest) < 2) {
		return fmt.Errorf("%w: see vika course -h", errUsage)
	}
	var rep courseReport
	switch args[0] {
	case "save":
		rep, err = courseSave(ctx, rest[0], rest[1:], *cacheDir, errOut)
	case "open":
		rep, err = courseOpen(ctx, rest[0], errOut)
	default:
		rep, err = courseInfo(ctx, rest[0], errOut)
	}
	if err != nil {
		return err
	}
	if fi, err := os.Stat(rep.File); err == nil {
		rep.Bytes = fi.Size()
	}
	return printCourse(out, args[0], rep, *asJSON)
}

func courseSave(ctx context.Context, path string, pdfs []string, cacheDir string, errOut io.Writer) (courseReport, error) {
	s, err := openSession(ctx, "", false, false, errOut)
	if err != nil {
		return courseReport{}, err
	}
	defer s.Close()
	closeCache, err := useCache(ctx, s, cacheDir, errOut)
	if err != nil {
		return courseReport{}, err
	}
	defer closeCache()
	rep := courseReport{File: path}
	for _, p := range pdfs {
		r, err := s.Ingest(ctx, p, nil)
		if err != nil {
			rep.Failed = append(rep.Failed, fmt.Sprintf("%s: %v", filepath.Base(p), err))
			continue
		}
		d := r.Doc
		rep.Documents = append(rep.Documents, courseDocLine{File: d.File, DocID: d.ID, Pages: d.Pages, Chunks: d.Chunks})
	}
	start := time.Now()
	if _, err := s.SaveCourse(ctx, path, false); err != nil {
		return rep, err
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

func courseOpen(ctx context.Context, path string, errOut io.Writer) (courseReport, error) {
	s, err := openSession(ctx, "", false, false, errOut)
	if err != nil {
		return courseReport{}, err
	}
	defer s.Close()
	start := time.Now()
	res, err := s.OpenCourse(ctx, path)
	if err != nil {
		return courseReport{}, err
	}
	rep := courseReport{File: path, Seconds: time.Since(start).Seconds()}
	for _, d := range res.Added {
		rep.Documents = append(rep.Documents, courseDocLine{File: d.File, DocID: d.ID, Pages: d.Pages, Chunks: d.Chunks})
	}
	for _, f := range res.Failed {
		rep.Failed = append(rep.Failed, f.File+": "+f.Error)
	}
	return rep, nil
}

func courseInfo(ctx context.Context, path string, errOut io.Writer) (courseReport, error) {
	s, err := openSession(ctx, "", true, false, errOut) // for this Vika's pipeline settings
	if err != nil {
		return courseReport{}, err
	}
	defer s.Close()
	entries, sameSetup, err := s.CourseInfo(ctx, path)
	if err != nil {
		return courseReport{}, err
	}
	rep := courseReport{File: path}
	for i, e := range entries {
		line := courseDocLine{File: e.File, Vectors: e.Vectors, Setup: sameSetup[i]}
		if e.Result != nil {
			line.DocID, line.Pages, line.Chunks = e.Result.Doc.ID, e.Result.Doc.Pages, len(e.Result.Chunks)
		}
		rep.Documents = append(rep.Documents, line)
	}
	return rep, nil
}

func printCourse(out io.Writer, verb string, rep courseReport, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(out).Encode(rep)
	}
	fmt.Fprintf(out, "%s: %d PDFs, %.1f MB", rep.File, len(rep.Documents), float64(rep.Bytes)/1e6)
	if verb != "info" {
		fmt.Fprintf(out, ", %s in %.2fs", map[string]string{"save": "saved", "open": "opened"}[verb], rep.Seconds)
	}
	fmt.Fprintln(out)
	for _, d := range rep.Documents {
		fmt.Fprintf(out, "  %s: %d pages, %d passages", d.File, d.Pages, d.Chunks)
		if verb == "info" {
			fmt.Fprintf(out, ", vectors %v, made by this pipeline %v", d.Vectors, d.Setup)
		}
		fmt.Fprintln(out)
	}
	for _, f := range rep.Failed {
		fmt.Fprintf(out, "  not added: %s\n", f)
	}
	if len(rep.Failed) > 0 {
		return fmt.Errorf("%w (%d)", errSomeFailed, len(rep.Failed))
	}
	return nil
}
