package embed

import (
	"fmt"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
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

// sessionOptions are the ORT settings of every embedding session: threads
// intra-op threads that sleep instead of spinning when idle (these shared
// 2-core machines lose more to spinning than they gain) and one inter-op
// thread (the graph runs sequentially).
func sessionOptions(threads int) (*ort.SessionOptions, error) {
	so, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	for _, set := range []func() error{
		func() error { return so.SetIntraOpNumThreads(threads) },
		func() error { return so.SetInterOpNumThreads(1) },
		func() error { return so.AddSessionConfigEntry("session.intra_op.allow_spinning", "0") },
		func() error { return so.AddSessionConfigEntry("session.inter_op.allow_spinning", "0") },
	} {
		if err := set(); err != nil {
			so.Destroy()
			return nil, err
		}
	}
	return so, nil
}
