package main

import (
	"vika/backend/llm"
	"vika/backend/rag"
	"vika/backend/secrets"
	"vika/backend/session"
)

// The settings page API (frontend/src/lib/api/settings.ts): the saved
// settings, the LLM catalogue's models and the API keys.

// Settings returns the saved settings (the defaults when none were saved).
func (a *App) Settings() (session.Settings, error) { return a.s.Settings() }

// AskOptions returns the ask options of the saved settings (a manual
// choice of model, the retrieval mode and switches) for the chat to ask with.
func (a *App) AskOptions() (rag.Options, error) { return a.s.AskOptions(), nil }

// SetSettings validates and saves the settings.
func (a *App) SetSettings(s session.Settings) error { return a.s.SetSettings(a.ctx, s) }

// SummaryPlan says what summarising the session's documents (the summary
// index) will cost before it starts: the requests, the tokens, the model.
func (a *App) SummaryPlan() (session.SummaryPlan, error) { return a.s.SummaryPlan(a.ctx) }

// SummarizeLibrary starts summarising every document of the session, one
// job each (their progress goes out as the adds' does), and returns the
// job ids.
func (a *App) SummarizeLibrary() ([]string, error) { return a.s.SummarizeLibrary(a.ctx) }

// LLMs lists the LLM catalogue's models and whether each can be used now.
func (a *App) LLMs() ([]llm.ModelStatus, error) { return a.s.LLMs(a.ctx) }

// KeyStatus says, for each provider that takes a key, whether one is
// configured and where from. A key never leaves Go.
func (a *App) KeyStatus() ([]secrets.Status, error) { return a.s.KeyStatus() }

// SetKey stores a provider's key in the keyring.
func (a *App) SetKey(provider, key string) error { return a.s.SetKey(provider, key) }

// ClearKey removes a provider's key from the keyring.
func (a *App) ClearKey(provider string) error { return a.s.ClearKey(provider) }

// LocalEndpoint is the address of the local Ollama server, which Settings
// shows beside the switch that turns it on ("" when none is configured).
func (a *App) LocalEndpoint() (string, error) { return a.s.LocalEndpoint() }
