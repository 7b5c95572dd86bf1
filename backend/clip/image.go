package clip

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg" // crops are PNG; JPEG decodes too
	_ "image/png"
	"math"
	"os"

	"vika/backend/message"
)

// Preprocess is CLIP's image preparation, as transformers'
// CLIPImageProcessor does it with PIL: the shortest side resized to Size
// (bicubic, the other side scaled and truncated), the centre CropxCrop
// kept, then RGB/255 normalised channel by channel with Mean and Std,
// channels first.
type Preprocess struct {
	Size int
	Crop int
	Mean [3]float32
	Std  [3]float32
}

// DefaultPreprocess is CLIP ViT-B/32's.
var DefaultPreprocess = Preprocess{
	Size: 224, Crop: 224,
	Mean: [3]float32{0.48145466, 0.4578275, 0.40821073},
	Std:  [3]float32{0.26862954, 0.26130258, 0.27577711},
}

// LoadPreprocess reads a preprocessor_config.json (size and crop_size as
// numbers or as {"shortest_edge"} / {"height", "width"} objects).
func LoadPreprocess(path string) (Preprocess, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Preprocess{}, err
	}
	var c struct {
		Size     json.RawMessage `json:"size"`
		CropSize json.RawMessage `json:"crop_size"`
		Mean     []float32       `json:"image_mean"`
		Std      []float32       `json:"image_std"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return Preprocess{}, fmt.Errorf("%s: %w", path, err)
	}
	p := Preprocess{Size: side(c.Size, "shortest_edge"), Crop: side(c.CropSize, "height")}
	if len(c.Mean) != 3 || len(c.Std) != 3 || p.Size <= 0 || p.Crop <= 0 || p.Crop > p.Size {
		return Preprocess{}, fmt.Errorf("%s: want size, crop_size, three image_mean and image_std values", path)
	}
	for i := range 3 {
		if c.Std[i] <= 0 {
			return Preprocess{}, fmt.Errorf("%s: image_std %v", path, c.Std)
		}
		p.Mean[i], p.Std[i] = c.Mean[i], c.Std[i]
	}
	return p, nil
}

func side(raw json.RawMessage, key string) int {
	var n int
	if json.Unmarshal(raw, &n) == nil {
		return n
	}
	var m map[string]int
	if json.Unmarshal(raw, &m) == nil {
		return m[key]
	}
	return 0
}

// MaxPixels bounds the images Decode reads. CLIP reads figure crops, which
// pdf.Crop renders within 2.5 million pixels (a full-page figure comes out
// at about 1400 x 1800); 4 million leaves room for its rounding and for a
// crop kept in the cache or brought by a course file, which are not
// rendered here, while a few bytes declaring 60000 x 60000 would ask for
// 14 GB of RGBA before anything is read.
const MaxPixels = 4_000_000

// MaxAspect bounds an image's long side over its short one: Pixels scales
// the short side to Size first, so a 1 x 4,000,000 strip would resample
// into 224 x 896 million bytes. A crop that thin shows nothing CLIP can
// read; its figure is still found by its text.
const MaxAspect = 100

// ErrTooLarge is an image over MaxPixels or MaxAspect.
var ErrTooLarge = message.Register(errors.New("clip: image too large"), message.ImageTooLarge)

// Decode reads a PNG or JPEG image, once its header says it is within
// MaxPixels and MaxAspect (ErrTooLarge, with its size).
func Decode(data []byte) (image.Image, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("clip: decoding the image: %w", err)
	}
	w, h := cfg.Width, cfg.Height
	if w < 1 || h < 1 {
		return nil, fmt.Errorf("clip: empty image (%dx%d)", w, h)
	}
	if int64(w)*int64(h) > MaxPixels || max(w, h)/min(w, h) > MaxAspect {
		return nil, message.Wrap(fmt.Errorf("%w: %d x %d pixels", ErrTooLarge, w, h), message.ImageTooLarge,
			"width", w, "height", h, "limit", MaxPixels, "aspect", MaxAspect)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("clip: decoding the image: %w", err)
	}
	if b := img.Bounds(); b.Dx() < 1 || b.Dy() < 1 {
		return nil, fmt.Errorf("clip: empty image (%dx%d)", b.Dx(), b.Dy())
	}
	return img, nil
}

// Pixels returns img prepared as the model's input: 3 x Crop x Crop values,
// channels first, written to dst (allocated when nil or too short).
func (p Preprocess) Pixels(img image.Image, dst []float32) []float32 {
	w, h, planes, gray := rgbPlanes(img)
	nw, nh := p.Size, p.Size
	if w <= h {
		nh = int(float64(p.Size) * float64(h) / float64(w))
	} else {
		nw = int(float64(p.Size) * float64(w) / float64(h))
	}
	nw, nh = max(nw, p.Crop), max(nh, p.Crop)
	n := p.Crop * p.Crop
	if len(dst) < 3*n {
		dst = make([]float32, 3*n)
	}
	top, left := (nh-p.Crop)/2, (nw-p.Crop)/2
	var out []uint8
	for c, plane := range planes {
		if c == 0 || !gray { // a gray image's three planes are one
			out = resample(plane, w, h, nw, nh)
		}
		for y := range p.Crop {
			row := out[(top+y)*nw+left:]
			for x := range p.Crop {
				v := float32(row[x]) / 255
				dst[c*n+y*p.Crop+x] = (v - p.Mean[c]) / p.Std[c]
			}
		}
	}
	return dst[:3*n]
}

// rgbPlanes returns the red, green and blue 8-bit planes of img (alpha is
// dropped, as PIL's conversion to RGB does); gray says the three are the
// same plane.
func rgbPlanes(img image.Image) (w, h int, planes [3][]uint8, gray bool) {
	b := img.Bounds()
	w, h = b.Dx(), b.Dy()
	if g, ok := img.(*image.Gray); ok {
		planes[0] = make([]uint8, w*h)
		for y := range h {
			o := g.PixOffset(b.Min.X, b.Min.Y+y)
			copy(planes[0][y*w:(y+1)*w], g.Pix[o:o+w])
		}
		planes[1], planes[2] = planes[0], planes[0]
		return w, h, planes, true
	}
	for c := range planes {
		planes[c] = make([]uint8, w*h)
	}
	for y := range h {
		for x := range w {
			c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
			i := y*w + x
			planes[0][i], planes[1][i], planes[2][i] = c.R, c.G, c.B
		}
	}
	return w, h, planes, false
}

// PIL's fixed-point resampling: coefficients scaled by 2^precisionBits, each
// pass rounded and clipped to 8 bits.
const precisionBits = 32 - 8 - 2

// resample resizes an 8-bit plane from w x h to nw x nh with PIL's bicubic
// filter (a = -0.5, widened by the scale when shrinking: antialiased),
// horizontally then vertically, each pass rounded to 8 bits as PIL does
// for 8-bit images.
func resample(src []uint8, w, h, nw, nh int) []uint8 {
	if nw != w {
		bounds, coeffs, k := coefficients(w, nw)
		tmp := make([]uint8, nw*h)
		for y := range h {
			row := src[y*w : (y+1)*w]
			for x := range nw {
				lo, n := bounds[2*x], bounds[2*x+1]
				ss := int64(1) << (precisionBits - 1)
				for i := range n {
					ss += int64(row[lo+i]) * coeffs[x*k+i]
				}
				tmp[y*nw+x] = clip8(ss)
			}
		}
		src, w = tmp, nw
	}
	if nh != h {
		bounds, coeffs, k := coefficients(h, nh)
		tmp := make([]uint8, w*nh)
		acc := make([]int64, w)
		for y := range nh {
			lo, n := bounds[2*y], bounds[2*y+1]
			for x := range acc {
				acc[x] = 1 << (precisionBits - 1)
			}
			for i := range n { // row by row: the input is read in order
				c, row := coeffs[y*k+i], src[(lo+i)*w:(lo+i+1)*w]
				for x, v := range row {
					acc[x] += int64(v) * c
				}
			}
			for x, ss := range acc {
				tmp[y*w+x] = clip8(ss)
			}
		}
		src = tmp
	}
	return src
}

func clip8(ss int64) uint8 {
	v := ss >> precisionBits
	switch {
	case v < 0:
		return 0
	case v > 255:
		return 255
	}
	return uint8(v)
}

// bicubic is the cubic convolution kernel with a = -0.5.
func bicubic(x float64) float64 {
	const a = -0.5
	x = math.Abs(x)
	switch {
	case x < 1:
		return ((a+2)*x-(a+3))*x*x + 1
	case x < 2:
		return (((x-5)*x+8)*x - 4) * a
	}
	return 0
}

// coefficients returns, for each output position, the first input index
// and the count of inputs it reads (bounds, in pairs) and their fixed-point
// weights (k per position).
func coefficients(in, out int) (bounds []int, coeffs []int64, k int) {
	scale := float64(in) / float64(out)
	filterScale := max(scale, 1)
	support := 2 * filterScale
	k = int(math.Ceil(support))*2 + 1
	bounds = make([]int, 2*out)
	coeffs = make([]int64, out*k)
	w := make([]float64, k)
	for x := range out {
		center := (float64(x) + 0.5) * scale
		lo := max(int(center-support+0.5), 0)
		hi := min(int(center+support+0.5), in)
		n := hi - lo
		var sum float64
		for i := range n {
			w[i] = bicubic((float64(i+lo) - center + 0.5) / filterScale)
			sum += w[i]
		}
		for i := range n {
			v := w[i]
			if sum != 0 {
				v /= sum
			}
			if v < 0 {
				coeffs[x*k+i] = int64(-0.5 + v*(1<<precisionBits))
			} else {
				coeffs[x*k+i] = int64(0.5 + v*(1<<precisionBits))
			}
		}
		bounds[2*x], bounds[2*x+1] = lo, n
	}
	return bounds, coeffs, k
}
