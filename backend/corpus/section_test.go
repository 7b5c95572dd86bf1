package corpus

import (
	"reflect"
	"testing"

	"vika/backend/message"
)

func TestScopeResolveSection(t *testing.T) {
	outline := []OutlineEntry{{Title: "1 Introduction", Page: 1}, {Title: "2 Methods", Page: 3}, {Title: "2.1 Data", Page: 4, Depth: 1},
		{Title: "3 Results", Page: 7}, {Title: "Nowhere", Page: 0}}
	a := Document{ID: "a", Label: "a.pdf", Pages: 10, Outline: outline}
	b := Document{ID: "b", Label: "b.pdf", Pages: 5, Outline: []OutlineEntry{{Title: "Introduction", Page: 1}, {Title: "2 methods", Page: 2}}}
	docs := []Document{a, b}
	for _, c := range []struct {
		in   Scope
		want Scope
		code string
	}{
		{in: Scope{Docs: []string{"b"}, From: 2}, want: Scope{Docs: []string{"b"}, From: 2}},                        // no section: as it is
		{in: Scope{Section: "3  RESULTS"}, want: Scope{Docs: []string{"a"}, From: 7, To: 10, Section: "3 Results"}}, // the last runs to the end
		{in: Scope{Section: "2 Methods", Docs: []string{"a"}}, want: Scope{Docs: []string{"a"}, From: 3, To: 6, Section: "2 Methods"}},
		{in: Scope{Section: "2.1 Data"}, want: Scope{Docs: []string{"a"}, From: 4, To: 6, Section: "2.1 Data"}}, // a subsection ends with its parent
		{in: Scope{Section: "2 Methods", From: 5, To: 9}, code: message.ScopeSectionAmbiguous},
		{in: Scope{Section: "2 Methods", Docs: []string{"a"}, From: 5, To: 9}, want: Scope{Docs: []string{"a"}, From: 5, To: 6, Section: "2 Methods"}},
		{in: Scope{Section: "2 Methods", Docs: []string{"a"}, From: 8}, code: message.ScopeSectionOutside},
		{in: Scope{Section: "Nowhere"}, code: message.ScopeUnknownSection}, // an entry without a page
		{in: Scope{Section: "Conclusion"}, code: message.ScopeUnknownSection},
		{in: Scope{Section: "3 Results", Docs: []string{"b"}}, code: message.ScopeUnknownSection}, // not among the ticked
	} {
		got, err := c.in.Resolve(docs)
		if message.Of(err).Code != c.code && !(c.code == "" && err == nil) {
			t.Errorf("%+v: error %v, want code %q", c.in, err, c.code)
			continue
		}
		if c.code == "" && !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: %+v, want %+v", c.in, got, c.want)
		}
		if c.code == "" && got.Section != "" {
			again, err := got.Resolve(docs)
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Errorf("%+v resolved twice: %+v, %v", c.in, again, err)
			}
		}
	}
}
