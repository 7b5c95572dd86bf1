package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
)

// The bounds of a peer (a model server) beyond its timeouts: the bytes of a
// response the app reads, no redirects, and on this machine the owner of
// the listening socket (peerowner_linux.go).

// Limits of one provider response, read as it arrives.
const (
	// MaxResponseBytes is the most bytes of one successful response: an
	// answer is at most DefaultMaxAnswerBytes of text, and an SSE or
	// NDJSON chunk wraps each token in a few hundred bytes of JSON.
	MaxResponseBytes = 32 << 20
	// MaxLineBytes is the longest line (an SSE field, an NDJSON object).
	MaxLineBytes = 1 << 20
	// MaxEventBytes is the largest SSE event (its data: lines together).
	MaxEventBytes = 1 << 20
	// MaxErrorBodyBytes is how much of an error response is read; the
	// rest is dropped (the status says enough).
	MaxErrorBodyBytes = 64 << 10
)

var (
	// errTooLarge ends a response past one of the limits above.
	errTooLarge = errors.New("the response is larger than Vika accepts")
	// errRedirect refuses a redirect: a key header would follow it to
	// another host (Go strips Authorization, not x-goog-api-key).
	errRedirect = errors.New("the server answered with a redirect, which Vika does not follow")
)

// boundedTransport wraps every response body in a bodyLimit.
type boundedTransport struct{ next http.RoundTripper }

func (t boundedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := t.next.RoundTrip(r)
	if err != nil {
		return res, err
	}
	if res.StatusCode >= 400 {
		res.Body = readCloser{io.LimitReader(res.Body, MaxErrorBodyBytes), res.Body}
		return res, nil
	}
	sse := strings.HasPrefix(strings.ToLower(res.Header.Get("Content-Type")), "text/event-stream")
	res.Body = &bodyLimit{rc: res.Body, total: MaxResponseBytes, sse: sse}
	return res, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// bodyLimit fails a read past its total, a line longer than MaxLineBytes
// or (for SSE) an event longer than MaxEventBytes, counting as bytes
// arrive, so that neither the SDKs' scanners nor their event buffers grow
// past them.
type bodyLimit struct {
	rc    io.ReadCloser
	total int64
	sse   bool
	read  int64
	line  int  // bytes since the last '\n'
	event int  // bytes since the last empty line
	nl    bool // the last byte was '\n' (a second one ends an SSE event)
	err   error
}

func (b *bodyLimit) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.rc.Read(p)
	b.read += int64(n)
	for _, c := range p[:n] {
		switch {
		case c == '\r':
		case c == '\n':
			if b.nl {
				b.event = 0
			}
			b.nl, b.line = true, 0
		default:
			b.nl = false
			b.line++
			b.event++
		}
	}
	switch {
	case b.read > b.total:
		b.err = fmt.Errorf("%w: more than %d MB", errTooLarge, b.total>>20)
	case b.line > MaxLineBytes:
		b.err = fmt.Errorf("%w: a line of more than %d KB", errTooLarge, MaxLineBytes>>10)
	case b.sse && b.event > MaxEventBytes:
		b.err = fmt.Errorf("%w: an event of more than %d KB", errTooLarge, MaxEventBytes>>10)
	}
	if b.err != nil {
		return 0, b.err
	}
	return n, err
}

func (b *bodyLimit) Close() error { return b.rc.Close() }

// refuseRedirect is the providers' http.Client.CheckRedirect.
func refuseRedirect(r *http.Request, _ []*http.Request) error {
	return fmt.Errorf("%w (to %s)", errRedirect, r.URL.Host)
}

// peerError is transportError's reading of the bounds above, or nil.
func peerError(provider, model string, err error) *ProviderError {
	pe := &ProviderError{Provider: provider, Model: model, Kind: ErrBadResponse, cause: err}
	var oe *OwnerError
	switch {
	case errors.As(err, &oe):
		pe.Kind, pe.ProviderWide = ErrUnavailable, true
		pe.Message = oe.Error()
	case errors.Is(err, errTooLarge):
		var msg string
		for e := err; e != nil; e = errors.Unwrap(e) {
			msg = e.Error()
			if strings.HasPrefix(msg, errTooLarge.Error()) {
				break
			}
		}
		pe.Message = msg
	case errors.Is(err, errRedirect):
		pe.Message = errRedirect.Error()
	default:
		return nil
	}
	return pe
}

// ownerCheckedDial wraps dial: a connection to this machine is kept only
// when the listening socket belongs to this user or to the system
// (checkPeerOwner); others are closed with an *OwnerError.
func ownerCheckedDial(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if err := checkPeerOwner(c); err != nil {
			c.Close()
			return nil, err
		}
		return c, nil
	}
}

// OwnerError refuses a server on this machine run by another user: on a
// shared machine, it would read every question and passage and write the
// answers.
type OwnerError struct {
	Addr string
	UID  int // the listening socket's owner; -1 when it could not be found
}

func (e *OwnerError) Error() string {
	if e.UID < 0 {
		return fmt.Sprintf("could not tell which user runs the server at %s, so it is not used", e.Addr)
	}
	return fmt.Sprintf("the server at %s is run by another user (uid %d), so it is not used", e.Addr, e.UID)
}
