package ocr

import (
	"bytes"
	"runtime"
	"testing"
)

func TestEncodePGM(t *testing.T) {
	pix := []byte{0, 1, 2, 3, 4, 5}
	got := encodePGM(pix, 3, 2)
	if want := append([]byte("P5\n3 2\n255\n"), pix...); !bytes.Equal(got, want) {
		t.Errorf("encodePGM = %q, want %q", got, want)
	}
}

// TestPGMRecognized runs the real Tesseract on the PGM encoding Windows
// uses (Leptonica reads PNM without any image library): the same words as
// from TIFF.
func TestPGMRecognized(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	singleThreadOpenMP()
	cfg := Config{Workers: 1}.withDefaults()
	dir, err := resolveTessdata(cfg, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.TessdataDir = dir
	c, err := newClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	pix, w, h := gray(sample(t))
	res, err := c.recognize(encodePGM(pix, w, h), false, DefaultDPI)
	if err != nil {
		t.Fatal(err)
	}
	wantWords(t, res.Text, "Vika", "recognises", "scanned", "biodiversité", "échantillons")
}
