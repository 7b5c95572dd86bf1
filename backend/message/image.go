package message

// Image codes: why an image was not read.
const (
	// ImageTooLarge: width, height (the image's header), limit (pixels),
	// aspect (long side over short side). A figure's crop refused so is
	// still found by its text.
	ImageTooLarge = "image.too_large"
)

func init() {
	english[ImageTooLarge] = func(p Params) string {
		return "This image is too large to read (" + str(p, "width") + " x " + str(p, "height") + " pixels; at most " +
			str(p, "limit") + " pixels, the long side at most " + str(p, "aspect") + " times the short one)."
	}
}

// Codes of image files added as documents (package imagehead; a damaged
// header is convert.unreadable, like a file MuPDF cannot read).
const (
	// ImagePixels: width, height (the image's header), megapixels (the
	// limit, millions of pixels).
	ImagePixels = "image.pixels"
	// ImageFrames: limit (frames of a multi-page TIFF).
	ImageFrames = "image.frames"
	// ImageHEIC: a HEIC, HEIF or AVIF photo.
	ImageHEIC = "image.heic"
)

func init() {
	english[ImagePixels] = func(p Params) string {
		return "This image is too large to read: " + str(p, "width") + " x " + str(p, "height") + " pixels, at most " +
			str(p, "megapixels") + " million pixels and 32767 a side. Save it at a smaller size and add it again."
	}
	english[ImageFrames] = func(p Params) string {
		return "This TIFF holds more than " + str(p, "limit") + " images: it was not read."
	}
	english[ImageHEIC] = fixed("HEIC and AVIF photos cannot be read: save the photo as JPEG (on an iPhone: Settings, Camera, Formats, Most Compatible) and add it again.")
}
