package imagehead

import (
	"encoding/binary"
	"errors"
	"fmt"
)

var errShort = errors.New("the header is cut short")

func readPNG(d []byte) (Header, error) {
	// The signature, then IHDR: length 13, "IHDR", width, height.
	if len(d) < 24 {
		return Header{}, errShort
	}
	if string(d[12:16]) != "IHDR" {
		return Header{}, errors.New("the first chunk is not IHDR")
	}
	be := binary.BigEndian
	return Header{Width: int(be.Uint32(d[16:])), Height: int(be.Uint32(d[20:]))}, nil
}

// readJPEG walks the marker segments to the first frame header (SOF0 to
// SOF15, except DHT, JPG and DAC), at most maxHeaderScan bytes in.
func readJPEG(d []byte) (Header, error) {
	i := 2
	for i+4 <= len(d) && i < maxHeaderScan {
		if d[i] != 0xff {
			return Header{}, fmt.Errorf("no marker at byte %d", i)
		}
		m := d[i+1]
		switch {
		case m == 0xff: // fill byte
			i++
			continue
		case m == 0x01 || (m >= 0xd0 && m <= 0xd7): // markers without a length
			i += 2
			continue
		case m == 0xd9 || m == 0xda:
			return Header{}, errors.New("no frame header before the image data")
		}
		n := int(binary.BigEndian.Uint16(d[i+2:]))
		if n < 2 {
			return Header{}, fmt.Errorf("segment of length %d", n)
		}
		if m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc {
			if i+9 > len(d) || n < 7 {
				return Header{}, errShort
			}
			h := int(binary.BigEndian.Uint16(d[i+5:]))
			w := int(binary.BigEndian.Uint16(d[i+7:]))
			return Header{Width: w, Height: h}, nil
		}
		i += 2 + n
	}
	return Header{}, errShort
}

// readGIF takes the logical screen and every image descriptor's extent
// the first maxHeaderScan bytes show (a frame may overflow the screen).
func readGIF(d []byte) (Header, error) {
	if len(d) < 13 {
		return Header{}, errShort
	}
	le := binary.LittleEndian
	h := Header{Width: int(le.Uint16(d[6:])), Height: int(le.Uint16(d[8:]))}
	i := 13
	if d[10]&0x80 != 0 {
		i += 3 << (d[10]&7 + 1)
	}
	for i < len(d) && i < maxHeaderScan {
		switch d[i] {
		case 0x2c: // image descriptor
			if i+10 > len(d) {
				return h, nil
			}
			x, y := int(le.Uint16(d[i+1:])), int(le.Uint16(d[i+3:]))
			h.Width, h.Height = max(h.Width, x+int(le.Uint16(d[i+5:]))), max(h.Height, y+int(le.Uint16(d[i+7:])))
			flags := d[i+9]
			i += 10
			if flags&0x80 != 0 {
				i += 3 << (flags&7 + 1)
			}
			i++ // LZW minimum code size
			i = skipBlocks(d, i)
		case 0x21: // extension
			i = skipBlocks(d, i+2)
		default: // trailer or garbage: the rest is the decoder's business
			return h, nil
		}
	}
	return h, nil
}

// skipBlocks skips GIF data sub-blocks from i.
func skipBlocks(d []byte, i int) int {
	for i < len(d) && d[i] != 0 {
		i += int(d[i]) + 1
	}
	return i + 1
}

func readBMP(d []byte) (Header, error) {
	le := binary.LittleEndian
	size := le.Uint32(d[14:])
	if size == 12 { // OS/2 BITMAPCOREHEADER
		return Header{Width: int(le.Uint16(d[18:])), Height: int(le.Uint16(d[20:]))}, nil
	}
	w, h := int32(le.Uint32(d[18:])), int32(le.Uint32(d[22:]))
	if h < 0 { // top-down
		h = -h
	}
	if w < 0 || h < 0 {
		return Header{}, errors.New("negative width")
	}
	return Header{Width: int(w), Height: int(h)}, nil
}

func readWebP(d []byte) (Header, error) {
	if len(d) < 30 {
		return Header{}, errShort
	}
	le := binary.LittleEndian
	switch string(d[12:16]) {
	case "VP8 ":
		return Header{Width: int(le.Uint16(d[26:]) & 0x3fff), Height: int(le.Uint16(d[28:]) & 0x3fff)}, nil
	case "VP8L":
		b := le.Uint32(d[21:])
		return Header{Width: int(b&0x3fff) + 1, Height: int(b>>14&0x3fff) + 1}, nil
	case "VP8X":
		w := int(d[24]) | int(d[25])<<8 | int(d[26])<<16
		h := int(d[27]) | int(d[28])<<8 | int(d[29])<<16
		return Header{Width: w + 1, Height: h + 1}, nil
	}
	return Header{}, errors.New("unknown WebP chunk")
}

// readJP2 finds the codestream's SIZ marker (a raw J2K codestream, or a
// JP2 file's "jp2c" box; its "ihdr" box says the same).
func readJP2(d []byte) (Header, error) {
	be := binary.BigEndian
	if len(d) >= 4 && be.Uint32(d) == 0xff4fff51 {
		if len(d) < 16 {
			return Header{}, errShort
		}
		// SIZ: Lsiz, Rsiz, Xsiz, Ysiz, XOsiz, YOsiz.
		if len(d) < 24 {
			return Header{}, errShort
		}
		x, y, xo, yo := be.Uint32(d[8:]), be.Uint32(d[12:]), be.Uint32(d[16:]), be.Uint32(d[20:])
		if xo > x || yo > y {
			return Header{}, errors.New("image offset past its size")
		}
		return Header{Width: int(x - xo), Height: int(y - yo)}, nil
	}
	// Boxes: length, type; "jp2h" holds "ihdr": height, width.
	for i, depth := 0, 0; i+8 <= len(d) && i < maxHeaderScan && depth < 64; depth++ {
		n := int(be.Uint32(d[i:]))
		typ := string(d[i+4 : i+8])
		switch {
		case typ == "jp2h":
			i += 8
			continue
		case typ == "ihdr":
			if i+16 > len(d) {
				return Header{}, errShort
			}
			return Header{Height: int(be.Uint32(d[i+8:])), Width: int(be.Uint32(d[i+12:]))}, nil
		case n < 8:
			return Header{}, fmt.Errorf("box %q of length %d", typ, n)
		}
		i += n
	}
	return Header{}, errors.New("no image header box")
}

// readPNM reads "P<n> width height" with comments.
func readPNM(d []byte) (Header, error) {
	var nums [2]int
	i := 2
	for k := 0; k < 2; k++ {
		for i < len(d) && i < 4096 && (isSpace(d[i]) || d[i] == '#') {
			if d[i] == '#' {
				for i < len(d) && d[i] != '\n' {
					i++
				}
				continue
			}
			i++
		}
		start := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' && i-start < 9 {
			nums[k] = nums[k]*10 + int(d[i]-'0')
			i++
		}
		if i == start {
			return Header{}, errors.New("no size")
		}
	}
	return Header{Width: nums[0], Height: nums[1]}, nil
}

func readPSD(d []byte) (Header, error) {
	if len(d) < 22 {
		return Header{}, errShort
	}
	be := binary.BigEndian
	return Header{Height: int(be.Uint32(d[14:])), Width: int(be.Uint32(d[18:]))}, nil
}
