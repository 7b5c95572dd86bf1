package docserve

import "encoding/base64"

// FigureURL returns a figure crop (PNG bytes, as ingest keeps them) as a
// data: URL the page can show in an <img> under its Content-Security-Policy
// (img-src data:); "" when there is no crop. The bytes are only ever
// labelled image/png: a crop that is not a PNG does not decode, it does
// not become another type.
func FigureURL(png []byte) string {
	if len(png) == 0 {
		return ""
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
}
