package llm

import (
	"context"
	"slices"
)

// probeRequest is the one-token request a describe run sends first: the
// cheapest question a model can refuse (no key, no quota, no such model).
var probeRequest = Request{Messages: []Message{{Role: RoleUser, Content: "Reply with OK."}}, MaxTokens: 1}

// ProbeVision returns the model a describe run should use when the
// student chose key: a Gemini model is first asked a one-token request,
// and when it refuses (a rate limit, an exhausted quota, an unknown model,
// an outage: the failures that fall back, once the describe jobs' retries
// (DescribeRetry) are spent), the next Gemini vision model of
// the catalogue is probed (those listed after key, then those before), so
// that figures still go to Google only, the provider the student chose.
// A refused model is marked down for the session, as an answer would
// mark it. Any other provider's model is returned as it is, unprobed;
// so is key when no Gemini model accepts (the run then fails on it with
// its own error). The error is only ctx's.
//
// The outcome is remembered for the service's life while the model it
// gave stays available, so a course of PDFs costs one probe, not one
// each; describe runs that start together wait for that one.
func (s *Service) ProbeVision(ctx context.Context, key string) (string, error) {
	m, ok := s.Model(ctx, key)
	if !ok || m.Provider != "gemini" {
		return key, nil
	}
	s.probeMu.Lock()
	defer s.probeMu.Unlock()
	if got, ok := s.probed[key]; ok {
		if st, ok := s.Model(ctx, got); ok && st.Available {
			return got, nil
		}
	}
	got, err := s.probe(ctx, key, m.Model)
	if err == nil {
		if s.probed == nil {
			s.probed = map[string]string{}
		}
		s.probed[key] = got
	}
	return got, err
}

// probe asks m, then the other Gemini vision models, the one-token
// request, and returns the first that answers (key when none does).
func (s *Service) probe(ctx context.Context, key string, m Model) (string, error) {
	for _, c := range s.geminiVisionAfter(ctx, m) {
		// AskWith: the describe jobs' own retries (a per-minute 429 or a
		// 5xx is asked again after a wait), so that one passing refusal
		// does not mark the student's model down for the session.
		_, err := s.AskWith(ctx, c.Key(), probeRequest, Sink{Delta: func(Delta) error { return nil }})
		switch {
		case ctx.Err() != nil:
			return key, ctx.Err()
		case err == nil:
			return c.Key(), nil
		}
	}
	return key, nil
}

// geminiVisionAfter is m, then the other available Gemini vision models
// of the catalogue: those listed after m, then those before it.
func (s *Service) geminiVisionAfter(ctx context.Context, m Model) []Model {
	var after, before []Model
	seen := false
	for _, st := range s.Models(ctx) {
		switch {
		case st.Key() == m.Key():
			seen = true
		case st.Provider == m.Provider && st.Vision && st.Available:
			if seen {
				after = append(after, st.Model)
			} else {
				before = append(before, st.Model)
			}
		}
	}
	return slices.Concat([]Model{m}, after, before)
}
