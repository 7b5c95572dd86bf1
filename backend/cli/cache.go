package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"vika/backend/cache"
	"vika/backend/message"
	"vika/backend/session"
)

// cacheUsage documents `vika cache`. Its cache is the window's "Remember
// processed documents on this computer" (package cache), not the eval
// cache of `vika eval pages --cache DIR`, which keeps its own files.
const cacheUsage = `Usage: vika cache info [--dir DIR] [--json]
       vika cache clear [--dir DIR]

The processed-document cache: what Settings' "Remember processed documents
on this computer" keeps, and what ` + "`vika ingest --cache DIR`" + ` and
` + "`vika search --cache DIR`" + ` read and write. DIR defaults to the user's
cache directory (` + "`vika cache info`" + ` prints it).`

func runCache(ctx context.Context, args []string, out, errOut io.Writer) error {
	if len(args) == 0 || (args[0] != "info" && args[0] != "clear") {
		fmt.Fprintln(errOut, cacheUsage)
		return fmt.Errorf("%w: want info or clear", errUsage)
	}
	fs := newFlagSet("cache "+args[0], errOut)
	dir := fs.String("dir", "", "the cache directory (default: the user's cache directory)")
	asJSON := fs.Bool("json", false, "print the information as JSON")
	fs.Usage = func() { fmt.Fprintln(errOut, cacheUsage); fs.PrintDefaults() }
	rest, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: unexpected %q", errUsage, rest[0])
	}
	c, err := openCache(ctx, *dir, errOut)
	if err != nil {
		return err
	}
	defer c.Close()
	if args[0] == "clear" {
		if err := c.Clear(ctx); err != nil {
			return err
		}
	}
	in, err := c.Info(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(out).Encode(in)
	}
	_, err = fmt.Fprintf(out, "%s: %d documents, %d entries, %.1f MB of entries, %.1f MB on disk (cap %.0f MB)\n",
		in.Dir, in.Documents, in.Entries, mb(in.Bytes), mb(in.FileBytes), mb(in.MaxBytes))
	return err
}

func mb(n int64) float64 { return float64(n) / 1e6 }

// openCache opens the processed-document cache in dir, or in the user's
// cache directory when dir is "". Its notices go to errOut in English.
func openCache(ctx context.Context, dir string, errOut io.Writer) (*cache.Cache, error) {
	if dir == "" {
		d, err := cache.Dir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	return cache.Open(ctx, dir, cache.Options{Notice: func(m message.Message) {
		fmt.Fprintf(errOut, "vika: %s\n", m.English())
	}})
}

// useCache turns eng's processed-document cache on in dir (a --cache
// flag; "" leaves it off). close closes it.
func useCache(ctx context.Context, eng *session.Session, dir string, errOut io.Writer) (close func(), err error) {
	if dir == "" {
		return func() {}, nil
	}
	c, err := openCache(ctx, dir, errOut)
	if err != nil {
		return nil, err
	}
	eng.UseCache(c)
	return func() { eng.UseCache(nil); c.Close() }, nil
}
