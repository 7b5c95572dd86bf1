package onnx

import (
	"testing"

	"vika/backend/config"
)

func TestEnvPositive(t *testing.T) {
	for _, tt := range []struct {
		val     string
		want    int
		wantErr bool
	}{{"", 32, false}, {"8", 8, false}, {"0", 0, true}, {"-3", 0, true}, {"abc", 0, true}} {
		t.Setenv(config.EmbedBatchSize.Name, tt.val)
		got, err := envPositive(config.EmbedBatchSize, 32)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("%q: got %d, %v", tt.val, got, err)
		}
	}
}
