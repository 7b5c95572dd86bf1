// Package assets locates and verifies the runtime files Vika needs but does not
// build into its binary: the ONNX Runtime shared library and the default
// embedding model (Universal Sentence Encoder lite as ONNX, plus its vocabulary).
//
// scripts/assets.sh installs them into the data dir; both sides read the sha256
// values pinned in manifest.json (embedded here), so they cannot disagree.
// Verify and Check turn a missing or damaged file into an error that says what
// to do about it.
package assets

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Kind names one runtime asset.
type Kind string

const (
	// ORT is the ONNX Runtime shared library (C API 24, ORT 1.24).
	ORT Kind = "onnxruntime"
	// USELiteModel is Universal Sentence Encoder lite converted to ONNX.
	USELiteModel Kind = "use-lite-model"
	// USELiteVocab is the SentencePiece vocabulary of USE lite.
	USELiteVocab Kind = "use-lite-vocab"
)

// Kinds lists every asset Check verifies, in install order.
var Kinds = []Kind{ORT, USELiteModel, USELiteVocab}

// Sentinel errors matched by the errors of Verify and Check; test with errors.Is.
var (
	ErrMissing     = errors.New("asset not installed")
	ErrCorrupt     = errors.New("asset corrupt")
	ErrUnsupported = errors.New("no pinned asset for this platform")
)

// Entry is one pinned file of the manifest.
type Entry struct {
	Kind     Kind   `json:"kind"`
	Platform string `json:"platform"` // "linux-x64", "linux-arm64" or "any"
	Path     string `json:"path"`     // relative to Dir, slash-separated
	SHA256   string `json:"sha256"`
	Size     int64  `json:"size"`
	NPM      string `json:"npm"`     // npm package@version it comes from
	Member   string `json:"member"`  // path inside that package
	Convert  string `json:"convert"` // converter script, if the file is built
}

//go:embed manifest.json
var manifestJSON []byte

var manifest = mustParse(manifestJSON)

func mustParse(raw []byte) []Entry {
	var doc struct {
		Assets []Entry `json:"assets"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		panic("assets: bad embedded manifest.json: " + err.Error())
	}
	return doc.Assets
}

// Platform is the manifest's name for the running OS and architecture.
func Platform() string {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if arch == "" {
		arch = runtime.GOARCH
	}
	return runtime.GOOS + "-" + arch
}

// Lookup returns the manifest entry of kind for this platform.
func Lookup(kind Kind) (Entry, error) {
	for _, e := range manifest {
		if e.Kind == kind && (e.Platform == "any" || e.Platform == Platform()) {
			return e, nil
		}
	}
	return Entry{}, problem(ErrUnsupported, "no pinned %s for %s", describe(kind), Platform())
}

// Dir is the data dir holding the assets: $VIKA_DATA_DIR, else
// $XDG_DATA_HOME/vika (when absolute, as the XDG spec requires), else
// ~/.local/share/vika. Without a home directory it falls back to a "vika"
// directory under the temp dir.
func Dir() string {
	if d := os.Getenv("VIKA_DATA_DIR"); d != "" {
		return d
	}
	if x := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "vika")
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		return filepath.Join(home, ".local", "share", "vika")
	}
	return filepath.Join(os.TempDir(), "vika")
}

// Path is where the asset of kind lives. For ORT, $VIKA_ORT_LIB overrides the
// data dir (a library the user provides is not checked against the pin).
func Path(kind Kind) (string, error) {
	if kind == ORT {
		if p := os.Getenv("VIKA_ORT_LIB"); p != "" {
			return p, nil
		}
	}
	e, err := Lookup(kind)
	if err != nil {
		return "", err
	}
	return filepath.Join(Dir(), filepath.FromSlash(e.Path)), nil
}

// ORTLibrary is the path of the ONNX Runtime shared library (see Path).
func ORTLibrary() (string, error) { return Path(ORT) }

// USELite returns the paths of the USE-lite model and its vocabulary.
func USELite() (model, vocab string, err error) {
	if model, err = Path(USELiteModel); err != nil {
		return "", "", err
	}
	vocab, err = Path(USELiteVocab)
	return model, vocab, err
}

// Verify checks that the asset of kind is installed and intact and returns its
// path. Errors wrap ErrMissing, ErrCorrupt or ErrUnsupported and say how to fix
// the problem. A library named by $VIKA_ORT_LIB only has to exist.
func Verify(kind Kind) (string, error) {
	path, err := Path(kind)
	if err != nil && kind == ORT {
		return "", problem(ErrUnsupported, "%v: set VIKA_ORT_LIB to an ONNX Runtime 1.24 library", err)
	} else if err != nil {
		return "", err
	}
	what := describe(kind)
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		if kind == ORT && os.Getenv("VIKA_ORT_LIB") != "" {
			return "", problem(ErrMissing, "%s not found at %s (from VIKA_ORT_LIB)", what, path)
		}
		return "", problem(ErrMissing, "%s not found at %s: run `make assets` (or scripts/assets.sh)", what, path)
	}
	if kind == ORT && os.Getenv("VIKA_ORT_LIB") != "" {
		return path, nil
	}
	e, _ := Lookup(kind) // Path succeeded, so the entry exists
	sum, err := FileSHA256(path, info)
	if err != nil {
		return "", problem(ErrCorrupt, "%s at %s is unreadable (%v): delete it and run `make assets`", what, path, err)
	}
	if sum != e.SHA256 {
		return "", problem(ErrCorrupt, "%s at %s is corrupt (sha256 %s != pinned %s): delete it and run `make assets`",
			what, path, sum, e.SHA256)
	}
	return path, nil
}

// Check verifies every asset and reports all problems at once.
func Check() error {
	var errs []error
	for _, k := range Kinds {
		if _, err := Verify(k); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// assetError is a message for the user that errors.Is matches with one of
// the sentinel errors, without repeating the sentinel's text.
type assetError struct {
	msg  string
	kind error
}

func (e *assetError) Error() string { return e.msg }
func (e *assetError) Unwrap() error { return e.kind }

func problem(kind error, format string, args ...any) error {
	return &assetError{fmt.Sprintf(format, args...), kind}
}

func describe(kind Kind) string {
	switch kind {
	case ORT:
		return "ONNX Runtime library"
	case USELiteModel:
		return "embedding model (USE lite)"
	case USELiteVocab:
		return "embedding vocabulary (USE lite)"
	}
	return string(kind)
}
