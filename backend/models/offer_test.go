package models

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestOffer: the offer lists the offered models not installed, with their
// download size for this CPU, and remembers the answer; a model installed
// leaves the offer, a damaged record counts as no answer.
func TestOffer(t *testing.T) {
	root := t.TempDir()
	mgr := &Manager{Downloader: Downloader{Root: root}}
	path := filepath.Join(t.TempDir(), "vika", "model-offer.json")
	o, err := mgr.Offer(path)
	if err != nil || o.Answer != "" || len(o.Models) != len(OfferModels) {
		t.Fatalf("fresh offer %+v, %v", o, err)
	}
	want := 0
	for i, name := range OfferModels {
		m, _ := Lookup(name)
		want += m.ApproxSizeMB
		if o.Models[i].Name != name || o.Models[i].SizeMB != m.ApproxSizeMB || o.Models[i].Variant != m.Variant {
			t.Errorf("offered %+v, want %s (%d MB, %s)", o.Models[i], name, m.ApproxSizeMB, m.Variant)
		}
	}
	if o.SizeMB != want || want < 100 {
		t.Errorf("size %d MB, want %d", o.SizeMB, want)
	}

	if err := SaveOfferAnswer(path, "maybe"); err == nil {
		t.Error("answer maybe accepted")
	}
	if err := SaveOfferAnswer(path, OfferDeclined); err != nil {
		t.Fatal(err)
	}
	if o, err := mgr.Offer(path); err != nil || o.Answer != OfferDeclined {
		t.Errorf("after declining: %+v, %v", o, err)
	}

	// One offered model installed (the tiny fixtures under its name): it
	// leaves the offer and its size no longer counts.
	tiny, files := tinyModel(t, false)
	name := OfferModels[0]
	entry, _ := Lookup(name)
	entry.Repo, entry.Revision, entry.Files = tiny.Repo, tiny.Revision, tiny.Files
	t.Cleanup(Replace(entry))
	srv := newServer(t, files)
	if err := (&Downloader{BaseURL: srv.URL, Root: root}).Download(context.Background(), entry); err != nil {
		t.Fatal(err)
	}
	o, _ = mgr.Offer(path)
	if len(o.Models) != len(OfferModels)-1 || o.Models[0].Name == name {
		t.Errorf("after installing %s: %+v", name, o.Models)
	}

	// The box's 12-layer cross-encoder installed (fixtures under its
	// name): the offered L-6 one, which would do the same job, leaves the
	// offer too.
	l12, _ := Lookup("ms-marco-MiniLM-L-12-v2")
	l12.BoxOnly, l12.Repo, l12.Revision, l12.Files = false, tiny.Repo, tiny.Revision, tiny.Files
	t.Cleanup(Replace(l12))
	if err := (&Downloader{BaseURL: srv.URL, Root: root}).Download(context.Background(), l12); err != nil {
		t.Fatal(err)
	}
	o, _ = mgr.Offer(path)
	for _, st := range o.Models {
		if st.Role == RoleReranker {
			t.Errorf("a cross-encoder is installed, yet %s is offered", st.Name)
		}
	}
	if len(o.Models) != len(OfferModels)-2 {
		t.Errorf("with %s and a cross-encoder installed: %+v", name, o.Models)
	}

	if err := os.WriteFile(path, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if o, err := mgr.Offer(path); err == nil || o.Answer != "" {
		t.Errorf("damaged record: %+v, %v", o, err)
	}
}
