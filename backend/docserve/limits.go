package docserve

// ViewerLimits bound what the window's pdf.js does with a document served
// here, since pdf.js runs in the web view, outside the worker's budgets: a
// hostile page must not exhaust the window's memory or hang it. They reach
// the page through the catalogue (app_catalogue.go).
type ViewerLimits struct {
	// MaxImagePixels: an image of more pixels is not decoded (pdf.js
	// maxImageSize); the page draws without it. As the worker's renders.
	MaxImagePixels int `json:"max_image_pixels"`
	// MaxCanvasPixels and MaxCanvasSide bound the canvas a page is drawn
	// into (its backing store, whatever the zoom and devicePixelRatio);
	// past them the page is drawn at a lower resolution. Also pdf.js's own
	// canvases (canvasMaxAreaInBytes, 4 bytes a pixel).
	MaxCanvasPixels int `json:"max_canvas_pixels"`
	MaxCanvasSide   int `json:"max_canvas_side"`
	// RenderTimeoutMS is the render watchdog: a page (canvas and text
	// layer) not drawn by then is cancelled and shown as failed.
	RenderTimeoutMS int `json:"render_timeout_ms"`
}

// Viewer is the viewer's limits.
var Viewer = ViewerLimits{MaxImagePixels: 64 << 20, MaxCanvasPixels: 16 << 20, MaxCanvasSide: 8192, RenderTimeoutMS: 15000}
