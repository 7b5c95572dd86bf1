package models

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"vika/backend/assets"
)

var hex64, hex40 = regexp.MustCompile(`^[0-9a-f]{64}$`), regexp.MustCompile(`^[0-9a-f]{40}$`)

func TestRegistry(t *testing.T) {
	want := map[string]struct {
		role string
		dim  int
		max  int
	}{
		"bge-small-en-v1.5":                     {RoleEmbedder, 384, 512},
		"multilingual-e5-small":                 {RoleEmbedder, 384, 512},
		"all-MiniLM-L6-v2":                      {RoleEmbedder, 384, 256},
		"paraphrase-multilingual-MiniLM-L12-v2": {RoleEmbedder, 384, 128},
		"ms-marco-MiniLM-L-6-v2":                {RoleReranker, 0, 512},
		"ms-marco-MiniLM-L-12-v2":               {RoleReranker, 0, 512},
		"clip-vit-base-patch32":                 {RoleImage, 512, 77},
	}
	reg := Entries()
	if len(reg) != len(want) {
		t.Fatalf("registry has %d models, want %d", len(reg), len(want))
	}
	pinned := func(m Model, f File) {
		// Every file pinned: sha256, size, and a commit for the repository it comes from.
		if !hex64.MatchString(f.SHA256) || f.Size <= 0 || (f.Repo != "" && !hex40.MatchString(f.Revision)) || (f.Repo == "") != (f.Revision == "") {
			t.Errorf("%s: %s not pinned: %+v", m.Name, f.Path, f)
		}
	}
	for _, m := range reg {
		w, ok := want[m.Name]
		if !ok {
			t.Errorf("unexpected model %s", m.Name)
			continue
		}
		if m.Role != w.role || m.Dimensions != w.dim || m.MaxTokens != w.max {
			t.Errorf("%s: role %s dim %d max %d, want %+v", m.Name, m.Role, m.Dimensions, m.MaxTokens, w)
		}
		files := 2 // the ONNX model and its tokenizer.json
		if m.Role == RoleImage {
			files = 4 // text and vision models, tokenizer.json, preprocessor_config.json
		}
		if m.License == "" || m.Repo == "" || m.Tokenizer == "" || m.Pooling == "" || m.Output == "" || len(m.Files) != files {
			t.Errorf("%s: incomplete entry %+v", m.Name, m)
		}
		if (!hex40.MatchString(m.Revision) && !m.BoxOnly) || m.SHA256Status != Pinned {
			t.Errorf("%s: revision %q, status %q: want a commit, pinned", m.Name, m.Revision, m.SHA256Status)
		}
		if m.BoxOnly {
			// No Hugging Face pin: its files are the box's, byte for byte.
			for _, f := range m.Files {
				if e, ok := assets.ForPath("models/" + m.Name + "/" + f.Path); !ok || e.SHA256 != f.SHA256 || e.Size != f.Size {
					t.Errorf("%s: box-only, but %s is not the box's file (%+v)", m.Name, f.Path, e)
				}
				pinned(m, f)
			}
			continue
		}
		for _, f := range m.Files {
			pinned(m, f)
		}
		for _, v := range m.Variants {
			pinned(m, v.File)
			if !isONNX(v.File.Path) || len(v.RequiresAny) == 0 || v.Name == "" {
				t.Errorf("%s: variant %+v", m.Name, v)
			}
		}
		first := "onnx/model.onnx"
		if m.Role == RoleImage {
			first = "onnx/text_model_quantized.onnx"
		}
		if got := m.URL(DefaultBaseURL, m.Files[0]); got != "https://huggingface.co/"+m.Repo+"/resolve/"+m.Revision+"/"+first {
			t.Errorf("%s: URL %s", m.Name, got)
		}
	}
	if err := checkPinned(Model{Name: "x", Files: []File{{Path: "a.onnx"}}}); !errors.Is(err, ErrUnverified) {
		t.Errorf("checkPinned(unpinned) = %v", err)
	}
	if m, err := Lookup("SENTENCE-TRANSFORMERS/all-minilm-l6-v2"); err != nil || m.Name != "all-MiniLM-L6-v2" {
		t.Errorf("Lookup by repo: %v %v", m.Name, err)
	}
	if _, err := Lookup("gpt-17"); !errors.Is(err, ErrUnknown) {
		t.Errorf("Lookup(unknown) = %v", err)
	}
	if r := Rerankers(); len(r) != 2 || r[0].Name != "ms-marco-MiniLM-L-6-v2" || r[1].Name != "ms-marco-MiniLM-L-12-v2" {
		t.Errorf("Rerankers = %v", r)
	}
	if m, _ := Lookup("multilingual-e5-small"); m.QueryPrefix != "query: " || m.PassagePrefix != "passage: " {
		t.Errorf("e5 prefixes %q %q", m.QueryPrefix, m.PassagePrefix)
	}
}

// TestForCPU: the quantized export where the CPU has what it needs, full
// precision otherwise, with the download size of the files chosen.
func TestForCPU(t *testing.T) {
	entry := func(name string) Model {
		for _, m := range Entries() {
			if m.Name == name {
				return m
			}
		}
		t.Fatalf("no %s", name)
		return Model{}
	}
	for _, c := range []struct {
		model   string
		f       Features
		variant string
		onnx    string
		mb      int
	}{
		{"all-MiniLM-L6-v2", Features{}, Full, "onnx/model.onnx", 91},
		{"all-MiniLM-L6-v2", Features{FeatureAVX2: true}, "quint8-avx2", "onnx/model_quint8_avx2.onnx", 24},
		{"all-MiniLM-L6-v2", Features{FeatureAVX2: true, FeatureAVX512VNNI: true}, "qint8-avx512-vnni", "onnx/model_qint8_avx512_vnni.onnx", 23},
		{"all-MiniLM-L6-v2", Features{FeatureARM64: true}, "qint8-arm64", "onnx/model_qint8_arm64.onnx", 23},
		{"paraphrase-multilingual-MiniLM-L12-v2", Features{FeatureARM64: true}, Full, "onnx/model.onnx", 479},
		{"paraphrase-multilingual-MiniLM-L12-v2", Features{FeatureAVX2: true}, "quint8-avx2", "onnx/model_quint8_avx2.onnx", 128},
		{"bge-small-en-v1.5", Features{FeatureAVX2: true}, "int8", "onnx/model_quantized.onnx", 35},
		{"multilingual-e5-small", Features{FeatureAVX2: true, FeatureAVX512VNNI: true}, Full, "onnx/model.onnx", 487},
		{"ms-marco-MiniLM-L-6-v2", Features{}, Full, "onnx/model.onnx", 92},
		{"ms-marco-MiniLM-L-6-v2", Features{FeatureAVX2: true}, "int8", "onnx/model_quantized.onnx", 24},
		// CLIP's only export is dynamic int8, for every CPU: text model first.
		{"clip-vit-base-patch32", Features{}, "int8", "onnx/text_model_quantized.onnx", 156},
	} {
		m := entry(c.model).ForCPU(c.f)
		files := 2
		if m.Role == RoleImage {
			files = 4
		}
		if m.Variant != c.variant || m.Files[0].Path != c.onnx || m.ApproxSizeMB != c.mb || len(m.Files) != files {
			t.Errorf("%s on %v: variant %s, files %v, %d MB; want %s, %s, %d MB", c.model, c.f, m.Variant, m.Files, m.ApproxSizeMB, c.variant, c.onnx, c.mb)
		}
	}
	// A variant from another repository is fetched from there, at its revision.
	m := entry("ms-marco-MiniLM-L-6-v2").ForCPU(Features{FeatureAVX2: true})
	if got := m.URL(DefaultBaseURL, m.Files[0]); got != "https://huggingface.co/Xenova/ms-marco-MiniLM-L-6-v2/resolve/a09144355adeed5f58c8ed011d209bf8ee5a1fec/onnx/model_quantized.onnx" {
		t.Errorf("variant URL %s", got)
	}
	if got := m.URL(DefaultBaseURL, m.Files[1]); !strings.Contains(got, "/cross-encoder/ms-marco-MiniLM-L6-v2/resolve/233902d25c440f23af6f7d6e94d2946bac0bee0a/") {
		t.Errorf("tokenizer URL %s", got)
	}
}

func TestEmbedderFromEnv(t *testing.T) {
	t.Setenv("VIKA_DATA_DIR", t.TempDir()) // nothing installed
	t.Setenv(EnvModelEN, "")
	t.Setenv(EnvModelMulti, "")
	if c, err := Embedder(true); err != nil || c.Name != UseLite || c.Model != nil || c.Explicit || c.Multilingual() {
		t.Errorf("Embedder(en) = %+v, %v", c, err)
	}
	if c, err := Embedder(false); err != nil || c.Name != DefaultMulti || c.Model == nil || c.Explicit || !c.Multilingual() {
		t.Errorf("Embedder(multi) = %+v, %v", c, err)
	}
	t.Setenv(EnvModelEN, "paraphrase-multilingual-MiniLM-L12-v2")
	if c, err := Embedder(true); err != nil || c.Name != "paraphrase-multilingual-MiniLM-L12-v2" || !c.Explicit || !c.Multilingual() {
		t.Errorf("Embedder(en) with env = %+v, %v", c, err)
	}
	t.Setenv(EnvModelEN, "all-MiniLM-L6-v2")
	if c, err := Embedder(true); err != nil || c.Name != "all-MiniLM-L6-v2" || c.Multilingual() || c.Languages()[0] != "en" {
		t.Errorf("Embedder(en) with env = %+v, %v", c, err)
	}
	t.Setenv(EnvModelMulti, "USE-Lite")
	if c, err := Embedder(false); err != nil || c.Name != UseLite || !c.Explicit || c.Model != nil {
		t.Errorf("Embedder(multi) = use-lite: %+v, %v", c, err)
	}
	t.Setenv(EnvModelMulti, "nope")
	if _, err := Embedder(false); !errors.Is(err, ErrNoModelForEnv) || !strings.Contains(err.Error(), EnvModelMulti) {
		t.Errorf("Embedder(bad env) = %v", err)
	}
	t.Setenv(EnvModelEN, "ms-marco-MiniLM-L-6-v2")
	if _, err := Embedder(true); err == nil {
		t.Error("a reranker was accepted as embedder")
	}
}

// TestEmbedderPrefersInstalled: with the variables unset, an installed
// preferred model replaces the default (bge-small-en-v1.5 for English,
// multilingual-e5-small before the paraphrase MiniLM for the others).
func TestEmbedderPrefersInstalled(t *testing.T) {
	t.Setenv(EnvModelEN, "")
	t.Setenv(EnvModelMulti, "")
	root := t.TempDir()
	installAs := func(name string) {
		t.Helper()
		m, files := tinyModel(t, false)
		entry, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		// Served by the test server, pinned to the fixtures, for this test.
		entry.Repo, entry.Revision, entry.Files = "test/tiny", "main", m.Files
		t.Cleanup(Replace(entry))
		srv := newServer(t, files)
		if err := (&Downloader{BaseURL: srv.URL, Root: root}).Download(context.Background(), entry); err != nil {
			t.Fatal(err)
		}
	}
	pick := func(english bool) string {
		t.Helper()
		c, err := EmbedderIn(root, english)
		if err != nil || c.Explicit {
			t.Fatalf("EmbedderIn(%v) = %+v, %v", english, c, err)
		}
		return c.Name
	}
	if en, multi := pick(true), pick(false); en != UseLite || multi != DefaultMulti {
		t.Fatalf("nothing installed: %s, %s", en, multi)
	}
	installAs("paraphrase-multilingual-MiniLM-L12-v2")
	if multi := pick(false); multi != "paraphrase-multilingual-MiniLM-L12-v2" {
		t.Errorf("paraphrase installed: multi %s", multi)
	}
	installAs("multilingual-e5-small")
	installAs("bge-small-en-v1.5")
	if en, multi := pick(true), pick(false); en != "bge-small-en-v1.5" || multi != "multilingual-e5-small" {
		t.Errorf("all installed: %s, %s", en, multi)
	}
	t.Setenv(EnvModelEN, "use-lite") // the variable still wins
	if c, _ := EmbedderIn(root, true); c.Name != UseLite || !c.Explicit {
		t.Errorf("named use-lite: %+v", c)
	}
}
