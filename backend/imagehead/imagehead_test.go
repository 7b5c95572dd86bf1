package imagehead

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"

	"vika/backend/message"
)

func encoded(t *testing.T, format string, w, h int) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
	}
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&b, img)
	case "jpeg":
		err = jpeg.Encode(&b, img, nil)
	case "gif":
		p := image.NewPaletted(img.Rect, []color.Color{color.White, color.Black})
		err = gif.Encode(&b, p, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// tiffChain builds a little-endian TIFF of frames IFDs of w x h, each
// pointing to the next; loop makes the last point back to the first.
func tiffChain(frames, w, h int, loop bool) []byte {
	le := binary.LittleEndian
	d := []byte("II*\x00\x08\x00\x00\x00")
	const ifd = 2 + 2*12 + 4
	for i := 0; i < frames; i++ {
		e := make([]byte, ifd)
		le.PutUint16(e, 2)
		le.PutUint16(e[2:], 256)
		le.PutUint16(e[4:], 4)
		le.PutUint32(e[6:], 1)
		le.PutUint32(e[10:], uint32(w))
		le.PutUint16(e[14:], 257)
		le.PutUint16(e[16:], 4)
		le.PutUint32(e[18:], 1)
		le.PutUint32(e[22:], uint32(h))
		next := uint32(len(d) + ifd)
		switch {
		case i == frames-1 && loop:
			next = 8
		case i == frames-1:
			next = 0
		}
		le.PutUint32(e[26:], next)
		d = append(d, e...)
	}
	return d
}

func TestRead(t *testing.T) {
	hugePNG := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x01\x86\xa0\x00\x01\x86\xa0\x08\x00\x00\x00\x00")
	bmp := make([]byte, 54)
	copy(bmp, "BM")
	binary.LittleEndian.PutUint32(bmp[14:], 40)
	binary.LittleEndian.PutUint32(bmp[18:], 640)
	binary.LittleEndian.PutUint32(bmp[22:], uint32(0x100000000-480)) // top-down: -480
	vp8x := []byte("RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x00\x00\x00\x00\x7f\x0c\x00\xdf\x04\x00")
	j2k := make([]byte, 40)
	binary.BigEndian.PutUint32(j2k, 0xff4fff51)
	binary.BigEndian.PutUint32(j2k[8:], 2000)
	binary.BigEndian.PutUint32(j2k[12:], 3000)
	heic := []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")
	jpegCut := encoded(t, "jpeg", 300, 200)[:20] // before its frame header
	tests := []struct {
		name   string
		data   []byte
		want   Header
		err    error
		code   string
		format string
	}{
		{name: "png", data: encoded(t, "png", 300, 200), want: Header{Format: "png", Width: 300, Height: 200, Frames: 1}},
		{name: "jpeg", data: encoded(t, "jpeg", 300, 200), want: Header{Format: "jpeg", Width: 300, Height: 200, Frames: 1}},
		{name: "gif", data: encoded(t, "gif", 30, 20), want: Header{Format: "gif", Width: 30, Height: 20, Frames: 1}},
		{name: "bmp top-down", data: bmp, want: Header{Format: "bmp", Width: 640, Height: 480, Frames: 1}},
		{name: "webp VP8X", data: vp8x, want: Header{Format: "webp", Width: 3200, Height: 1248, Frames: 1}},
		{name: "j2k", data: j2k, want: Header{Format: "jp2", Width: 2000, Height: 3000, Frames: 1}},
		{name: "pnm", data: []byte("P5\n# made\n640 480\n255\n"), want: Header{Format: "pnm", Width: 640, Height: 480, Frames: 1}},
		{name: "tiff 3 frames", data: tiffChain(3, 2480, 3508, false), want: Header{Format: "tiff", Width: 2480, Height: 3508, Frames: 3}},
		{name: "100k x 100k png of 33 bytes", data: hugePNG, err: ErrTooLarge, code: message.ImagePixels},
		{name: "tiff of 5000 frames", data: tiffChain(5000, 10, 10, false), err: ErrFrames, code: message.ImageFrames},
		{name: "tiff frames looping", data: tiffChain(3, 10, 10, true), err: ErrDamaged, code: message.Unreadable, format: "tiff"},
		{name: "tiff IFD past the end", data: []byte("II*\x00\xff\xff\x00\x00"), err: ErrDamaged, code: message.Unreadable, format: "tiff"},
		{name: "truncated jpeg", data: jpegCut, err: ErrDamaged, code: message.Unreadable, format: "jpeg"},
		{name: "png cut in IHDR", data: hugePNG[:20], err: ErrDamaged, code: message.Unreadable, format: "png"},
		{name: "png of 0 x 5", data: append(append([]byte{}, hugePNG[:16]...), 0, 0, 0, 0, 0, 0, 0, 5), err: ErrDamaged, code: message.Unreadable},
		{name: "heic", data: heic, err: ErrHEIC, code: message.ImageHEIC},
		{name: "pdf", data: []byte("%PDF-1.7\n"), err: ErrUnknown},
		{name: "side over 32767", data: tiffChain(1, 40000, 10, false), err: ErrTooLarge, code: message.ImagePixels},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := Check(tt.data)
			if tt.err == nil {
				if err != nil || h != tt.want {
					t.Fatalf("Check = %+v, %v; want %+v", h, err, tt.want)
				}
				return
			}
			if !errors.Is(err, tt.err) {
				t.Fatalf("Check error = %v; want %v", err, tt.err)
			}
			m := message.Of(err)
			if tt.code != "" && m.Code != tt.code {
				t.Fatalf("code = %+v; want %s", m, tt.code)
			}
			if tt.format != "" && m.Params["format"] != tt.format {
				t.Errorf("format = %v; want %s", m.Params["format"], tt.format)
			}
		})
	}
}

// Every prefix of a real file, and each of its bytes flipped, is read or
// refused without a panic, and never reported larger than the limits
// allow by Check.
func TestReadDamaged(t *testing.T) {
	for _, f := range []string{"png", "jpeg", "gif"} {
		data := encoded(t, f, 64, 48)
		for n := range data {
			Check(data[:n])
			d := bytes.Clone(data)
			d[n] ^= 0xff
			if h, err := Check(d); err == nil && int64(h.Width)*int64(h.Height) > MaxPixels {
				t.Fatalf("%s with byte %d flipped: %+v passed", f, n, h)
			}
		}
	}
}

func FuzzCheck(f *testing.F) {
	f.Add(tiffChain(2, 10, 10, false))
	f.Add([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x01\x86\xa0\x00\x01\x86\xa0"))
	f.Add([]byte("GIF89a\x10\x00\x10\x00\x00\x00\x00,\x00\x00\x00\x00\xff\xff\xff\xff\x00\x02"))
	f.Add([]byte("\x00\x00\x00\x0cjP  \r\n\x87\n\x00\x00\x00\x16jp2h\x00\x00\x00\x16ihdr"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := Check(data)
		if err == nil && (h.Width < 1 || h.Height < 1 || int64(h.Width)*int64(h.Height) > MaxPixels || h.Frames > MaxFrames) {
			t.Fatalf("Check passed %+v", h)
		}
	})
}
