package corpus

import "testing"

func TestScopeKeeps(t *testing.T) {
	cases := []struct {
		s         Scope
		doc       string
		page      int
		want, all bool
	}{
		{Scope{}, "a", 3, true, true},
		{Scope{Docs: []string{"a"}}, "a", 3, true, false},
		{Scope{Docs: []string{"a"}}, "b", 3, false, false},
		{Scope{From: 10, To: 20}, "b", 10, true, false},
		{Scope{From: 10, To: 20}, "b", 21, false, false},
		{Scope{From: 10}, "b", 400, true, false},
		{Scope{To: 5}, "b", 0, false, false},
		{Scope{Docs: []string{"a", "b"}, From: 2, To: 2}, "b", 2, true, false},
	}
	for _, c := range cases {
		if got := c.s.Keeps(c.doc, c.page); got != c.want {
			t.Errorf("%+v.Keeps(%s, %d) = %v", c.s, c.doc, c.page, got)
		}
		if c.s.All() != c.all {
			t.Errorf("%+v.All() = %v", c.s, c.s.All())
		}
	}
}

func TestParsePages(t *testing.T) {
	good := map[string][2]int{"": {0, 0}, "10-20": {10, 20}, " 7 ": {7, 7}, "10-": {10, 0}, "-20": {0, 20}}
	for in, want := range good {
		from, to, err := ParsePages(in)
		if err != nil || from != want[0] || to != want[1] {
			t.Errorf("ParsePages(%q) = %d, %d, %v; want %v", in, from, to, err, want)
		}
	}
	for _, in := range []string{"20-10", "a-b", "0", "-", "3.5", "-4-5"} {
		if _, _, err := ParsePages(in); err == nil {
			t.Errorf("ParsePages(%q) accepted", in)
		}
	}
}
