package clip

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"runtime"
	"testing"

	"vika/backend/message"
)

type clipGolden struct {
	Dim   int   `json:"dim"`
	Small []int `json:"small"`
	Text  []struct {
		Text   string    `json:"text"`
		IDs    []int64   `json:"ids"`
		Vector []float64 `json:"vector"`
	} `json:"text"`
	Image []struct {
		File         string    `json:"file"`
		ChannelMeans []float64 `json:"channel_means"`
		SmallPixels  []float64 `json:"small_pixels"`
		Vector       []float64 `json:"vector"`
	} `json:"image"`
	Large struct {
		File    string `json:"file"`
		Size    int    `json:"size"`
		GrayB64 string `json:"gray_b64"`
	} `json:"large"`
}

func golden(t *testing.T) clipGolden {
	t.Helper()
	var g clipGolden
	readJSON(t, fixture("clip_golden.json"), &g)
	if len(g.Image) < 3 || len(g.Text) < 8 {
		t.Fatalf("golden has %d images, %d texts", len(g.Image), len(g.Text))
	}
	return g
}

func decodeFixture(t *testing.T, name string) image.Image {
	t.Helper()
	raw, err := os.ReadFile(fixture(name))
	if err != nil {
		t.Fatal(err)
	}
	img, err := Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// pixelTolerance is the largest difference allowed with PIL's pixels: the
// Go resampling copies PIL's fixed-point arithmetic, so the values agree
// to float32 rounding (the golden holds 6 decimals); one 8-bit level
// would be 1/255/std, about 0.015.
const pixelTolerance = 2e-5

// TestPixelsGolden: gray and RGB PNGs prepared at a small size (resize 24,
// crop 20) agree pixel by pixel with PIL's bicubic resize, crop and
// normalisation (testdata/clip/tiny_clip.py), and at CLIP's 224 the
// channel means agree.
func TestPixelsGolden(t *testing.T) {
	g := golden(t)
	small := DefaultPreprocess
	small.Size, small.Crop = g.Small[0], g.Small[1]
	for _, c := range g.Image {
		img := decodeFixture(t, c.File)
		got := small.Pixels(img, nil)
		if len(got) != len(c.SmallPixels) {
			t.Fatalf("%s: %d values, want %d", c.File, len(got), len(c.SmallPixels))
		}
		worst := 0.0
		for i, w := range c.SmallPixels {
			worst = max(worst, math.Abs(float64(got[i])-w))
		}
		if worst > pixelTolerance {
			t.Errorf("%s: largest difference with PIL %.6f (> %g)", c.File, worst, pixelTolerance)
		}
		full := DefaultPreprocess.Pixels(img, nil)
		n := 224 * 224
		for ch := range 3 {
			var sum float64
			for _, v := range full[ch*n : (ch+1)*n] {
				sum += float64(v)
			}
			if d := math.Abs(sum/float64(n) - c.ChannelMeans[ch]); d > 1e-4 {
				t.Errorf("%s: channel %d mean %.6f, PIL %.6f", c.File, ch, sum/float64(n), c.ChannelMeans[ch])
			}
		}
	}
}

// TestPixelsRealCropSize: a gray figure the size of a real crop (760 x
// 610, shrunk about 2.7 times) resized and cropped to 224 x 224 gives
// PIL's 8-bit pixels exactly, every one of them.
func TestPixelsRealCropSize(t *testing.T) {
	g := golden(t)
	want, err := base64.StdEncoding.DecodeString(g.Large.GrayB64)
	if err != nil || len(want) != g.Large.Size*g.Large.Size {
		t.Fatalf("golden: %d bytes, %v", len(want), err)
	}
	p := Preprocess{Size: g.Large.Size, Crop: g.Large.Size, Mean: [3]float32{0, 0, 0}, Std: [3]float32{1, 1, 1}}
	px := p.Pixels(decodeFixture(t, g.Large.File), nil)
	n := len(want)
	differ := 0
	for ch := range 3 {
		for i, w := range want {
			if got := uint8(math.Round(float64(px[ch*n+i]) * 255)); got != w {
				differ++
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d values differ from PIL's", differ, 3*n)
	}
}

// TestPixelsLayout: a non-gray image with an offset origin and alpha is
// read as RGB (alpha dropped), and a bad image is an error.
func TestPixelsLayout(t *testing.T) {
	img := image.NewNRGBA(image.Rect(5, 7, 45, 37))
	for y := 7; y < 37; y++ {
		for x := 5; x < 45; x++ {
			img.SetNRGBA(x, y, color.NRGBA{R: 255, G: 0, B: 51, A: 10})
		}
	}
	p := Preprocess{Size: 8, Crop: 8, Mean: [3]float32{0, 0, 0}, Std: [3]float32{1, 1, 1}}
	px := p.Pixels(img, nil)
	for i, want := range []float32{1, 0, 0.2} {
		for _, v := range px[i*64 : (i+1)*64] {
			if math.Abs(float64(v-want)) > 1e-6 {
				t.Fatalf("channel %d: %v, want %v", i, v, want)
			}
		}
	}
	if _, err := Decode([]byte("not an image")); err == nil {
		t.Error("Decode accepted garbage")
	}
}

func TestLoadPreprocess(t *testing.T) {
	p, err := LoadPreprocess(fixture("preprocessor_config.json"))
	if err != nil || p != DefaultPreprocess {
		t.Errorf("LoadPreprocess = %+v, %v; want %+v", p, err, DefaultPreprocess)
	}
	dir := t.TempDir()
	for name, raw := range map[string]string{
		"objects": `{"size": {"shortest_edge": 256}, "crop_size": {"height": 224, "width": 224}, "image_mean": [0.5,0.5,0.5], "image_std": [0.5,0.5,0.5]}`,
		"bad":     `{"size": 224, "crop_size": 300, "image_mean": [0.5,0.5,0.5], "image_std": [0.5,0.5,0.5]}`,
		"zero":    `{"size": 224, "crop_size": 224, "image_mean": [0.5,0.5,0.5], "image_std": [0.5,0,0.5]}`,
	} {
		path := dir + "/" + name + ".json"
		if err := os.WriteFile(path, []byte(raw), 0o600); err != nil {
			t.Fatal(err)
		}
		p, err := LoadPreprocess(path)
		switch name {
		case "objects":
			if err != nil || p.Size != 256 || p.Crop != 224 {
				t.Errorf("%s: %+v, %v", name, p, err)
			}
		default:
			if err == nil {
				t.Errorf("%s: accepted %+v", name, p)
			}
		}
	}
}

// pngHeader is a PNG declaring a w x h gray image whose data stops after
// a few bytes: its signature, its header chunk and a short data chunk.
func pngHeader(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 0, 0, 0, 0) // 8-bit gray, deflate, no filter, not interlaced
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(make([]byte, 64))
	zw.Close()
	out := []byte("\x89PNG\r\n\x1a\n")
	for _, c := range []struct {
		kind string
		data []byte
	}{{"IHDR", ihdr}, {"IDAT", z.Bytes()}} {
		out = binary.BigEndian.AppendUint32(out, uint32(len(c.data)))
		chunk := append([]byte(c.kind), c.data...)
		out = append(out, chunk...)
		out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(chunk))
	}
	return out
}

// TestDecodeRefusesHugeImages gives Decode 60 bytes declaring 60000 x
// 60000 pixels, and a strip too thin for CLIP: both are refused from their
// header, with the code and the size, before any pixel is allocated. On
// main the first went on to image.Decode, which allocates the whole
// image (3.6 GB, measured) before reading its data: the test fails (on the
// allocation, or on the error not being ErrTooLarge).
func TestDecodeRefusesHugeImages(t *testing.T) {
	for _, c := range []struct{ w, h uint32 }{{60000, 60000}, {2001, 2000}, {1, 101}, {5000, 20}} {
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Decode(pngHeader(c.w, c.h))
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%dx%d: %v, want ErrTooLarge", c.w, c.h, err)
			continue
		}
		if m := message.Of(err); m.Code != message.ImageTooLarge || m.Params["width"] != int(c.w) || m.Params["height"] != int(c.h) {
			t.Errorf("%dx%d: message %+v", c.w, c.h, m)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
			t.Errorf("%dx%d: %d bytes allocated to refuse it", c.w, c.h, grew)
		}
	}
	// Within the bounds, the header passes and the missing pixels fail
	// as they did: a decoding error, not ErrTooLarge.
	if _, err := Decode(pngHeader(2000, 2000)); err == nil || errors.Is(err, ErrTooLarge) {
		t.Errorf("2000x2000 header only: %v", err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 3, 300))); err != nil {
		t.Fatal(err)
	}
	if img, err := Decode(buf.Bytes()); err != nil || img.Bounds().Dy() != 300 {
		t.Errorf("3x300: %v", err)
	}
}
