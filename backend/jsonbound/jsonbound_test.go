package jsonbound

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestCheckCounts(t *testing.T) {
	lim := Limits{MaxValues: 100, MaxContainers: 20, MaxArray: 10, MaxDepth: 4}
	cases := []struct {
		in  string
		bad bool
	}{
		{`{"a":[1,2,3],"b":"x,y]}[","c":{"d":true}}`, false},
		{`[` + strings.Repeat(`{},`, 10) + `{}]`, true}, // 11 elements
		{`[` + strings.Repeat(`1,`, 9) + `1]`, false},
		{`[[[[[1]]]]]`, true}, // depth 5
		{`"a string with \" and \\ and [ { , inside"`, false},
		{`{"pages":[` + strings.Repeat(`{"t":"`+strings.Repeat("x", 50)+`"},`, 9) + `{}]}`, false},
		{`{` + strings.Repeat(`"k":1,`, 60) + `"z":0}`, true}, // 122 values
		{`[` + strings.Repeat(`[[],{}],`, 7) + `[]]`, true},   // 23 containers in 8 elements
		{`[` + strings.Repeat(`[[],{}],`, 5) + `[]]`, false},
	}
	for _, c := range cases {
		err := Check([]byte(c.in), lim)
		if c.bad != errors.Is(err, ErrBounds) {
			t.Errorf("%.60s: %v, want bad=%v", c.in, err, c.bad)
		}
		if !c.bad {
			var v any
			if err := Unmarshal([]byte(c.in), &v, lim); err != nil {
				t.Errorf("%.60s: Unmarshal: %v", c.in, err)
			}
		}
	}
}

// TestCheckBoundsABomb: 14 MiB of empty objects (2.7 GB decoded whole) are
// refused by the array bound after reading a few hundred bytes' worth.
func TestCheckBoundsABomb(t *testing.T) {
	bomb := []byte(`{"pages":[` + strings.Repeat(`{},`, 5_000_000) + `{}]}`)
	err := Check(bomb, Limits{MaxValues: 1 << 20, MaxContainers: 1 << 20, MaxArray: 10_000, MaxDepth: 32})
	if !errors.Is(err, ErrBounds) {
		t.Fatalf("Check = %v", err)
	}
	t.Log(err)
}

func TestArray(t *testing.T) {
	var got []string
	err := Array([]byte(` [ {"q":1}, "two", [3] ] `), 3, 100, func(r json.RawMessage) error {
		got = append(got, string(r))
		return nil
	})
	if err != nil || strings.Join(got, "|") != `{"q":1}|"two"|[3]` {
		t.Fatalf("%q, %v", got, err)
	}
	if err := Array([]byte(`[1,2,3,4]`), 3, 100, func(json.RawMessage) error { return nil }); !errors.Is(err, ErrBounds) {
		t.Errorf("4 elements of 3: %v", err)
	}
	if err := Array([]byte(`["`+strings.Repeat("x", 200)+`"]`), 3, 100, func(json.RawMessage) error { return nil }); !errors.Is(err, ErrBounds) {
		t.Errorf("an element of 202 bytes of 100: %v", err)
	}
	if err := Array([]byte(`{"a":1}`), 3, 100, func(json.RawMessage) error { return nil }); err == nil {
		t.Error("an object read as an array")
	}
}
