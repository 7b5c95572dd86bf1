// Package config declares every VIKA_* environment variable Vika reads: its
// name, type, default and meaning, once. Code reads a variable through its
// Var (Var.Get with an injected getenv, Getenv in the app), so that a
// name is never spelled twice; the table of variables of
// docs/configuration.md is checked
// against Vars by this package's tests, and so is every VIKA_ name in the
// Go sources.
package config

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Type is the kind of value a variable holds.
type Type string

const (
	String   Type = "string"
	Int      Type = "integer"
	Number   Type = "number"
	Duration Type = "duration"
	Path     Type = "path"
	URL      Type = "url"
	Flag     Type = "flag"
)

// Var is one environment variable.
type Var struct {
	Name    string
	Type    Type
	Default string // as docs/configuration.md shows it; "" when unset means nothing
	Meaning string
	// Test marks a variable only tests, benchmarks or the test harness
	// read: it is not in docs/configuration.md's table of settings.
	Test bool
}

// Getenv reads the process environment. It and LookupEnv are the only
// calls of os.Getenv and os.LookupEnv outside tests (config_test checks
// it): other packages read a Var, or pass Getenv where a function of the
// environment is injected (tests give their own).
func Getenv(name string) string { return os.Getenv(name) }

// LookupEnv is os.LookupEnv (see Getenv).
func LookupEnv(name string) (string, bool) { return os.LookupEnv(name) }

// Get returns the variable's value from getenv (the process environment
// when nil), without surrounding spaces; "" when unset.
func (v Var) Get(getenv func(string) string) string {
	if getenv == nil {
		getenv = Getenv
	}
	return strings.TrimSpace(getenv(v.Name))
}

// Int parses the variable from getenv (the process environment when nil)
// as an integer from lo to hi: unset gives def; a value that does not
// parse or is out of range gives def and an error naming the variable.
func (v Var) Int(getenv func(string) string, def, lo, hi int64) (int64, error) {
	s := v.Get(getenv)
	if s == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < lo || n > hi {
		return def, fmt.Errorf("%s=%q: want an integer from %d to %d", v.Name, s, lo, hi)
	}
	return n, nil
}

// The settings a user may give (the table of docs/configuration.md).
var (
	DataDir        = Var{"VIKA_DATA_DIR", Path, "$XDG_DATA_HOME/vika, else ~/.local/share/vika", "the one directory searched for the runtime assets and models", false}
	ORTLib         = Var{"VIKA_ORT_LIB", Path, "the installed assets' ONNX Runtime", "the ONNX Runtime shared library to load", false}
	MaxFileMB      = Var{"VIKA_MAX_FILE_MB", Int, "200", "largest PDF accepted, MiB", false}
	MaxPages       = Var{"VIKA_MAX_PAGES", Int, "3000", "most pages of a PDF accepted", false}
	PageTimeoutS   = Var{"VIKA_PAGE_TIMEOUT_S", Int, "30", "seconds to read one page (text, layout, classification)", false}
	OCRPageTimeout = Var{"VIKA_OCR_PAGE_TIMEOUT_S", Int, "90", "seconds to OCR one page", false}
	WorkerMemoryMB = Var{"VIKA_WORKER_MEMORY_MB", Int, "1536", "memory a parser worker may add after it starts, MiB", false}
	WorkerCPUS     = Var{"VIKA_WORKER_CPU_S", Int, "600", "CPU seconds of one parser worker", false}
	DocTimeMin     = Var{"VIKA_DOC_TIME_MIN", Int, "30", "minutes to read and OCR one document (its pages after that are marked)", false}
	DocCPUMin      = Var{"VIKA_DOC_CPU_MIN", Int, "60", "CPU minutes the parser workers may spend on one document", false}
	MaxOCRPages    = Var{"VIKA_MAX_OCR_PAGES", Int, "500", "most pages of one document sent to OCR", false}
	OCRWorkers     = Var{"VIKA_OCR_WORKERS", Int, "one per CPU", "OCR clients run at once", false}
	OCRTimeout     = Var{"VIKA_OCR_TIMEOUT", Duration, "60s", "per-page timeout of one OCR client", false}
	OCRLanguages   = Var{"VIKA_OCR_LANGUAGES", String, "fra+eng", "Tesseract languages (one of them alone once a page's language is known)", false}
	EmbedModelEN   = Var{"VIKA_EMBED_MODEL_EN", String, "bge-small-en-v1.5 when installed, else use-lite", "embedding model of English and unknown-language chunks", false}
	EmbedModelMult = Var{"VIKA_EMBED_MODEL_MULTI", String, "multilingual-e5-small, else paraphrase-multilingual-MiniLM-L12-v2, when installed", "embedding model of other languages, when installed", false}
	EmbedBatchSize = Var{"VIKA_EMBED_BATCH_SIZE", Int, "the model's", "passages embedded per ONNX run", false}
	EmbedThreads   = Var{"VIKA_EMBED_THREADS", Int, "1", "ONNX Runtime threads of an embedding or reranking model", false}
	ModelsBaseURL  = Var{"VIKA_MODELS_BASE_URL", URL, "https://huggingface.co", "where optional models are downloaded from", false}
	AbstainMinBM25 = Var{"VIKA_ABSTAIN_MIN_BM25", Number, "0.3", "best BM25 score below which an answer abstains (0 to 100)", false}
	RouteLLMRouter = Var{"VIKA_ROUTELLM_ROUTER", String, "heuristic", "how a question's complexity is judged", false}
	RouteLLMThresh = Var{"VIKA_ROUTELLM_THRESHOLD", Number, "0.3", "complexity from which a question goes to the stronger model (0 to 1)", false}
	GeminiBaseURL  = Var{"VIKA_GEMINI_BASE_URL", URL, "https://generativelanguage.googleapis.com/", "Gemini API address", false}
	MistralBaseURL = Var{"VIKA_MISTRAL_BASE_URL", URL, "https://api.mistral.ai/v1", "Mistral API address", false}
	GroqBaseURL    = Var{"VIKA_GROQ_BASE_URL", URL, "https://api.groq.com/openai/v1", "Groq API address", false}
	OpenRouterURL  = Var{"VIKA_OPENROUTER_BASE_URL", URL, "https://openrouter.ai/api/v1", "OpenRouter API address", false}
	OllamaBaseURL  = Var{"VIKA_OLLAMA_BASE_URL", URL, "http://127.0.0.1:11434", "local Ollama address", false}
	Regions        = Var{"VIKA_REGIONS", String, "on", "detect tables, figures and formulas at ingest (off to skip)", false}
	Soffice        = Var{"VIKA_SOFFICE", Path, "soffice on PATH, else the usual install places", "LibreOffice's soffice, which converts Office files to PDF (off: MuPDF's handler only)", false}
)

// RequireSharedData=1 makes a test that misses ../shared/data fail rather
// than skip (make test sets it).
var RequireSharedData = Var{"VIKA_REQUIRE_SHARED_DATA", Flag, "", "test: fail, not skip, without ../shared/data", true}

// Vars lists every variable: the settings above, then the internal ones
// and those of tests and benchmarks.
var Vars = []Var{
	DataDir, ORTLib, MaxFileMB, MaxPages, PageTimeoutS, OCRPageTimeout, WorkerMemoryMB, WorkerCPUS, DocTimeMin, DocCPUMin, MaxOCRPages,
	OCRWorkers, OCRTimeout, OCRLanguages, EmbedModelEN, EmbedModelMult, EmbedBatchSize, EmbedThreads,
	ModelsBaseURL, AbstainMinBM25, RouteLLMRouter, RouteLLMThresh,
	GeminiBaseURL, MistralBaseURL, GroqBaseURL, OpenRouterURL, OllamaBaseURL, Regions, Soffice,
	{"VIKA_SANDBOX_PROGRAM", String, "", "internal: set by the app on the launcher of a program it limits (LibreOffice)", true},

	{"VIKA_SANDBOX_WORKER", String, "", "internal: set by the app on a parser worker it starts", true},
	{"VIKA_SANDBOX_MEMORY", Int, "", "internal: a worker's address-space limit, bytes", true},
	{"VIKA_SANDBOX_CPU", Int, "", "internal: a worker's CPU-time limit, seconds", true},
	{"VIKA_SANDBOX_FAULTS", Flag, "", "test: a worker that misbehaves on purpose", true},
	{"VIKA_SANDBOX_MEASURE", Flag, "", "test: measure the sandbox's overhead", true},
	{"VIKA_REQUIRE_ASSETS", Flag, "", "test: fail, not skip, without the runtime assets", true},
	RequireSharedData,
	{"VIKA_NO_SHARED_DATA", Flag, "", "make test: run without ../shared/data", true},
	{"VIKA_REQUIRE_OVERHEAD_BOUND", Flag, "", "test: enforce the measured overhead bound", true},
	{"VIKA_KEYRING_TESTS", Flag, "", "test: run the system keyring tests", true},
	{"VIKA_BATCH_REPORT_DIR", Path, "", "test: keep the batch runner's report of the shared PDFs in this directory", true},
	{"VIKA_DIAG_CACHE", Path, "", "diagnosis (tag tune): the `vika eval pages --cache` directory to read", true},
	{"VIKA_DIAG_IDS", String, "", "diagnosis (tag tune): the question ids to explain, comma-separated", true},
	{"VIKA_DIAG_WHOLE", Flag, "", "diagnosis (tag tune): also print the first whole pages with their scores", true},
	{"VIKA_DIAG_DUMP", Flag, "", "diagnosis (tag tune): print the chunks of the answer pages", true},
	{"VIKA_DIAG_REPEAT", Flag, "", "diagnosis (tag tune): print the first pages of 30 searches of the question", true},
	{"VIKA_DIAG_PROFILE", String, "", "diagnosis (tag tune): JSON overriding fields of the model's retrieval profile", true},
	{"VIKA_DIAG_REGIONS", Flag, "", "diagnosis (tag tune): read the cache of a run with region passages (tables, figures, formulas)", true},
	{"VIKA_DIAG_OVERLAYS", Flag, "", "diagnosis (tag tune): print near-duplicate adjacent pages among the 8 sources", true},
	{"VIKA_SENT_CACHE", Path, "", "diagnosis (tag tune): directory keeping the sentence vectors TestSentenceSignal embeds", true},
	{"VIKA_SENT_SPLIT", String, "w64", "diagnosis (tag tune): how TestSentenceSignal cuts chunks: sent, lines or wN (N tokens)", true},
	{"VIKA_SENT_HALF", String, "tune", "diagnosis (tag tune): the half of the question set TestSentenceSignal measures", true},
	{"VIKA_SECRETS_HEADLESS_CHILD", Flag, "", "test: child process of the headless keyring test", true},
	{"VIKA_DAEMON_MARK", String, "", "test: marks daemons a keyring test started", true},
	{"VIKA_CLI_TEST_AS_VIKA", Flag, "", "test: run the test binary as the vika command", true},
	{"VIKA_BENCH_TEST_CHILD", Flag, "", "test: child process of a benchmark test", true},
	{"VIKA_BENCH_PAGES", Int, "", "benchmark: pages to measure", true},
	{"VIKA_BENCH_ROUNDS", Int, "", "benchmark: rounds", true},
	{"VIKA_MEASURE_ROUNDS", Int, "", "test: rounds of a measurement", true},
	{"VIKA_EVAL_PAGES_CACHE", Path, "", "test: cache of the page evaluation's ingest", true},
	{"VIKA_EVAL_DEV_CACHE", Path, "", "test: cache of the MMLongBench-Doc dev half's ingest (TestEvalPagesMMLongBenchDev)", true},
	{"VIKA_EVAL_BOX_CACHE", Path, "", "test: cache of the box's page evaluation (TestEvalPagesBox)", true},
	{"VIKA_BANDS_QUESTIONS", Path, "", "test: the question set TestCosineBands measures (default testdata/pdf_questions.jsonl)", true},
	{"VIKA_TUNE_CACHE", Path, "", "test: cache of the tuning runs", true},
	{"VIKA_TUNE_GRID", String, "", "test: tuning grid", true},
	{"VIKA_TUNE_MEAN", Flag, "", "test: tuning by mean", true},
	{"VIKA_TUNE_STRATEGIES", String, "", "test: tuning strategies", true},
	{"VIKA_OCR_SWEEP_DPI", String, "", "test: OCR sweep resolutions", true},
	{"VIKA_OCR_SWEEP_DUMP", Path, "", "test: OCR sweep output", true},
	{"VIKA_OCR_SWEEP_PREP", String, "", "test: OCR sweep preprocessing", true},
	{"VIKA_OCR_SWEEP_PSM", String, "", "test: OCR sweep page segmentation modes", true},
	{"VIKA_OCR_ROUNDS", String, "2", "test (tag tune): rounds of TestLessOCR, each variant timed once a round", true},
	{"VIKA_CACHE_TEST_WRITER_DIR", Path, "", "test: the cache directory of a writer child process", true},
	{"VIKA_CACHE_TEST_WRITER_NAME", String, "", "test: the entry name a writer child process writes", true},
	{"VIKA_CACHE_TEST_WRITER_N", Int, "", "test: how many entries a writer child process writes", true},
	{"VIKA_COURSE_TEST_SAVE", Path, "", "test: the course file a saving child process writes (killed mid-save)", true},
	{"VIKA_ENGINE_TEST_ALONE", Flag, "", "test: this engine test process runs one memory-measuring test alone", true},
}

// Lookup returns the variable named name.
func Lookup(name string) (Var, bool) {
	for _, v := range Vars {
		if v.Name == name {
			return v, true
		}
	}
	return Var{}, false
}
