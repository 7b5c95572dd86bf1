// Package onnx runs ONNX models with ONNX Runtime for the packages that
// embed (embed), rerank (rerank) and score figures (clip): the process-wide runtime, the shared
// session of a loaded model (Runner), cancellable runs, the padded input of
// BERT-shaped models and their WordPiece tokenizer, and the settings every
// model shares (library, batch size, threads).
package onnx

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"

	ort "github.com/yalue/onnxruntime_go"

	"vika/backend/assets"
	"vika/backend/config"
)

var (
	runtimeMu  sync.Mutex
	runtimeLib string // library the environment was created from; guarded by runtimeMu
)

// InitRuntime loads the ONNX Runtime shared library at lib and creates the
// process-wide ORT environment. Only the first successful call does work; a
// failed call can be retried (after the user installs the library, say),
// which a sync.Once could not. If another package already initialised
// onnxruntime_go, that environment is used as it is.
func InitRuntime(lib string) error {
	runtimeMu.Lock()
	defer runtimeMu.Unlock()
	if runtimeLib != "" {
		return nil
	}
	if ort.IsInitialized() {
		runtimeLib = "(initialised elsewhere)"
		return nil
	}
	ort.SetSharedLibraryPath(lib)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return fmt.Errorf("loading ONNX Runtime from %s: %w", lib, err)
	}
	runtimeLib = lib
	return nil
}

// SessionOptions are the ORT settings of every embedding session: threads
// intra-op threads that sleep instead of spinning when idle (these shared
// 2-core machines lose more to spinning than they gain), one inter-op
// thread (the graph runs sequentially) and no memory arena.
func SessionOptions(threads int) (*ort.SessionOptions, error) {
	so, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	for _, set := range []func() error{
		func() error { return so.SetIntraOpNumThreads(threads) },
		func() error { return so.SetInterOpNumThreads(1) },
		func() error { return so.AddSessionConfigEntry("session.intra_op.allow_spinning", "0") },
		func() error { return so.AddSessionConfigEntry("session.inter_op.allow_spinning", "0") },
		// No memory arena: what a call allocated goes back to the system
		// after it, instead of staying reserved for the largest batch seen
		// (with the box's 12-layer models the arenas of two embedding jobs
		// held gigabytes after the adds).
		func() error { return so.SetCpuMemArena(false) },
	} {
		if err := set(); err != nil {
			so.Destroy()
			return nil, err
		}
	}
	return so, nil
}

// OpenBERT opens a BERT-shaped model with the package's session
// options (no spinning threads) and reads one named output. types reports
// whether the model takes token_type_ids (XLM-R exports do not); the inputs
// are fed in the order input_ids, attention_mask[, token_type_ids]. Package
// rerank uses it for cross-encoders.
func OpenBERT(model, output string, threads int) (sess *ort.DynamicAdvancedSession, types bool, out ort.InputOutputInfo, err error) {
	ins, outs, err := ort.GetInputOutputInfo(model)
	if err != nil {
		return nil, false, out, fmt.Errorf("reading model %s: %w", model, err)
	}
	names := map[string]bool{}
	for _, in := range ins {
		names[in.Name] = true
	}
	if !names["input_ids"] || !names["attention_mask"] {
		return nil, false, out, fmt.Errorf("model %s lacks input_ids or attention_mask (inputs %v)", model, ins)
	}
	inputs := []string{"input_ids", "attention_mask"}
	if types = names["token_type_ids"]; types {
		inputs = append(inputs, "token_type_ids")
	}
	if len(ins) != len(inputs) {
		return nil, false, out, fmt.Errorf("model %s has unexpected inputs %v", model, ins)
	}
	i := slices.IndexFunc(outs, func(o ort.InputOutputInfo) bool { return o.Name == output })
	if i < 0 {
		return nil, false, out, fmt.Errorf("model %s has no output %s", model, output)
	}
	so, err := SessionOptions(threads)
	if err != nil {
		return nil, false, out, fmt.Errorf("session options: %w", err)
	}
	defer so.Destroy()
	sess, err = ort.NewDynamicAdvancedSession(model, inputs, []string{output}, so)
	if err != nil {
		return nil, false, out, fmt.Errorf("loading model %s: %w", model, err)
	}
	return sess, types, outs[i], nil
}

// NewRun makes run options that ctx's cancellation terminates. release must
// be called once the runs are over; it waits for a termination in flight.
func NewRun(ctx context.Context) (*ort.RunOptions, func(), error) {
	opts, err := ort.NewRunOptions()
	if err != nil {
		return nil, nil, fmt.Errorf("onnx: run options: %w", err)
	}
	done := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(done)
		opts.Terminate()
	})
	return opts, func() {
		if !stop() {
			<-done
		}
		opts.Destroy()
	}, nil
}

// RuntimeSettings returns what every ONNX model of the app shares: the
// verified ONNX Runtime library, the batch size ($VIKA_EMBED_BATCH_SIZE,
// else defaultBatch) and the intra-op threads ($VIKA_EMBED_THREADS).
func RuntimeSettings(defaultBatch int) (library string, batchSize, threads int, err error) {
	if library, err = assets.Verify(assets.ORT); err != nil {
		return "", 0, 0, err
	}
	if batchSize, err = envPositive(config.EmbedBatchSize, defaultBatch); err != nil {
		return "", 0, 0, err
	}
	if threads, err = envPositive(config.EmbedThreads, 1); err != nil {
		return "", 0, 0, err
	}
	return library, batchSize, threads, nil
}

func envPositive(e config.Var, def int) (int, error) {
	name, v := e.Name, e.Get(nil)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s=%q: want a positive integer", name, v)
	}
	return n, nil
}
