package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"vika/backend/engine"
	"vika/backend/export"
	"vika/backend/llm"
	"vika/backend/rag"
	"vika/backend/secrets"
	"vika/backend/settings"
)

// answering holds what the answering bound methods use.
type answering struct {
	rag          *rag.Assistant
	keys         *secrets.Store
	settingsPath string // "" when the user has no configuration directory
	setupErr     error  // why the model service could not be configured (VIKA_* variables)
}

// newAnswering builds the answering session over eng: keys from the OS
// keyring (environment variables override), models from the catalogue
// configured by the environment. A bad VIKA_* value does not stop
// answering: a bad provider setting (a base URL, a header) leaves answers
// extractive, a bad threshold takes its default, and every answer carries a
// notice saying so.
func newAnswering(eng *engine.Engine) answering {
	keys := secrets.New()
	svc, err := llm.FromEnv(keys)
	if err != nil {
		err = fmt.Errorf("%w: no model is asked until it is fixed; answers quote your documents", err)
	}
	cfg, cfgErr := rag.DefaultConfig()
	if cfgErr != nil {
		cfgErr = fmt.Errorf("%w: the default is used", cfgErr)
	}
	setupErr := errors.Join(err, cfgErr)
	if setupErr != nil {
		cfg.Warning = strings.ReplaceAll(setupErr.Error(), "\n", "; ")
	}
	path, _ := settings.Path()
	if svc != nil && path != "" {
		saved, _ := settings.Load(path) // a damaged file is reported by Settings
		svc.SetLocal(saved.Ollama)
	}
	return answering{rag: rag.New(eng, svc, cfg), keys: keys, settingsPath: path, setupErr: setupErr}
}

// Ask starts answering question under the id the frontend chose, so that
// it listens to "answer:<id>" before the first event is sent, and returns
// that id; the answer streams as events on that channel.
func (a *App) Ask(id, question string, opts rag.Options) (string, error) {
	if id == "" {
		return "", errors.New("Ask needs the id whose events the page listens to")
	}
	channel := rag.EventPrefix + id
	return a.rag.StartID(a.ctx, id, question, opts, func(ev rag.Event) { runtime.EventsEmit(a.ctx, channel, ev) })
}

// CancelAsk stops an answer; what arrived is kept. It reports whether the
// answer was running.
func (a *App) CancelAsk(id string) (bool, error) { return a.rag.Cancel(id), nil }

// Conversation returns the session's finished turns, oldest first.
func (a *App) Conversation() ([]rag.Answer, error) { return a.rag.Conversation(), nil }

// ClearConversation forgets the turns.
func (a *App) ClearConversation() error { a.rag.ClearConversation(); return nil }

// Models lists the models and whether each can be used now.
func (a *App) Models() ([]llm.ModelStatus, error) {
	svc := a.rag.LLM()
	if svc == nil {
		return []llm.ModelStatus{}, a.setupErr
	}
	ms := svc.Models(a.ctx)
	if ms == nil {
		ms = []llm.ModelStatus{}
	}
	return ms, nil
}

// KeyStatus says, for each provider that takes a key, whether one is
// configured and where from. A key never leaves Go.
// A keyring that cannot be read (locked, not running) is reported on each
// status (keyring_error), not as a failure: keys from the environment still
// show.
func (a *App) KeyStatus() ([]secrets.Status, error) {
	sts, err := a.keys.StatusAll()
	if errors.Is(err, secrets.ErrKeyring) {
		err = nil
	}
	return sts, err
}

// SetKey stores a provider's key in the keyring.
func (a *App) SetKey(provider, key string) error {
	if err := a.keys.Set(provider, key); err != nil {
		return err
	}
	a.keyChanged(provider)
	return nil
}

// ClearKey removes a provider's key from the keyring.
func (a *App) ClearKey(provider string) error {
	if err := a.keys.Clear(provider); err != nil {
		return err
	}
	a.keyChanged(provider)
	return nil
}

func (a *App) keyChanged(provider string) {
	if svc := a.rag.LLM(); svc != nil {
		svc.KeyChanged(provider)
	}
}

// Metrics returns the session's metrics records and their summary.
func (a *App) Metrics() (rag.MetricsView, error) { return a.rag.Metrics(a.ctx) }

// ExportMetrics saves the metrics as "csv" or "json" where the user picks;
// it returns the path, "" when the user cancelled.
func (a *App) ExportMetrics(format string) (string, error) {
	var b bytes.Buffer
	if err := a.rag.ExportMetrics(a.ctx, &b, format); err != nil {
		return "", err
	}
	return a.save("Export metrics", "vika-metrics."+format, format, b.Bytes())
}

// ExportConversation saves the conversation as "html" or "md" where the
// user picks; it returns the path, "" when the user cancelled.
func (a *App) ExportConversation(format string) (string, error) {
	var b bytes.Buffer
	if err := export.Conversation(&b, format, a.rag.Conversation(), time.Now()); err != nil {
		return "", err
	}
	return a.save("Export conversation", "vika-conversation."+format, format, b.Bytes())
}

// save asks where to write data with the native dialog and writes it.
func (a *App) save(title, name, ext string, data []byte) (string, error) {
	path, err := runtime.SaveFileDialog(a.ctx, runtime.SaveDialogOptions{
		Title: title, DefaultFilename: name,
		Filters: []runtime.FileFilter{{DisplayName: "*." + ext, Pattern: "*." + ext}},
	})
	if err != nil || path == "" {
		return "", err
	}
	if filepath.Ext(path) == "" {
		path += "." + ext
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", fmt.Errorf("could not write %s: %w", path, err)
	}
	return path, nil
}

// Settings returns the saved settings (the defaults when none were saved).
func (a *App) Settings() (rag.Settings, error) {
	if a.settingsPath == "" {
		return rag.DefaultSettings(), nil
	}
	return settings.Load(a.settingsPath)
}

// SetSettings validates and saves the settings.
func (a *App) SetSettings(s rag.Settings) error {
	if a.settingsPath == "" {
		return errors.New("settings cannot be saved: there is no configuration directory")
	}
	if err := settings.Save(a.settingsPath, s); err != nil {
		return err
	}
	if svc := a.rag.LLM(); svc != nil {
		svc.SetLocal(s.Ollama)
	}
	return a.applyRemember(s)
}

// LocalEndpoint is the address of the local Ollama server, which Settings
// shows beside the switch that turns it on ("" when none is configured).
func (a *App) LocalEndpoint() (string, error) {
	if svc := a.rag.LLM(); svc != nil {
		return svc.LocalEndpoint(), nil
	}
	return "", a.setupErr
}
