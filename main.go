// Command vika is a desktop assistant for asking questions of scientific PDFs.
//
// Without arguments it opens the window; with PDF or course file (.vika)
// paths as arguments (as the desktop entry's "Open with Vika" and a
// double-click pass them) it opens the window and adds them or opens the
// course; with a subcommand (version, ingest, search, ask, eval, bench,
// course, cache, study or models: package cli) it runs headless on the
// same engine, for scripting, tests and benchmarks.
package main

import (
	"context"
	"embed"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/options/windows"

	vikaassets "vika/backend/assets"
	"vika/backend/cli"
	"vika/backend/convert"
	"vika/backend/course"
	"vika/backend/docserve"
)

//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

func main() {
	if len(os.Args) > 1 && !opensFiles(os.Args[1:]) {
		attachConsole() // Windows: print to the console it was started from
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		code := cli.Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	if err := runWindow(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "vika:", err)
		os.Exit(1)
	}
}

// opensFiles reports whether the arguments are documents to open in the
// window (as the desktop entry and a double-click pass them) rather than a
// subcommand: none is a subcommand's name, and each names a .pdf, a course
// file (.vika) or an existing file (a PDF saved without its extension). A
// file that cannot be opened gets its error in the window, on that file.
func opensFiles(args []string) bool {
	if cli.IsCommand(args[0]) {
		return false
	}
	for _, a := range args {
		if convert.Known(a) || course.IsPath(a) {
			continue
		}
		if fi, err := os.Stat(a); err != nil || !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// runWindow opens the window and, once the page is ready, adds files.
func runWindow(files []string) error {
	app, err := NewApp(context.Background())
	if err != nil {
		return err
	}
	app.initialFiles = files
	return wails.Run(&options.App{
		Title:     "Vika",
		Width:     1280,
		Height:    800,
		MinWidth:  1024,
		MinHeight: 700,
		AssetServer: &assetserver.Options{
			Assets:  assets,
			Handler: docserve.Serve(app.s.DocumentFile, app.s.CropAt), // /docs/<id>: the PDFs, for the viewer; /crops/<id>/<page>/<n>: figure crops
		},
		OnStartup:  app.startup,
		OnDomReady: app.domReady,
		OnShutdown: app.shutdown,
		// Unsaved work keeps the window open for the page's quit question.
		OnBeforeClose: app.beforeClose,
		DragAndDrop: &options.DragAndDrop{
			EnableFileDrop:     true,
			DisableWebViewDrop: false, // true breaks native drops in Wails 2.9.2 on Linux (wails#3563)
		},
		Linux: &linux.Options{
			Icon:             icon,
			ProgramName:      "vika",
			WebviewGpuPolicy: linux.WebviewGpuPolicyOnDemand,
		},
		Windows: &windows.Options{
			// WebView2's profile in %LOCALAPPDATA%\Vika, not %APPDATA%\vika.exe (its default).
			WebviewUserDataPath: filepath.Join(vikaassets.Dir(), "WebView2"),
		},
		Bind: []interface{}{app},
		// Errors reach the page as {message, code, params} (app_errors.go).
		ErrorFormatter: formatError,
	})
}
