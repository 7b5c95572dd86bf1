package llm

import (
	"strings"
	"sync"
	"time"
)

// Unavailable is the session's set of models (or whole providers) that
// failed with a rate limit, an exhausted quota, a rejected key or an outage:
// routing skips them until the session ends, or until the provider's
// Retry-After when it gave one for a rate limit. It is safe for concurrent
// use.
type Unavailable struct {
	now func() time.Time

	mu    sync.Mutex
	marks map[string]mark // guarded by mu; key: "provider/id", or "provider/" for the whole provider
}

type mark struct {
	kind   string // KindOf the error
	reason string
	until  time.Time // zero: for the session
}

// NewUnavailable returns an empty set; now is the clock (nil for time.Now).
func NewUnavailable(now func() time.Time) *Unavailable {
	if now == nil {
		now = time.Now
	}
	return &Unavailable{now: now, marks: map[string]mark{}}
}

// MarkError records that m failed with err: the whole provider for a
// provider-wide failure, until the Retry-After of a rate limit when there
// is one, for the session otherwise.
func (u *Unavailable) MarkError(m Model, err error) {
	reason := KindOf(err)
	key := m.Key()
	var until time.Time
	if pe, ok := asProviderError(err); ok {
		reason = pe.Reason()
		if pe.ProviderWide {
			key = m.Provider + "/"
		}
		if pe.Kind == ErrRateLimited && pe.RetryAfter > 0 {
			until = u.now().Add(pe.RetryAfter)
		}
	}
	if until.IsZero() {
		reason += " this session"
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.marks[key] = mark{kind: KindOf(err), reason: reason, until: until}
}

// Why returns why m is unavailable, or "" when it is available.
func (u *Unavailable) Why(m Model) string {
	_, reason, _ := u.Status(m)
	return reason
}

// Status returns the kind of the error that made m unavailable (KindOf),
// why in English, and when the mark ends (zero: for the session); "", ""
// when it is available.
func (u *Unavailable) Status(m Model) (kind, reason string, until time.Time) {
	u.mu.Lock()
	defer u.mu.Unlock()
	now := u.now()
	for _, key := range []string{m.Provider + "/", m.Key()} {
		mk, ok := u.marks[key]
		if !ok {
			continue
		}
		if !mk.until.IsZero() && !now.Before(mk.until) {
			delete(u.marks, key)
			continue
		}
		return mk.kind, mk.reason, mk.until
	}
	return "", "", time.Time{}
}

// ClearProvider forgets the marks of a provider and its models (after its
// key changed, say).
func (u *Unavailable) ClearProvider(provider string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for key := range u.marks {
		if p, _, _ := strings.Cut(key, "/"); p == provider {
			delete(u.marks, key)
		}
	}
}

// Reset forgets every mark.
func (u *Unavailable) Reset() {
	u.mu.Lock()
	defer u.mu.Unlock()
	clear(u.marks)
}
