package llm

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Timeouts bound the waits of a stream.
type Timeouts struct {
	Connect    time.Duration // TCP connect and TLS handshake
	FirstToken time.Duration // from the request to the first sign of life (a model may override it)
	Idle       time.Duration // longest time without text once the answer streams
	Total      time.Duration // the whole answer, fallbacks included
}

// DefaultTimeouts are used for the zero fields of Config.Timeouts. Total
// leaves a local model on a slow CPU time for its output-token cap.
var DefaultTimeouts = Timeouts{Connect: 10 * time.Second, FirstToken: 45 * time.Second, Idle: 60 * time.Second, Total: 10 * time.Minute}

// DefaultMaxAnswerBytes is the most text held for one answer when
// Config.MaxAnswerBytes is 0: far above what the output-token caps of the
// catalogue allow (8,192 tokens are about 40 KB), it stops a provider that
// ignores its cap.
const DefaultMaxAnswerBytes = 256 << 10

// DefaultThreshold is the complexity score from which a question counts as
// complex when VIKA_ROUTELLM_THRESHOLD is not set.
const DefaultThreshold = 0.3

// Config is the environment's say on the providers and the router.
type Config struct {
	Catalogue *Catalogue
	BaseURLs  map[string]string            // provider id -> base URL in effect
	Headers   map[string]map[string]string // provider id -> extra HTTP headers
	Threshold float64                      // VIKA_ROUTELLM_THRESHOLD
	Router    string                       // VIKA_ROUTELLM_ROUTER as given ("" for the heuristic)
	Timeouts  Timeouts
	// MaxAnswerBytes is the most text held for one answer (0:
	// DefaultMaxAnswerBytes); past it the answer stops with a notice.
	MaxAnswerBytes int
	// PreferLocal puts local (Ollama) models before cloud ones in
	// automatic routing; by default they come after, as the offline
	// fallback.
	PreferLocal bool
	// Local turns the local Ollama on from the start (Service.SetLocal
	// changes it): off by default, since whatever listens at its address
	// would receive every question and passage.
	Local bool
	// Sleep is how the runner waits before asking a model again (Retry);
	// nil means Sleep. Tests record the waits instead of sleeping them.
	Sleep func(ctx context.Context, d time.Duration) error
}

// ConfigFromEnv reads VIKA_<PROVIDER>_BASE_URL (each provider's
// base_url_env), OPENROUTER_HTTP_REFERER and OPENROUTER_APP_TITLE (its
// header_env), VIKA_ROUTELLM_THRESHOLD and VIKA_ROUTELLM_ROUTER. A base URL
// must be http(s); plain http is refused for a provider that is sent an API
// key unless the host is this machine (the key would cross the network in
// clear).
func ConfigFromEnv(cat *Catalogue, getenv func(string) string) (Config, error) {
	cfg := Config{Catalogue: cat, BaseURLs: map[string]string{}, Headers: map[string]map[string]string{},
		Threshold: DefaultThreshold, Timeouts: DefaultTimeouts}
	for _, p := range cat.Providers {
		base := p.BaseURL
		if p.BaseURLEnv != "" {
			if v := strings.TrimSpace(getenv(p.BaseURLEnv)); v != "" {
				if err := checkBaseURL(v, p.NeedsKey); err != nil {
					return cfg, fmt.Errorf("%s: %w", p.BaseURLEnv, err)
				}
				base = v
			}
		}
		cfg.BaseURLs[p.ID] = base
		for header, env := range p.HeaderEnv {
			if v := strings.TrimSpace(getenv(env)); v != "" {
				if strings.ContainsAny(v, "\r\n") {
					return cfg, fmt.Errorf("%s: a header value cannot span lines", env)
				}
				if cfg.Headers[p.ID] == nil {
					cfg.Headers[p.ID] = map[string]string{}
				}
				cfg.Headers[p.ID][header] = v
			}
		}
	}
	if v := strings.TrimSpace(getenv("VIKA_ROUTELLM_THRESHOLD")); v != "" {
		t, err := strconv.ParseFloat(v, 64)
		if err != nil || t < 0 || t > 1 {
			return cfg, fmt.Errorf("VIKA_ROUTELLM_THRESHOLD: %q is not a number between 0 and 1", v)
		}
		cfg.Threshold = t
	}
	cfg.Router = strings.ToLower(strings.TrimSpace(getenv("VIKA_ROUTELLM_ROUTER")))
	return cfg, nil
}

func checkBaseURL(raw string, sendsKey bool) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("%q is not an http(s) URL", raw)
	}
	if u.User != nil {
		return fmt.Errorf("%q: put no credentials in the URL", u.Redacted())
	}
	if u.Scheme == "http" && sendsKey && !isLoopback(u.Hostname()) {
		return fmt.Errorf("%q: plain http would send the API key in clear; use https", raw)
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// withDefaults fills the zero timeouts.
func (t Timeouts) withDefaults() Timeouts {
	if t.Connect <= 0 {
		t.Connect = DefaultTimeouts.Connect
	}
	if t.FirstToken <= 0 {
		t.FirstToken = DefaultTimeouts.FirstToken
	}
	if t.Idle <= 0 {
		t.Idle = DefaultTimeouts.Idle
	}
	if t.Total <= 0 {
		t.Total = DefaultTimeouts.Total
	}
	return t
}

// NewHTTPClient returns the client the providers share: a connect (and TLS
// handshake) timeout, no overall timeout (answers stream for minutes; the
// runner watches the first token and the silences), response bodies read
// within MaxResponseBytes, MaxLineBytes and MaxEventBytes (error bodies
// within MaxErrorBodyBytes), no redirects, and a server on this machine
// used only when this user or the system runs it (see peer.go).
func NewHTTPClient(connect time.Duration) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = ownerCheckedDial((&net.Dialer{Timeout: connect, KeepAlive: 30 * time.Second}).DialContext)
	tr.TLSHandshakeTimeout = connect
	return &http.Client{Transport: boundedTransport{tr}, CheckRedirect: refuseRedirect}
}
