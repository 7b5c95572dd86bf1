// Package models is Vika's model manager: a registry of the optional ONNX
// models (sentence encoders, cross-encoders and CLIP from Hugging Face, embedded as
// registry.json, every file pinned by revision, sha256 and size; quantized
// variants chosen by CPU features) and a downloader that installs them
// into the data dir with resumable transfers, progress reports and
// verification: bytes that do not match their pin are refused.
//
// The offline default, USE lite, is not here: package assets owns it.
package models

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"vika/backend/assets"
	"vika/backend/config"
)

// Roles of a model.
const (
	RoleEmbedder = "embedder"
	RoleReranker = "reranker"
	// RoleImage is a text-to-image model (CLIP): it scores figure crops
	// for a question. Its files are a text and a vision ONNX model, the
	// tokenizer.json and the preprocessor_config.json.
	RoleImage = "image"
)

// Pinned is the only Model.SHA256Status: every file of every registry
// model has its sha256, size and repository revision in the registry.
const Pinned = "pinned"

// Sentinel errors; test with errors.Is.
var (
	ErrUnknown       = errors.New("unknown model")
	ErrNotInstalled  = errors.New("model not installed")
	ErrChecksum      = errors.New("checksum mismatch")
	ErrSize          = errors.New("size differs from the pinned size")
	ErrUnverified    = errors.New("model has no pinned sha256")
	ErrOffline       = errors.New("offline")
	ErrHTTP          = errors.New("download failed")
	ErrNoModelForEnv = errors.New("no such model")
	ErrBoxOnly       = errors.New("this model comes with Vika and cannot be downloaded")
)

// File is one file of a model, relative to its Hugging Face repository.
type File struct {
	Path   string `json:"path"`   // slash-separated, e.g. onnx/model.onnx
	SHA256 string `json:"sha256"` // lowercase hex
	Size   int64  `json:"size"`   // bytes
	// Repo and Revision, when set, say the file comes from another
	// repository than its model's (a quantized export, say).
	Repo     string `json:"repo,omitempty"`
	Revision string `json:"revision,omitempty"`
}

// Model is one registry entry.
type Model struct {
	Name       string   `json:"name"`
	Repo       string   `json:"repo"`     // Hugging Face repository
	Revision   string   `json:"revision"` // commit
	Role       string   `json:"role"`     // RoleEmbedder, RoleReranker or RoleImage
	Languages  []string `json:"languages"`
	License    string   `json:"license"`
	Dimensions int      `json:"dimensions"` // vector length; 0 for rerankers
	MaxTokens  int      `json:"max_tokens"` // truncation length, special tokens included
	Tokenizer  string   `json:"tokenizer"`  // tokenizer.json model kind: wordpiece, unigram or bpe
	Pooling    string   `json:"pooling"`    // mean, cls, or none for rerankers and CLIP
	Output     string   `json:"output"`     // ONNX output: last_hidden_state, logits, or text_embeds (CLIP; image_embeds for images)
	// QueryPrefix and PassagePrefix are put before every query and every
	// passage embedded (multilingual-e5 was trained with "query: " and
	// "passage: ").
	QueryPrefix   string `json:"query_prefix,omitempty"`
	PassagePrefix string `json:"passage_prefix,omitempty"`
	SHA256Status  string `json:"sha256_status"`
	// BoxOnly says the model comes only with Vika's box (package assets'
	// manifest): no Hugging Face pin of its bytes is known, so it cannot
	// be downloaded, and its files' pins are the box's.
	BoxOnly      bool   `json:"box_only,omitempty"`
	ApproxSizeMB int    `json:"approx_size_mb"` // download size, from the files' sizes
	Files        []File `json:"files"`
	// Variants are other exports of the network (see ForCPU); Variant is
	// the one chosen for this machine (Full, or a variant's name).
	Variants []Variant      `json:"variants,omitempty"`
	Variant  string         `json:"variant,omitempty"`
	Quality  map[string]any `json:"quality"` // published figures; measured_by_vika says whose
}

//go:embed registry.json
var registryJSON []byte

// registry holds the entries of registry.json resolved for this machine's
// CPU (Model.ForCPU); Replace swaps entries in tests.
var (
	registryMu sync.RWMutex
	registry   = resolve(mustParse(registryJSON), HostFeatures())
)

func resolve(ms []Model, f Features) []Model {
	out := make([]Model, len(ms))
	for i, m := range ms {
		out[i] = m.ForCPU(f)
		if b, ok := m.boxed(f, boxShips); ok {
			out[i] = b
		}
	}
	return out
}

// boxShips reports whether the box ships the file of model name at rel
// (package assets' manifest).
func boxShips(name, rel string) bool {
	_, ok := assets.ForPath("models/" + name + "/" + rel)
	return ok
}

// boxed returns m with the export the box ships, when it ships one this
// CPU runs: its variant for this CPU, else its full precision file. The
// box decides over ForCPU's preference, so that a model in the box is
// installed whatever the CPU (a download can still bring another export).
func (m Model) boxed(f Features, ships func(name, rel string) bool) (Model, bool) {
	for _, v := range m.Variants {
		if f.any(v.RequiresAny) && ships(m.Name, v.File.Path) {
			m.Variants = []Variant{v}
			return m.ForCPU(f), true
		}
	}
	for _, file := range m.Files {
		if isONNX(file.Path) && ships(m.Name, file.Path) {
			m.Variants = nil
			return m.ForCPU(f), true
		}
	}
	return Model{}, false
}

// Entries returns the registry's entries as registry.json holds them,
// variants unresolved (for checks of the registry itself).
func Entries() []Model { return mustParse(registryJSON) }

// Replace puts m in the registry in place of the entry of the same name
// (appending it when there is none) until restore is called. It is for
// tests that serve fixture models under a registry name with the
// fixtures' own pins (package modelstest); tests using it must not run in
// parallel with others that read the same entry.
func Replace(m Model) (restore func()) {
	registryMu.Lock()
	defer registryMu.Unlock()
	saved := registry
	next := make([]Model, 0, len(saved)+1)
	replaced := false
	for _, x := range saved {
		if x.Name == m.Name {
			x, replaced = m, true
		}
		next = append(next, x)
	}
	if !replaced {
		next = append(next, m)
	}
	registry = next
	return func() {
		registryMu.Lock()
		defer registryMu.Unlock()
		registry = saved
	}
}

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
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]Model, len(registry))
	copy(out, registry)
	return out
}

// Lookup returns the model called name (case-insensitive; the Hugging Face
// repository name works too).
func Lookup(name string) (Model, error) {
	for _, m := range Registry() {
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
	if u := config.ModelsBaseURL.Get(nil); u != "" {
		return strings.TrimRight(u, "/")
	}
	return DefaultBaseURL
}

// URL is the address of file f of m under base: the Hugging Face layout
// <base>/<repo>/resolve/<revision>/<path>, with the file's own repository
// and revision when it has them.
func (m Model) URL(base string, f File) string {
	repo, rev := m.Repo, m.Revision
	if f.Repo != "" {
		repo, rev = f.Repo, f.Revision
	}
	return strings.TrimRight(base, "/") + "/" + repo + "/resolve/" + rev + "/" + f.Path
}

func isONNX(path string) bool { return strings.HasSuffix(path, ".onnx") }

// Environment variables choosing the embedders: a registry name, or UseLite.
const (
	EnvModelEN    = "VIKA_EMBED_MODEL_EN"
	EnvModelMulti = "VIKA_EMBED_MODEL_MULTI"
)

// UseLite names the built-in English embedder (Universal Sentence Encoder
// lite, installed by package assets, not by this registry). The variables
// accept it besides the registry's names.
const UseLite = "use-lite"

// Default embedder names when the variables are unset and none of the
// preferred models is installed. English text goes to USE-lite, the
// offline default with a measured retrieval profile; other languages go to
// the multilingual model, but only when it is installed (Choice.Explicit
// is false then, and a missing model is no error).
const (
	DefaultEN    = UseLite
	DefaultMulti = "multilingual-e5-small"
)

// Preferred embedders, best first: with its variable unset, a group of
// languages takes the first of these that is installed (published BEIR
// figures: bge-small-en-v1.5 is far ahead of USE-lite and all-MiniLM-L6-v2;
// multilingual-e5-small was trained for retrieval, the paraphrase MiniLM
// for sentence similarity). all-MiniLM-L6-v2 is used only when named.
var (
	PreferredEN    = []string{"bge-small-en-v1.5"}
	PreferredMulti = []string{"multilingual-e5-small", "paraphrase-multilingual-MiniLM-L12-v2"}
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

// Embedder is EmbedderIn(Root(), english).
func Embedder(english bool) (Choice, error) { return EmbedderIn(Root(), english) }

// EmbedderIn returns the embedder configured for English text (english
// true: $VIKA_EMBED_MODEL_EN) or for other languages
// ($VIKA_EMBED_MODEL_MULTI). Unset, it is the first model of PreferredEN
// (PreferredMulti) installed under root, else DefaultEN (DefaultMulti). An
// unknown name or a model that is not an embedder is an error naming the
// variable. Whether a named registry model is installed is for the caller
// to check (Installed).
func EmbedderIn(root string, english bool) (Choice, error) {
	env, def, preferred := EnvModelMulti, DefaultMulti, PreferredMulti
	if english {
		env, def, preferred = EnvModelEN, DefaultEN, PreferredEN
	}
	name := strings.TrimSpace(config.Getenv(env))
	c := Choice{Name: name, Explicit: name != ""}
	if name == "" {
		c.Name = def
		for _, p := range preferred {
			if m, err := Lookup(p); err == nil && Installed(root, m) {
				c.Name = p
				break
			}
		}
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
	for _, m := range Registry() {
		if m.Role == RoleReranker {
			out = append(out, m)
		}
	}
	return out
}
