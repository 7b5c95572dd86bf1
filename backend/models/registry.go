// Package models is Vika's model manager: a registry of the optional ONNX
// models (sentence encoders and cross-encoders from Hugging Face, embedded as
// registry.json) and a downloader that installs them into the data dir with
// resumable transfers, progress reports and sha256 verification.
//
// The offline default, USE lite, is not here: package assets owns it.
package models

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"vika/backend/assets"
)

// Roles of a model.
const (
	RoleEmbedder = "embedder"
	RoleReranker = "reranker"
)

// Values of Model.SHA256Status.
const (
	// Pinned: every file has a sha256 and a size in the registry.
	Pinned = "pinned"
	// Unverified: the hashes are not known yet; see Downloader.TrustOnFirstDownload.
	Unverified = "unverified"
)

// Sentinel errors; test with errors.Is.
var (
	ErrUnknown       = errors.New("unknown model")
	ErrNotInstalled  = errors.New("model not installed")
	ErrChecksum      = errors.New("checksum mismatch")
	ErrUnverified    = errors.New("model has no pinned sha256")
	ErrOffline       = errors.New("offline")
	ErrHTTP          = errors.New("download failed")
	ErrNoModelForEnv = errors.New("no such model")
)

// File is one file of a model, relative to its Hugging Face repository.
type File struct {
	Path   string `json:"path"`   // slash-separated, e.g. onnx/model.onnx
	SHA256 string `json:"sha256"` // empty while unverified
	Size   int64  `json:"size"`   // 0 while unknown
}

// Model is one registry entry.
type Model struct {
	Name         string   `json:"name"`
	Repo         string   `json:"repo"`     // Hugging Face repository
	Revision     string   `json:"revision"` // branch or commit
	Role         string   `json:"role"`     // RoleEmbedder or RoleReranker
	Languages    []string `json:"languages"`
	License      string   `json:"license"`
	Dimensions   int      `json:"dimensions"` // vector length; 0 for rerankers
	MaxTokens    int      `json:"max_tokens"` // truncation length, special tokens included
	Tokenizer    string   `json:"tokenizer"`  // tokenizer.json model kind: wordpiece or unigram
	Pooling      string   `json:"pooling"`    // mean, or none for rerankers
	Output       string   `json:"output"`     // ONNX output: last_hidden_state or logits
	SHA256Status string   `json:"sha256_status"`
	ApproxSizeMB int      `json:"approx_size_mb"` // rough download size, for the user
	// MaxFileMB caps each file whose size is not pinned: a server sending
	// more is refused (see Model.MaxBytes).
	MaxFileMB int            `json:"max_file_mb"`
	Files     []File         `json:"files"`
	Quality   map[string]any `json:"quality"` // published figures; measured_by_vika says whose
}

//go:embed registry.json
var registryJSON []byte

var registry = mustParse(registryJSON)

func mustParse(raw []byte) []Model {
	var doc struct {
		Models []Model `json:"models"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		panic("models: bad embedded registry.json: " + err.Error())
	}
	return doc.Models
}

// Registry returns every known model, in registry order.
func Registry() []Model {
	out := make([]Model, len(registry))
	copy(out, registry)
	return out
}

// Lookup returns the model called name (case-insensitive; the Hugging Face
// repository name works too).
func Lookup(name string) (Model, error) {
	for _, m := range registry {
		if strings.EqualFold(m.Name, name) || strings.EqualFold(m.Repo, name) {
			return m, nil
		}
	}
	return Model{}, fmt.Errorf("%w %q: run `vika models list`", ErrUnknown, name)
}

// Root is the directory holding downloaded models: <data dir>/models.
func Root() string { return filepath.Join(assets.Dir(), "models") }

// Dir is where model m lives under root.
func (m Model) Dir(root string) string { return filepath.Join(root, m.Name) }

// Path is where file f of m lives under root.
func (m Model) Path(root string, f File) string {
	return filepath.Join(m.Dir(root), filepath.FromSlash(f.Path))
}

// FilePath is the installed path of the file of m whose registry path is rel.
func (m Model) FilePath(root, rel string) string {
	return filepath.Join(m.Dir(root), filepath.FromSlash(rel))
}

// DefaultBaseURL is where the files come from; $VIKA_MODELS_BASE_URL
// overrides it (a mirror, or a test server).
const DefaultBaseURL = "https://huggingface.co"

// BaseURL is $VIKA_MODELS_BASE_URL, else DefaultBaseURL.
func BaseURL() string {
	if u := os.Getenv("VIKA_MODELS_BASE_URL"); u != "" {
		return strings.TrimRight(u, "/")
	}
	return DefaultBaseURL
}

// URL is the address of file f of m under base: the Hugging Face layout
// <base>/<repo>/resolve/<revision>/<path>.
func (m Model) URL(base string, f File) string {
	return strings.TrimRight(base, "/") + "/" + m.Repo + "/resolve/" + m.Revision + "/" + f.Path
}

// Environment variables choosing the embedders: a registry name, or UseLite.
const (
	EnvModelEN    = "VIKA_EMBED_MODEL_EN"
	EnvModelMulti = "VIKA_EMBED_MODEL_MULTI"
)

// UseLite names the built-in English embedder (Universal Sentence Encoder
// lite, installed by package assets, not by this registry). The variables
// accept it besides the registry's names.
const UseLite = "use-lite"

// Default embedder names when the variables are unset. English text goes to
// USE-lite, the offline default with a measured retrieval profile; other
// languages go to the multilingual MiniLM, but only when it is installed
// (Choice.Explicit is false then, and a missing model is no error).
const (
	DefaultEN    = UseLite
	DefaultMulti = "paraphrase-multilingual-MiniLM-L12-v2"
)

// Choice is the embedder configured for one group of languages.
type Choice struct {
	Name     string // UseLite or a registry model's name
	Model    *Model // the registry entry; nil for UseLite
	Explicit bool   // named by the environment variable, not by default
}

// Languages are the languages the chosen model was trained on: ISO 639-1
// codes, or "multi" for a multilingual model.
func (c Choice) Languages() []string {
	if c.Model == nil {
		return []string{"en"}
	}
	return c.Model.Languages
}

// Multilingual reports whether the model covers every language.
func (c Choice) Multilingual() bool {
	for _, l := range c.Languages() {
		if l == "multi" {
			return true
		}
	}
	return false
}

// Embedder returns the embedder configured for English text (english true:
// $VIKA_EMBED_MODEL_EN, default UseLite) or for other languages
// ($VIKA_EMBED_MODEL_MULTI, default DefaultMulti). An unknown name or a
// model that is not an embedder is an error naming the variable. Whether a
// registry model is installed is for the caller to check (Installed).
func Embedder(english bool) (Choice, error) {
	env, def := EnvModelMulti, DefaultMulti
	if english {
		env, def = EnvModelEN, DefaultEN
	}
	name := strings.TrimSpace(os.Getenv(env))
	c := Choice{Name: name, Explicit: name != ""}
	if name == "" {
		c.Name = def
	}
	if strings.EqualFold(c.Name, UseLite) {
		c.Name = UseLite
		return c, nil
	}
	m, err := Lookup(c.Name)
	if err != nil {
		return Choice{}, fmt.Errorf("%s=%q: %w", env, name, ErrNoModelForEnv)
	}
	if m.Role != RoleEmbedder {
		return Choice{}, fmt.Errorf("%s=%q: %s is a %s, not an embedder", env, name, m.Name, m.Role)
	}
	c.Name, c.Model = m.Name, &m
	return c, nil
}

// Rerankers lists the registry's cross-encoders.
func Rerankers() []Model {
	var out []Model
	for _, m := range registry {
		if m.Role == RoleReranker {
			out = append(out, m)
		}
	}
	return out
}
