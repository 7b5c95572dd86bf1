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
