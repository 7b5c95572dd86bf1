package imagehead

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// readTIFF walks the chain of image file directories: at most
// MaxFrames+1 of them (one more tells "too many"), each offset inside the
// file and never seen before (a loop is damage, not a long file).
// Width and Height are the largest frame's; a directory's subIFDs
// (thumbnails, previews) are not followed, as MuPDF reads the main chain.
func readTIFF(d []byte) (Header, error) {
	if len(d) < 8 {
		return Header{}, errShort
	}
	var bo binary.ByteOrder = binary.LittleEndian
	if d[0] == 'M' {
		bo = binary.BigEndian
	}
	var h Header
	seen := map[uint32]bool{}
	off := bo.Uint32(d[4:])
	for off != 0 {
		if seen[off] {
			return Header{}, fmt.Errorf("the frame list loops back to byte %d", off)
		}
		seen[off] = true
		if h.Frames == MaxFrames {
			return Header{}, errTooManyFrames
		}
		if uint64(off)+2 > uint64(len(d)) {
			return Header{}, fmt.Errorf("frame %d starts at byte %d, past the end (%d bytes)", h.Frames+1, off, len(d))
		}
		n := int(bo.Uint16(d[off:]))
		end := uint64(off) + 2 + 12*uint64(n)
		if end+4 > uint64(len(d)) {
			return Header{}, fmt.Errorf("frame %d's %d entries run past the end", h.Frames+1, n)
		}
		w, ht := 0, 0
		for k := 0; k < n; k++ {
			e := d[int(off)+2+12*k:]
			tag, typ := bo.Uint16(e), bo.Uint16(e[2:])
			var v int
			switch typ {
			case 3: // SHORT
				v = int(bo.Uint16(e[8:]))
			case 4: // LONG
				v = int(bo.Uint32(e[8:]))
			default:
				continue
			}
			switch tag {
			case 256:
				w = v
			case 257:
				ht = v
			}
		}
		if w < 1 || ht < 1 {
			return Header{}, fmt.Errorf("frame %d has no size", h.Frames+1)
		}
		if int64(w)*int64(ht) > int64(h.Width)*int64(h.Height) {
			h.Width, h.Height = w, ht
		}
		h.Frames++
		off = bo.Uint32(d[end:])
	}
	if h.Frames == 0 {
		return Header{}, fmt.Errorf("no frame")
	}
	return h, nil
}

// errTooManyFrames: the chain goes past MaxFrames.
var errTooManyFrames = errors.New("too many frames")
