package course

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// mimeInfo is the part of packaging/vika-mime.xml (shared-mime-info) that
// must agree with the files Save writes.
type mimeInfo struct {
	Types []struct {
		Type  string `xml:"type,attr"`
		Globs []struct {
			Pattern string `xml:"pattern,attr"`
		} `xml:"glob"`
		Magic struct {
			Match struct {
				Type   string `xml:"type,attr"`
				Offset string `xml:"offset,attr"`
				Value  string `xml:"value,attr"`
				Match  struct {
					Type   string `xml:"type,attr"`
					Offset string `xml:"offset,attr"`
					Value  string `xml:"value,attr"`
				} `xml:"match"`
			} `xml:"match"`
		} `xml:"magic"`
	} `xml:"mime-type"`
}

// TestMimeMagic: the desktop's file type for course files (glob and magic
// in packaging/vika-mime.xml) matches what Save writes: the SQLite header,
// and the application id at offset 68.
func TestMimeMagic(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "packaging", "vika-mime.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var info mimeInfo
	if err := xml.Unmarshal(raw, &info); err != nil {
		t.Fatal(err)
	}
	if len(info.Types) != 1 || info.Types[0].Type != "application/x-vika-course" {
		t.Fatalf("mime types %+v, want one application/x-vika-course", info.Types)
	}
	mt := info.Types[0]
	if len(mt.Globs) != 1 || mt.Globs[0].Pattern != "*"+Ext {
		t.Errorf("globs %+v, want *%s", mt.Globs, Ext)
	}
	outer, inner := mt.Magic.Match, mt.Magic.Match.Match
	if outer.Type != "string" || outer.Offset != "0" || outer.Value != `SQLite format 3\0` {
		t.Errorf("outer magic %+v, want the SQLite header at 0", outer)
	}
	id, err := strconv.ParseUint(inner.Value, 0, 32)
	if inner.Type != "big32" || inner.Offset != "68" || err != nil || id != ApplicationID {
		t.Errorf("inner magic %+v (%v), want big32 at 68 = %#x", inner, err, ApplicationID)
	}

	path := filepath.Join(t.TempDir(), "stats"+Ext)
	if err := Save(t.Context(), path, sample()); err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 72)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Read(head); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(head[:16], []byte("SQLite format 3\x00")) {
		t.Errorf("header %q", head[:16])
	}
	if got := binary.BigEndian.Uint32(head[68:72]); got != ApplicationID {
		t.Errorf("application id %#x, want %#x", got, ApplicationID)
	}
}
