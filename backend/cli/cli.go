// Package cli implements Vika's headless subcommands: version, ingest,
// search, ask, eval, bench, course, cache, study and models. They open the
// same session as the window, so scripts, benchmarks and tests exercise the
// real pipeline.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"vika/backend/assets"
)

// Version is the application version; the build overrides it with
// -ldflags "-X vika/backend/cli.Version=...".
var Version = "0.1.0-dev"

// errUsage marks a command-line mistake: the command prints its usage and
// exits with status 2.
var errUsage = errors.New("usage")

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, out, errOut io.Writer) error
}

func commands() []command {
	return []command{
		{"version", "print the version and the runtime assets in use", runVersion},
		{"ingest", "ingest PDFs and report what was extracted", runIngest},
		{"search", "ingest PDFs, then print the passages that best match a question", runSearch},
		{"ask", "ingest PDFs, then answer a question with citations (streamed; --json for the whole answer)", runAsk},
		{"eval", "measure retrieval on a BEIR dataset (beir), its latency (latency) or page search over PDFs (pages)", runEval},
		{"bench", "measure ingestion against pdftotext and the tesseract CLI (ingest), or of a folder of PDFs dropped at once (drop)", runBench},
		{"course", "save PDFs to a course file (.vika), open one, or check one (save | open | info)", runCourse},
		{"cache", "show or clear the processed-document cache (info | clear)", runCache},
		{"study", "ingest PDFs, then make a study guide or flashcards of one, or the mind map (guide | cards | plan | map)", runStudy},
		{"models", "list the optional models or download one (list | download NAME)", runModels},
	}
}

// IsCommand reports whether name is a subcommand (or a request for help).
func IsCommand(name string) bool {
	switch name {
	case "help", "-h", "--help":
		return true
	}
	for _, c := range commands() {
		if c.name == name {
			return true
		}
	}
	return false
}

// Run executes the subcommand named by args[0] and returns the process exit
// status: 0 on success, 1 when the command failed, 2 on a usage error.
func Run(ctx context.Context, args []string, out, errOut io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printHelp(out)
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, args[1:], out, errOut)
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.Is(err, errUsage):
			fmt.Fprintf(errOut, "vika %s: %v\n", c.name, err)
			return 2
		default:
			fmt.Fprintf(errOut, "vika %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(errOut, "vika: unknown command %q\n", args[0])
	printHelp(errOut)
	return 2
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "Usage: vika [command] [flags]\n\nWithout a command, vika opens its window.\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'vika COMMAND -h' for a command's flags.")
}

func runVersion(_ context.Context, args []string, out, _ io.Writer) error {
	if len(args) > 0 {
		return fmt.Errorf("%w: version takes no arguments", errUsage)
	}
	fmt.Fprintf(out, "vika %s\n", Version)
	for _, s := range assets.Report() {
		where := s.Path
		if s.Err != nil {
			where = "problem: " + s.Err.Error()
		}
		fmt.Fprintf(out, "%-15s %-40s %s\n", s.Kind, s.Source, where)
	}
	return nil
}

// stringList is a repeatable string flag (--pdf a.pdf --pdf b.pdf).
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(name string, errOut io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("vika "+name, flag.ContinueOnError)
	fs.SetOutput(errOut)
	return fs
}

// parse parses args, allowing flags after positional arguments
// (vika search "question" --pdf a.pdf).
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}
