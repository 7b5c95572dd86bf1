package onnx

import (
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// Runner holds an ONNX Runtime session shared by concurrent calls (the
// embedders' Embed, the cross-encoder's Rerank): Close destroys it once the
// calls in flight end, and later calls see it closed.
type Runner struct {
	mu   sync.RWMutex
	sess *ort.DynamicAdvancedSession // guarded by mu; nil once closed
}

// NewRunner wraps an open ONNX Runtime session.
func NewRunner(s *ort.DynamicAdvancedSession) *Runner { return &Runner{sess: s} }

// Acquire holds the session open for one call and returns it with the
// function that releases it; ok is false (and nothing is held) once the
// session is closed.
func (s *Runner) Acquire() (sess *ort.DynamicAdvancedSession, release func(), ok bool) {
	s.mu.RLock()
	if s.sess == nil {
		s.mu.RUnlock()
		return nil, nil, false
	}
	return s.sess, s.mu.RUnlock, true
}

// Close destroys the session, waiting for the calls in flight; closing
// twice is harmless.
func (s *Runner) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess == nil {
		return nil
	}
	err := s.sess.Destroy()
	s.sess = nil
	return err
}
