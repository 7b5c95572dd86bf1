package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updateCatalogue = flag.Bool("update-catalogue", false, "rewrite frontend/src/lib/api/catalogue.json")

// TestCatalogueFileIsCurrent keeps the page's copy of the catalogue equal
// to Go's values: the page has no defaults, limits or names of its own.
func TestCatalogueFileIsCurrent(t *testing.T) {
	c, err := buildCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Providers) < 4 || c.MaxK < c.Defaults.K || c.FlushMS <= 0 {
		t.Fatalf("implausible catalogue: %+v", c)
	}
	want, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	path := filepath.Join("frontend", "src", "lib", "api", "catalogue.json")
	if *updateCatalogue {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run go test -tags webkit2_41 -run TestCatalogueFileIsCurrent . -update-catalogue", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s is stale: run go test -tags webkit2_41 -run TestCatalogueFileIsCurrent . -update-catalogue", path)
	}
}
