package index

import "testing"

func TestTerms(t *testing.T) {
	got := Terms("en", "The top-5 errors of ResNet-152 on the ImageNet validation set")
	for _, w := range []string{"top", "5", "error", "resnet", "152", "imagenet", "valid"} {
		if !got[w] {
			t.Errorf("%q missing from %v", w, got)
		}
	}
	for _, w := range []string{"the", "of", "on"} {
		if got[w] {
			t.Errorf("stop word %q kept: %v", w, got)
		}
	}
	fr := Terms("fr", "Les tableaux de la thèse")
	if fr["les"] || fr["de"] || len(fr) == 0 {
		t.Errorf("French terms %v", fr)
	}
	if basic := Terms("ru", "Таблица 2"); !basic["таблица"] || !basic["2"] {
		t.Errorf("basic terms %v", basic)
	}
}
