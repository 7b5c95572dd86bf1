// Package photo makes test pictures of pages as a phone takes them: the
// rendered page lies on a darker table, turned a few degrees, seen in
// perspective, lit unevenly, with sensor noise and a slight blur, saved
// as JPEG. It knows where each point of the page landed (Shot.PageToPhoto),
// so tests can check that what is read on the photo is placed back on it.
// It is a package of its own because package pdf's tests use testpdf.
package photo

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"

	"vika/backend/straighten"
)

// Lecture is the text of a page to photograph: plain prose of a lecture
// (set in 11 pt Helvetica by testpdf.Text, it fills a third of an A4
// page).
const Lecture = `Chapter 3. Estimation of a proportion

A survey asks a random sample of students whether they read the lecture notes before the class. The proportion of the sample who answer yes estimates the proportion in the whole population of students. The estimate varies from one sample to another: its standard error shrinks as the square root of the sample size grows, so four times as many answers halve the uncertainty.

A confidence interval gives a range of plausible values for the unknown proportion. With a large sample, the estimate minus and plus two standard errors covers the true proportion in about ninety five percent of the samples one could draw. The interval says nothing certain about one particular sample: it describes the procedure, repeated many times.

Before collecting data, choose the sample size that gives the precision you need. The worst case is a proportion near one half, where the variance of a single answer is largest. Students often forget that a biased sample stays biased however large it grows: a survey posted only in the library reaches the students who already read.`

// Shot describes how the page is photographed.
type Shot struct {
	// Angle turns the page on the table, degrees clockwise.
	Angle float64
	// Keystone narrows the page's top edge by this share of its width
	// (the phone held below the page, tilted).
	Keystone float64
	// Fill is the page's share of the photo's width (0.8 when 0; the
	// page is made smaller if its height would not fit, unless Fill is
	// over 1: a close-up that cuts the page's edges off).
	Fill float64
	// Dim is how much darker the darkest corner is than the brightest
	// (0.45: 55% of the light).
	Dim float64
	// Noise is the standard deviation of the sensor noise, in grey levels.
	Noise float64
	// Quality is the JPEG quality (80 when 0).
	Quality int
	// Seed makes the noise repeatable.
	Seed uint64
}

// Photo is a photographed page.
type Photo struct {
	JPEG []byte
	// PageToPhoto maps a pixel of the page picture to the photo's.
	PageToPhoto straighten.Matrix
	Width       int
	Height      int
}

// Take photographs page into a picture of w x h pixels.
func Take(page *image.Gray, w, h int, s Shot) Photo {
	pw, ph := float64(page.Rect.Dx()), float64(page.Rect.Dy())
	fill := s.Fill
	if fill == 0 {
		fill = 0.8
	}
	k := fill * float64(w) / pw
	if k*ph > 0.92*float64(h) && fill <= 1 {
		k = 0.92 * float64(h) / ph
	}
	hw, hh := pw*k/2, ph*k/2
	corners := [4][2]float64{{-hw * (1 - s.Keystone), -hh}, {hw * (1 - s.Keystone), -hh}, {hw, hh}, {-hw, hh}}
	a := s.Angle * math.Pi / 180
	var q straighten.Quad
	for i, c := range corners {
		q[i] = [2]float64{float64(w)/2 + c[0]*math.Cos(a) - c[1]*math.Sin(a), float64(h)/2 + c[0]*math.Sin(a) + c[1]*math.Cos(a)}
	}
	toPhoto := straighten.QuadMatrix(q, pw, ph)
	toPage := toPhoto.Inverse()
	rng := rand.New(rand.NewPCG(s.Seed, 47))
	// The scene's light, blurred by the optics, then the sensor's noise
	// and a warm tint.
	scene := make([]float64, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			px, py := toPage.Apply(float64(x)+0.5, float64(y)+0.5)
			var v float64
			if px >= 0 && py >= 0 && px < pw-1 && py < ph-1 {
				v = bilinear(page, px, py)*0.92 + 12 // paper is not quite white
			} else {
				v = 70 + 18*math.Sin(float64(x)/37+float64(y)/211) // the table's grain
			}
			// Light falls off from the top left.
			scene[y*w+x] = v * (1 - s.Dim*(float64(x)/float64(w)+float64(y)/float64(h))/2)
		}
	}
	blur(scene, w, h)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i, v := range scene {
		v += rng.NormFloat64() * s.Noise
		img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], img.Pix[4*i+3] = clamp(v*1.02), clamp(v), clamp(v*0.9), 255
	}
	q80 := s.Quality
	if q80 == 0 {
		q80 = 80
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: q80}); err != nil {
		panic(err) // an in-memory RGBA always encodes
	}
	return Photo{JPEG: buf.Bytes(), PageToPhoto: toPhoto, Width: w, Height: h}
}

func bilinear(p *image.Gray, x, y float64) float64 {
	x0, y0 := int(x), int(y)
	fx, fy := x-float64(x0), y-float64(y0)
	at := func(x, y int) float64 { return float64(p.Pix[y*p.Stride+x]) }
	return (at(x0, y0)*(1-fx)+at(x0+1, y0)*fx)*(1-fy) + (at(x0, y0+1)*(1-fx)+at(x0+1, y0+1)*fx)*fy
}

func clamp(v float64) uint8 { return uint8(min(255, max(0, math.Round(v)))) }

// blur softens a w x h plane with a 3 x 3 binomial kernel (a phone's
// optics), in two passes.
func blur(p []float64, w, h int) {
	tmp := make([]float64, len(p))
	for y := 0; y < h; y++ {
		for x := 1; x < w-1; x++ {
			i := y*w + x
			tmp[i] = (p[i-1] + 2*p[i] + p[i+1]) / 4
		}
		tmp[y*w], tmp[y*w+w-1] = p[y*w], p[y*w+w-1]
	}
	copy(p, tmp)
	for y := 1; y < h-1; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			p[i] = (tmp[i-w] + 2*tmp[i] + tmp[i+w]) / 4
		}
	}
}

// Grey decodes a photo's JPEG to grey levels (as the OCR sees it): its
// luma.
func Grey(data []byte) (*image.Gray, error) {
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	g := image.NewGray(b)
	if y, ok := img.(*image.YCbCr); ok {
		for row := 0; row < b.Dy(); row++ {
			copy(g.Pix[row*g.Stride:row*g.Stride+b.Dx()], y.Y[row*y.YStride:])
		}
		return g, nil
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			g.Set(x, y, img.At(x, y))
		}
	}
	return g, nil
}

// PNG re-encodes a photo's JPEG as a grey PNG (to place it in a test
// PDF: OCR reads grey anyway).
func PNG(data []byte) ([]byte, error) {
	g, err := Grey(data)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	err = enc.Encode(&buf, g)
	return buf.Bytes(), err
}
