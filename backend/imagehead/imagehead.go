// Package imagehead reads an image file's format, size and frame count
// from its header, without decoding a pixel, so that an image is refused
// before a decoder is asked for its memory: a PNG of a few bytes may
// declare 100,000 x 100,000 pixels (40 GB of RGBA), a TIFF may chain
// thousands of frames or loop its frame list.
//
// Read knows PNG, JPEG, TIFF (every frame, at most MaxFrames, loops
// detected), GIF, BMP, WebP, JPEG 2000, PNM and PSD; HEIC and AVIF are
// recognised to be refused with their own code (MuPDF does not open
// them). Check applies the limits: at most MaxPixels a frame, at most
// MaxSide a side.
package imagehead

import (
	"errors"
	"fmt"

	"vika/backend/message"
)

// Header is what an image's header says.
type Header struct {
	// Format is "png", "jpeg", "tiff", "gif", "bmp", "webp", "jp2",
	// "pnm" or "psd".
	Format string
	// Width and Height are the largest frame's, in pixels.
	Width, Height int
	// Frames is the number of images the file holds (TIFF pages; 1 for
	// the other formats).
	Frames int
}

// Limits. MaxPixels is set by memory, not by OCR: a page photographed
// needs about 300 DPI across it to be read well, which is 8.7 million
// pixels for A4 and 17.4 million for A3 (3508 x 4961), but phones save
// photos of 12 million pixels by default and 48 to 50 million in their
// full-resolution modes (8160 x 6120 = 49.9 million). 50 million pixels
// decode to 150 MB of RGB inside MuPDF, a tenth of the worker's memory
// budget; the page is then rendered for OCR at no more than the A3 scale
// (package ingest). MaxSide is Leptonica's and Tesseract's limit.
// MaxFrames bounds a multi-page TIFF like a PDF's pages.
const (
	MaxPixels = 50_000_000
	MaxSide   = 32767
	MaxFrames = 1000
)

// maxHeaderScan bounds how far into a file a header is looked for (JPEG
// segments before the frame header, PNG chunks before IHDR cannot be).
const maxHeaderScan = 1 << 20

// Errors. Each is registered with its message code; the errors returned
// wrap them with their parameters.
var (
	// ErrTooLarge: a frame over MaxPixels or MaxSide.
	ErrTooLarge = message.Register(errors.New("image too large"), message.ImagePixels)
	// ErrFrames: a TIFF of more than MaxFrames frames.
	ErrFrames = message.Register(errors.New("image has too many frames"), message.ImageFrames)
	// ErrDamaged: a header cut short, looping or out of bounds.
	ErrDamaged = message.Register(errors.New("image header damaged"), message.Unreadable)
	// ErrHEIC: a HEIC, HEIF or AVIF photo, which Vika cannot decode.
	ErrHEIC = message.Register(errors.New("HEIC and AVIF images cannot be read"), message.ImageHEIC)
	// ErrUnknown: not an image format Read knows.
	ErrUnknown = errors.New("not a known image format")
)

// Read returns the header of the image in data, or ErrUnknown when data
// is no image format it knows, ErrHEIC, or ErrDamaged with the format.
func Read(data []byte) (Header, error) {
	format := Sniff(data)
	var h Header
	var err error
	switch format {
	case "png":
		h, err = readPNG(data)
	case "jpeg":
		h, err = readJPEG(data)
	case "tiff":
		h, err = readTIFF(data)
	case "gif":
		h, err = readGIF(data)
	case "bmp":
		h, err = readBMP(data)
	case "webp":
		h, err = readWebP(data)
	case "jp2":
		h, err = readJP2(data)
	case "pnm":
		h, err = readPNM(data)
	case "psd":
		h, err = readPSD(data)
	case "heic":
		return Header{}, message.Wrap(fmt.Errorf("%w: save the photo as JPEG (on an iPhone: Settings, Camera, Formats, Most Compatible)", ErrHEIC), message.ImageHEIC)
	default:
		return Header{}, ErrUnknown
	}
	if errors.Is(err, errTooManyFrames) {
		return Header{}, message.Wrap(fmt.Errorf("%w: a %s of more than %d frames", ErrFrames, format, MaxFrames), message.ImageFrames, "limit", MaxFrames)
	}
	if err != nil {
		return Header{}, message.Wrap(fmt.Errorf("%w: cannot read this %s file: %v", ErrDamaged, format, err), message.Unreadable, "format", format)
	}
	h.Format = format
	if h.Frames == 0 {
		h.Frames = 1
	}
	if h.Width < 1 || h.Height < 1 {
		return Header{}, message.Wrap(fmt.Errorf("%w: cannot read this %s file: %d x %d pixels", ErrDamaged, format, h.Width, h.Height), message.Unreadable, "format", format)
	}
	return h, nil
}

// Check reads data's header and applies the limits: it returns the
// header, or an error wrapping ErrTooLarge, ErrFrames, ErrDamaged,
// ErrHEIC or ErrUnknown, with its message code and parameters.
func Check(data []byte) (Header, error) {
	h, err := Read(data)
	if err != nil {
		return h, err
	}
	if int64(h.Width)*int64(h.Height) > MaxPixels || h.Width > MaxSide || h.Height > MaxSide {
		return h, message.Wrap(fmt.Errorf("%w: %s of %d x %d pixels (at most %d pixels, %d a side)", ErrTooLarge, h.Format, h.Width, h.Height, MaxPixels, MaxSide),
			message.ImagePixels, "width", h.Width, "height", h.Height, "megapixels", MaxPixels/1_000_000)
	}
	return h, nil
}

// Sniff names the image format data starts with ("png", "jpeg", "tiff",
// "gif", "bmp", "webp", "jp2", "pnm", "psd", "heic"), or "".
func Sniff(data []byte) string {
	has := func(off int, s string) bool {
		return len(data) >= off+len(s) && string(data[off:off+len(s)]) == s
	}
	switch {
	case has(0, "\x89PNG\r\n\x1a\n"):
		return "png"
	case has(0, "\xff\xd8\xff"):
		return "jpeg"
	case has(0, "II*\x00"), has(0, "MM\x00*"):
		return "tiff"
	case has(0, "GIF87a"), has(0, "GIF89a"):
		return "gif"
	case has(0, "BM") && len(data) >= 26:
		return "bmp"
	case has(0, "RIFF") && has(8, "WEBP"):
		return "webp"
	case has(0, "\x00\x00\x00\x0cjP  \r\n\x87\n"), has(0, "\xff\x4f\xff\x51"):
		return "jp2"
	case has(0, "8BPS"):
		return "psd"
	case has(4, "ftyp") && isHEIFBrand(data):
		return "heic"
	case len(data) >= 3 && data[0] == 'P' && data[1] >= '1' && data[1] <= '6' && isSpace(data[2]):
		return "pnm"
	}
	return ""
}

// heifBrands are the ftyp brands of HEIF images (HEIC, AVIF).
var heifBrands = []string{"heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"}

func isHEIFBrand(data []byte) bool {
	if len(data) < 12 {
		return false
	}
	for _, b := range heifBrands {
		if string(data[8:12]) == b {
			return true
		}
	}
	return false
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
