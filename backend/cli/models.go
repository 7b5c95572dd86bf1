package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"vika/backend/models"
)

// runModels is `vika models list|download`: the optional Hugging Face models
// of the registry (package models).
func runModels(ctx context.Context, args []string, out, errOut io.Writer) error {
	usage := func() {
		fmt.Fprint(errOut, `Usage:
  vika models list
  vika models download NAME

list shows the registry: role, languages, vector size, token limit, license,
download size, the variant chosen for this CPU (a quantized export where the
CPU has the instructions it needs, "full" precision otherwise), and whether the
model is installed in the data dir ($VIKA_DATA_DIR/models).

download fetches the model's files from Hugging Face ($VIKA_MODELS_BASE_URL
overrides https://huggingface.co) at the pinned revision, resuming a cut
transfer, and installs a file only when its size and sha256 match the pins
of the registry; any other bytes are refused.

Without a connection the default model, USE lite, keeps working.
`)
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage()
		if len(args) == 0 {
			return fmt.Errorf("%w: models needs list or download", errUsage)
		}
		return nil
	}
	switch args[0] {
	case "list":
		if len(args) > 1 {
			return fmt.Errorf("%w: models list takes no arguments", errUsage)
		}
		return listModels(out)
	case "download":
		return downloadModel(ctx, args[1:], out, errOut, usage)
	}
	usage()
	return fmt.Errorf("%w: unknown models command %q", errUsage, args[0])
}

func listModels(out io.Writer) error {
	root := models.Root()
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tROLE\tLANG\tDIM\tMAX TOKENS\tLICENSE\tSIZE\tVARIANT\tINSTALLED")
	for _, m := range models.Registry() {
		dim := "-"
		if m.Dimensions > 0 {
			dim = fmt.Sprint(m.Dimensions)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\t~%d MB\t%s\t%s\n", m.Name, m.Role, strings.Join(m.Languages, ","),
			dim, m.MaxTokens, m.License, m.ApproxSizeMB, m.Variant, installState(root, m))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "\nData dir: %s. The default embedder, USE lite, is built in (see `make assets`).\n", root)
	return nil
}

func installState(root string, m models.Model) string {
	_, err := models.Verify(root, m)
	switch {
	case err == nil:
		return "yes"
	case errors.Is(err, models.ErrNotInstalled):
		return "no"
	case errors.Is(err, models.ErrChecksum), errors.Is(err, models.ErrSize):
		return "corrupt"
	case errors.Is(err, models.ErrUnverified):
		return "unverified"
	}
	return "error"
}

func downloadModel(ctx context.Context, args []string, out, errOut io.Writer, usage func()) error {
	fs := newFlagSet("models download", errOut)
	fs.Usage = usage
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return fmt.Errorf("%w: models download takes one model name", errUsage)
	}
	m, err := models.Lookup(rest[0])
	if err != nil {
		return err
	}
	d := &models.Downloader{
		ProgressEvery: time.Second,
		Progress:      func(p models.Progress) { fmt.Fprintln(errOut, progressLine(p)) },
	}
	fmt.Fprintf(out, "Downloading %s (%s, %s, ~%d MB) from %s\n", m.Name, m.Variant, m.License, m.ApproxSizeMB, models.BaseURL())
	if err := d.Download(ctx, m); err != nil {
		return err
	}
	if _, err := models.Verify(models.Root(), m); err != nil {
		return err
	}
	fmt.Fprintf(out, "Installed %s in %s\n", m.Name, m.Dir(models.Root()))
	return nil
}

func progressLine(p models.Progress) string {
	mb := func(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
	if p.Total <= 0 {
		return fmt.Sprintf("  %s: %s", p.File, mb(p.Done))
	}
	return fmt.Sprintf("  %s: %s / %s (%d%%)", p.File, mb(p.Done), mb(p.Total), p.Done*100/p.Total)
}
