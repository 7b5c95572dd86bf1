package session

import (
	"errors"
	"testing"

	"vika/backend/rag"
)

func TestDescribeSettingsValidate(t *testing.T) {
	ok := DefaultSettings()
	if ok.Describe || ok.DescribeMax != DefaultDescribeMax || ok.Validate() != nil {
		t.Fatalf("defaults: %+v, %v", ok, ok.Validate())
	}
	on := ok
	on.Describe, on.DescribeModel, on.DescribeTables = true, "gemini/gemini-2.5-flash", true
	if err := on.Validate(); err != nil {
		t.Errorf("a described setup is refused: %v", err)
	}
	for name, s := range map[string]Settings{
		"on without a model":       func() Settings { s := ok; s.Describe = true; return s }(),
		"a model without provider": func() Settings { s := on; s.DescribeModel = "gemini-2.5-flash"; return s }(),
		"negative cap":             func() Settings { s := on; s.DescribeMax = -1; return s }(),
		"cap too high":             func() Settings { s := on; s.DescribeMax = MaxDescribe + 1; return s }(),
	} {
		if err := s.Validate(); !errors.Is(err, rag.ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
