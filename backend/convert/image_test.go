package convert

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/jpeg"
	"testing"
	"time"

	"vika/backend/imagehead"
	"vika/backend/message"
	"vika/backend/pdf"
	"vika/backend/sandbox"
)

// imageConverter converts with a real worker (MuPDF in a supervised
// process), its page budget short.
func imageConverter(t *testing.T) (*Converter, *sandbox.Opener) {
	t.Helper()
	o := sandbox.New(sandbox.Config{PageTimeout: 20 * time.Second})
	t.Cleanup(func() { o.Close() })
	return &Converter{Worker: o, Limits: pdf.Limits{MaxPages: 500}}, o
}

// pngOf is a black grey PNG of w x h pixels, its deflate stream written
// by hand (fixed Huffman codes: one zero, then copies of 258 bytes at
// distance 1), so that a picture of hundreds of millions of pixels costs
// a few MB and no encoding time.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	n := h * (w + 1) // a filter byte (0, none) before each row
	var z bits
	z.put(1, 1) // the last block
	z.put(1, 2) // fixed Huffman codes
	z.code(0x30, 8)
	left := n - 1
	for ; left >= 258; left -= 258 {
		z.code(0xc5, 8) // length 258 (symbol 285)
		z.code(0, 5)    // distance 1
	}
	for ; left > 0; left-- {
		z.code(0x30, 8)
	}
	z.code(0, 7) // end of block
	idat := append([]byte{0x78, 0x01}, z.bytes()...)
	idat = binary.BigEndian.AppendUint32(idat, uint32(n%65521)<<16|1) // Adler-32 of n zeros
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 8, 0, 0, 0, 0)
	for _, c := range []struct {
		typ  string
		data []byte
	}{{"IHDR", ihdr}, {"IDAT", idat}, {"IEND", nil}} {
		b.Write(binary.BigEndian.AppendUint32(nil, uint32(len(c.data))))
		body := append([]byte(c.typ), c.data...)
		b.Write(body)
		b.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(body)))
	}
	return b.Bytes()
}

// bits writes a deflate bit stream: values least significant bit first,
// Huffman codes most significant bit first.
type bits struct {
	out  []byte
	acc  uint32
	used uint
}

func (z *bits) put(v uint32, n uint) {
	z.acc |= v << z.used
	z.used += n
	for z.used >= 8 {
		z.out = append(z.out, byte(z.acc))
		z.acc >>= 8
		z.used -= 8
	}
}

func (z *bits) code(c uint32, n uint) {
	var r uint32
	for i := uint(0); i < n; i++ {
		r = r<<1 | (c>>i)&1
	}
	z.put(r, n)
}

func (z *bits) bytes() []byte {
	if z.used > 0 {
		return append(z.out, byte(z.acc))
	}
	return z.out
}

// tiffFrames is a TIFF whose n frames declare 10 x 10 pixels and hold
// none.
func tiffFrames(n int) []byte {
	le := binary.LittleEndian
	d := []byte("II*\x00\x08\x00\x00\x00")
	for i := 0; i < n; i++ {
		e := make([]byte, 2+2*12+4)
		le.PutUint16(e, 2)
		for k, tag := range []uint16{256, 257} {
			le.PutUint16(e[2+12*k:], tag)
			le.PutUint16(e[4+12*k:], 4)
			le.PutUint32(e[6+12*k:], 1)
			le.PutUint32(e[10+12*k:], 10)
		}
		if i < n-1 {
			le.PutUint32(e[26:], uint32(len(d)+len(e)))
		}
		d = append(d, e...)
	}
	return d
}

// Each hostile class of image is refused from its header with its own
// code, before any worker decodes it.
func TestHostileImagesRefused(t *testing.T) {
	c, _ := imageConverter(t)
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, image.NewGray(image.Rect(0, 0, 64, 64)), nil); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, file string
		data       []byte
		err        error
		code       string
	}{
		{"100k x 100k PNG of 33 bytes", "bomb.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x01\x86\xa0\x00\x01\x86\xa0\x08\x00\x00\x00\x00"), imagehead.ErrTooLarge, message.ImagePixels},
		{"TIFF of 5000 frames", "many.tiff", tiffFrames(5000), imagehead.ErrFrames, message.ImageFrames},
		{"JPEG cut before its frame header", "cut.jpg", jpg.Bytes()[:20], ErrUnreadable, message.Unreadable},
		{"HEIC photo", "IMG_0001.heic", []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic\x00\x00\x00\x00"), imagehead.ErrHEIC, message.ImageHEIC},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := c.ToPDF(context.Background(), tt.file, tt.data)
			if !errors.Is(err, tt.err) || message.Of(err).Code != tt.code {
				t.Fatalf("ToPDF error %v (code %q); want %v, %s", err, message.Of(err).Code, tt.err, tt.code)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("refused in %v: the header alone should tell", d)
			}
		})
	}
}

// What the header cannot tell is bounded in the worker: a PNG of 20,000
// x 20,000 pixels (400 million, a 1.2 GB RGB decode, within the
// header's side limit but past its pixels), a PNG declaring 100k x 100k
// with no data, a JPEG whose data is cut after its header, sent to the
// worker directly (no header check): each fails cleanly or converts, in
// bounded time, and the worker converts a good image afterwards.
func TestHostileImagesInWorker(t *testing.T) {
	c, o := imageConverter(t)
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, image.NewGray(image.Rect(0, 0, 800, 600)), nil); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, kind string
		data       []byte
	}{
		{"PNG of 20000 x 20000", "png", pngOf(t, 20000, 20000)},
		{"PNG header of 100k x 100k", "png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x01\x86\xa0\x00\x01\x86\xa0\x08\x00\x00\x00\x00")},
		{"JPEG cut after its header", "jpeg", jpg.Bytes()[:len(jpg.Bytes())/3]},
		{"TIFF of 5000 empty frames", "tiff", tiffFrames(5000)},
		{"TIFF whose strip is not the LZW it claims", "tiff", lzwGarbage()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			out, err := o.Convert(context.Background(), tt.data, tt.kind, pdf.MaxImageSide, c.Limits, 0)
			took := time.Since(start)
			t.Logf("%d bytes of PDF, error %v, in %v", len(out), err, took.Round(time.Millisecond))
			if err == nil && pdf.Check(out, c.Limits) != nil {
				t.Errorf("the worker's PDF does not check: %v", pdf.Check(out, c.Limits))
			}
			if err != nil && !errors.Is(err, pdf.ErrCorrupt) && !errors.Is(err, pdf.ErrTimeout) && !errors.Is(err, pdf.ErrTooLarge) && !errors.Is(err, pdf.ErrNoPages) {
				t.Errorf("error %v: want a corrupt, too large or timed-out file", err)
			}
			if took > 30*time.Second {
				t.Errorf("took %v", took)
			}
		})
	}
	res, err := c.ToPDF(context.Background(), "photo.jpg", jpg.Bytes())
	if err != nil || len(res.PDF) == 0 {
		t.Fatalf("a good JPEG after them: %v", err)
	}
}

// The worker's memory budget bounds a decode the header allowed: the
// 20,000 x 20,000 PNG (400 MB of grey) in a worker limited to 300 MB
// fails that file, with a clear error, not the caller.
func TestImageOverWorkerMemory(t *testing.T) {
	o := sandbox.New(sandbox.Config{PageTimeout: 20 * time.Second, MemoryBytes: 300 << 20})
	t.Cleanup(func() { o.Close() })
	start := time.Now()
	out, err := o.Convert(context.Background(), pngOf(t, 20000, 20000), "png", pdf.MaxImageSide, pdf.Limits{}, 0)
	t.Logf("error %v, in %v", err, time.Since(start).Round(time.Millisecond))
	if err == nil || !errors.Is(err, pdf.ErrCorrupt) {
		t.Fatalf("converted %d bytes, error %v: want the file refused as too large for the worker", len(out), err)
	}
}

// lzwGarbage is a one-frame TIFF whose frame says LZW and holds a
// photo's uncompressed bytes: a codec fed nonsense.
func lzwGarbage() []byte {
	img := image.NewGray(image.Rect(0, 0, 300, 200))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	d := multiTIFF([]*image.Gray{img})
	ifd := int(binary.LittleEndian.Uint32(d[4:]))
	for k := 0; k < int(binary.LittleEndian.Uint16(d[ifd:])); k++ {
		if e := d[ifd+2+12*k:]; binary.LittleEndian.Uint16(e) == 259 {
			binary.LittleEndian.PutUint16(e[8:], 5)
		}
	}
	return d
}
