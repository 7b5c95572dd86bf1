package models

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"vika/backend/config"
)

// TestConfigShowsTheEmbeddingDefaults: the defaults that backend/config
// declares for the embedding variables (and docs/configuration.md shows,
// checked by config's TestConfigurationTable) name the models EmbedderIn
// picks with the variable unset: the preferred models, in order, then the
// fallback. Before this test the table said use-lite and
// paraphrase-multilingual-MiniLM-L12-v2 while the code picked
// bge-small-en-v1.5 and multilingual-e5-small first.
func TestConfigShowsTheEmbeddingDefaults(t *testing.T) {
	for _, tc := range []struct {
		v        config.Var
		env      string
		picks    []string // in the order the code tries them
		fallback string
	}{
		{config.EmbedModelEN, EnvModelEN, PreferredEN, DefaultEN},
		{config.EmbedModelMult, EnvModelMulti, PreferredMulti, DefaultMulti},
	} {
		if tc.v.Name != tc.env {
			t.Errorf("config declares %s where models reads %s", tc.v.Name, tc.env)
		}
		names := append(append([]string{}, tc.picks...), tc.fallback)
		at := -1
		for _, n := range names {
			i := wordIndex(tc.v.Default, n)
			if i < 0 {
				t.Errorf("%s: default %q does not name %s, which the code picks", tc.v.Name, tc.v.Default, n)
				continue
			}
			if i < at && n != tc.fallback {
				t.Errorf("%s: default %q names %s out of the order the code tries (%v)", tc.v.Name, tc.v.Default, n, names)
			}
			at = max(at, i)
		}
		for _, m := range Registry() {
			if m.Role == RoleEmbedder && wordIndex(tc.v.Default, m.Name) >= 0 && !containsName(names, m.Name) {
				t.Errorf("%s: default %q names %s, which the code never picks by default", tc.v.Name, tc.v.Default, m.Name)
			}
		}
	}
}

// wordIndex is the index of name in s as a whole word, -1 when absent.
func wordIndex(s, name string) int {
	loc := regexp.MustCompile(fmt.Sprintf(`(^|[^\w-])%s($|[^\w-])`, regexp.QuoteMeta(name))).FindStringIndex(s)
	if loc == nil {
		return -1
	}
	return loc[0]
}

func containsName(names []string, n string) bool {
	for _, x := range names {
		if strings.EqualFold(x, n) {
			return true
		}
	}
	return false
}
