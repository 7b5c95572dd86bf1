// Declarations of the parts of the MuPDF 1.24 C API that package pdf calls,
// written from the API documented in go-fitz's bundled headers (the library
// itself is linked statically by go-fitz), and of the package's own guarded
// wrappers in mupdf.c.
#ifndef VIKA_MUPDF_H
#define VIKA_MUPDF_H

#include <setjmp.h>
#include <stddef.h>

typedef struct fz_context fz_context;
typedef struct fz_document fz_document;
typedef struct fz_page fz_page;
typedef struct fz_device fz_device;
typedef struct fz_buffer fz_buffer;
typedef struct fz_output fz_output;
typedef struct fz_pixmap fz_pixmap;
typedef struct fz_colorspace fz_colorspace;
typedef struct fz_separations fz_separations;
typedef struct vika_stext_page fz_stext_page; // opaque here: only pointers are passed
typedef struct fz_path fz_path;
typedef struct fz_image fz_image;
typedef struct fz_stroke_state fz_stroke_state;
typedef struct { unsigned char ri, bp, op, opm; } fz_color_params;
typedef void (fz_message_cb)(void *user, const char *message);

typedef struct { float x0, y0, x1, y1; } fz_rect;
typedef struct { int x0, y0, x1, y1; } fz_irect;
typedef struct { float a, b, c, d, e, f; } fz_matrix;
typedef struct { int flags; float scale; } fz_stext_options;

// fz_cookie as MuPDF 1.24 declares it (fitz/device.h): setting abort from
// another thread makes fz_run_page_contents stop at its next check.
typedef struct {
	int abort;
	int progress;
	size_t progress_max;
	int errors;
	int incomplete;
} fz_cookie;

// Exceptions: fz_try(ctx) expands to
// if (!sigsetjmp(*fz_push_try(ctx), 0)) if (fz_do_try(ctx)) do { ... } while (0);
// Windows has no sigsetjmp: there MuPDF uses setjmp and jmp_buf (fitz/system.h).
#ifdef _WIN32
typedef jmp_buf vika_jmp_buf;
#define vika_setjmp(buf) setjmp(buf)
#else
typedef sigjmp_buf vika_jmp_buf;
#define vika_setjmp(buf) sigsetjmp(buf, 0)
#endif
vika_jmp_buf *fz_push_try(fz_context *ctx);
int fz_do_try(fz_context *ctx);
int fz_do_always(fz_context *ctx);
int fz_do_catch(fz_context *ctx);
#define VIKA_TRY(ctx) if (!vika_setjmp(*fz_push_try(ctx))) if (fz_do_try(ctx)) do
#define VIKA_ALWAYS(ctx) while (0); if (fz_do_always(ctx)) do
#define VIKA_CATCH(ctx) while (0); if (fz_do_catch(ctx))
// vika_caught copies the caught exception's message into err.
void vika_caught(fz_context *ctx, char *err, int errlen);
const char *fz_caught_message(fz_context *ctx);
void fz_set_warning_callback(fz_context *ctx, fz_message_cb *cb, void *user);
void fz_set_error_callback(fz_context *ctx, fz_message_cb *cb, void *user);

int fz_count_pages(fz_context *ctx, fz_document *doc);
fz_page *fz_load_page(fz_context *ctx, fz_document *doc, int number);
fz_rect fz_bound_page(fz_context *ctx, fz_page *page);
void fz_run_page_contents(fz_context *ctx, fz_page *page, fz_device *dev, fz_matrix transform, fz_cookie *cookie);
void fz_drop_page(fz_context *ctx, fz_page *page);
void fz_close_device(fz_context *ctx, fz_device *dev);
void fz_drop_device(fz_context *ctx, fz_device *dev);

fz_device *fz_new_device_of_size(fz_context *ctx, int size);
fz_rect fz_bound_path(fz_context *ctx, const fz_path *path, const fz_stroke_state *stroke, fz_matrix ctm);

// The head of struct fz_device as MuPDF 1.24 lays it out (fitz/device.h):
// a device of our own sets the two path callbacks and leaves the other
// 26 callbacks NULL, which MuPDF skips.
typedef struct {
	int refs;
	int hints;
	int flags;
	void (*close_device)(fz_context *, fz_device *);
	void (*drop_device)(fz_context *, fz_device *);
	void (*fill_path)(fz_context *, fz_device *, const fz_path *, int even_odd, fz_matrix, fz_colorspace *, const float *color, float alpha, fz_color_params);
	void (*stroke_path)(fz_context *, fz_device *, const fz_path *, const fz_stroke_state *, fz_matrix, fz_colorspace *, const float *color, float alpha, fz_color_params);
	void *other_callbacks[26]; // clip_path ... end_metatext
	fz_rect d1_rect;
	int container_len;
	int container_cap;
	void *container;
} vika_device_head;

fz_stext_page *fz_new_stext_page(fz_context *ctx, fz_rect mediabox);
void fz_drop_stext_page(fz_context *ctx, fz_stext_page *page);
fz_device *fz_new_stext_device(fz_context *ctx, fz_stext_page *page, const fz_stext_options *options);
void fz_print_stext_page_as_json(fz_context *ctx, fz_output *out, fz_stext_page *page, float scale);

fz_buffer *fz_new_buffer(fz_context *ctx, size_t capacity);
size_t fz_buffer_storage(fz_context *ctx, fz_buffer *buf, unsigned char **datap);
void fz_drop_buffer(fz_context *ctx, fz_buffer *buf);
fz_output *fz_new_output_with_buffer(fz_context *ctx, fz_buffer *buf);
void fz_close_output(fz_context *ctx, fz_output *out);
void fz_drop_output(fz_context *ctx, fz_output *out);

fz_colorspace *fz_device_gray(fz_context *ctx);
fz_pixmap *fz_new_pixmap_with_bbox_and_data(fz_context *ctx, fz_colorspace *cs, fz_irect rect, fz_separations *seps, int alpha, unsigned char *samples);
void fz_clear_pixmap_with_value(fz_context *ctx, fz_pixmap *pix, int value);
void fz_drop_pixmap(fz_context *ctx, fz_pixmap *pix);
fz_device *fz_new_draw_device(fz_context *ctx, fz_matrix transform, fz_pixmap *dest);

// Guarded wrappers (mupdf.c). Each catches every MuPDF exception; on
// failure it returns a negative value and copies the message into err.
int vika_count_pages(fz_context *ctx, fz_document *doc);
void vika_quiet(fz_context *ctx);
// vika_stext_json and vika_render_gray return VIKA_ABORTED when the
// cookie's abort flag was set during the run (the result is incomplete).
#define VIKA_ABORTED (-2)
int vika_stext_json(fz_context *ctx, fz_document *doc, int number, int flags, fz_cookie *cookie, float bounds[4], fz_buffer **json, char *err, int errlen);
int vika_render_gray(fz_context *ctx, fz_document *doc, int number, float scale, fz_irect area, fz_cookie *cookie, unsigned char *samples, char *err, int errlen);
// vika_path_boxes runs page number through a device that records the
// bounding box (x0, y0, x1, y1, stroked) of every filled or stroked vector
// path, up to cap boxes in out (5 floats each); *total counts them all.
int vika_path_boxes(fz_context *ctx, fz_document *doc, int number, fz_cookie *cookie, float *out, int cap, int *total, char *err, int errlen);
// vika_image_draws runs page number through a device that records every
// image it draws (filled or used as a stencil mask), up to cap of them in
// out, VIKA_IMAGE_FLOATS floats each: the bounding box on the page (x0,
// y0, x1, y1, points), the lengths in points of the image's two sides as
// placed, and its size in pixels (w, h); *total counts them all.
#define VIKA_IMAGE_FLOATS 8
int vika_image_draws(fz_context *ctx, fz_document *doc, int number, fz_cookie *cookie, float *out, int cap, int *total, char *err, int errlen);
int vika_bound_page(fz_context *ctx, fz_document *doc, int number, float bounds[4], char *err, int errlen);
void vika_drop_buffer(fz_context *ctx, fz_buffer *buf);

// fz_outline and fz_location as MuPDF 1.24 declares them (fitz/outline.h,
// fitz/types.h).
typedef struct { int chapter; int page; } fz_location;
typedef struct fz_outline {
	int refs;
	char *title;
	char *uri;
	fz_location page;
	float x, y;
	struct fz_outline *next;
	struct fz_outline *down;
	int is_open;
} fz_outline;
fz_outline *fz_load_outline(fz_context *ctx, fz_document *doc);
void fz_drop_outline(fz_context *ctx, fz_outline *outline);
int fz_lookup_metadata(fz_context *ctx, fz_document *doc, const char *key, char *buf, int size);

// vika_metadata copies the metadata value of key into buf (NUL-terminated,
// cut at size-1 bytes); it returns -1 when the key is absent or MuPDF fails.
int vika_metadata(fz_context *ctx, fz_document *doc, const char *key, char *buf, int size);
// One outline entry as vika_outline returns it: the 0-based page (-1 when
// the entry points nowhere in the document), the 0-based depth, and the
// title cut to VIKA_TITLE_MAX-1 bytes (NUL-terminated).
#define VIKA_TITLE_MAX 256
typedef struct {
	int page;
	int depth;
	char title[VIKA_TITLE_MAX];
} vika_outline_entry;
// vika_outline walks the outline depth-first, in document order, keeping
// entries shallower than maxdepth, at most cap of them in out, and visiting
// at most maxvisit nodes. It returns the number kept, or -1 on failure.
int vika_outline(fz_context *ctx, fz_document *doc, vika_outline_entry *out, int cap, int maxdepth, int maxvisit, char *err, int errlen);
size_t vika_buffer_data(fz_context *ctx, fz_buffer *buf, unsigned char **data);

// Annotations, form fields and links (MuPDF 1.24, pdf/annot.h, pdf/form.h,
// pdf/page.h, fitz/link.h). Only pointers to pdf objects are passed.
typedef struct pdf_document pdf_document;
typedef struct pdf_page pdf_page;
typedef struct pdf_annot pdf_annot;
typedef struct pdf_obj pdf_obj;
typedef struct fz_link {
	int refs;
	struct fz_link *next;
	fz_rect rect;
	char *uri;
	void *set_rect_fn;
	void *set_uri_fn;
	void *drop;
} fz_link;
pdf_page *pdf_page_from_fz_page(fz_context *ctx, fz_page *page);
pdf_annot *pdf_first_annot(fz_context *ctx, pdf_page *page);
pdf_annot *pdf_next_annot(fz_context *ctx, pdf_annot *annot);
pdf_annot *pdf_first_widget(fz_context *ctx, pdf_page *page);
pdf_annot *pdf_next_widget(fz_context *ctx, pdf_annot *widget);
int pdf_annot_type(fz_context *ctx, pdf_annot *annot); // enum pdf_annot_type
fz_rect pdf_bound_annot(fz_context *ctx, pdf_annot *annot);
const char *pdf_annot_contents(fz_context *ctx, pdf_annot *annot);
pdf_obj *pdf_annot_obj(fz_context *ctx, pdf_annot *annot);
const char *pdf_field_type_string(fz_context *ctx, pdf_obj *field);
const char *pdf_field_value(fz_context *ctx, pdf_obj *field);
const char *pdf_field_label(fz_context *ctx, pdf_obj *field);
char *pdf_load_field_name(fz_context *ctx, pdf_obj *field);
void fz_free(fz_context *ctx, void *p);
fz_link *fz_load_links(fz_context *ctx, fz_page *page);
void fz_drop_link(fz_context *ctx, fz_link *link);
int fz_is_external_link(fz_context *ctx, const char *uri);

// The pdf_annot_type values vika_marks reads (pdf/annot.h).
#define VIKA_ANNOT_LINK 1
#define VIKA_ANNOT_POPUP 16
#define VIKA_ANNOT_WIDGET 21

// One mark of a page as vika_marks returns it: a form field (kind
// VIKA_MARK_FIELD: type is MuPDF's field type string, name the field's
// full name, label its /TU or name, text its value), an annotation with
// contents (VIKA_MARK_NOTE: type is the annotation type number, text its
// contents) or a link to outside the document (VIKA_MARK_LINK: text its
// URI). Strings are cut to their buffers, NUL-terminated; box is in page
// space (points, origin at the top left).
#define VIKA_MARK_FIELD 1
#define VIKA_MARK_NOTE 2
#define VIKA_MARK_LINK 3
#define VIKA_MARK_NAME 256
#define VIKA_MARK_TEXT 2048
typedef struct {
	int kind;
	int annot;
	float box[4];
	char type[16];
	char name[VIKA_MARK_NAME];
	char label[VIKA_MARK_NAME];
	char text[VIKA_MARK_TEXT];
} vika_mark;
// vika_marks reads the widgets, annotations and external links of page
// number, visiting at most maxvisit of each and keeping at most cap marks
// in out. It returns the number kept, or -1 on failure (message in err).
int vika_marks(fz_context *ctx, fz_document *doc, int number, vika_mark *out, int cap, int maxvisit, char *err, int errlen);

// Writing annotations (MuPDF 1.24, pdf/annot.h, pdf/document.h): see
// annotate.c.
typedef struct { float x, y; } fz_point;
typedef struct { fz_point ul, ur, ll, lr; } fz_quad;
// The annotation kinds vika_annotate writes (enum pdf_annot_type).
#define VIKA_ANNOT_TEXT 0
#define VIKA_ANNOT_HIGHLIGHT 8
// vika_encrypted returns 1 when the document has an /Encrypt dictionary
// (even one opened without a password), 0 when not, -1 when it is not a
// PDF MuPDF can edit.
int vika_encrypted(fz_context *ctx, fz_document *doc);
// vika_annotate adds one annotation to page number (0-based): a
// highlight (VIKA_ANNOT_HIGHLIGHT) over the n boxes of boxes (x0, y0,
// x1, y1 each, page space), or a text note (VIKA_ANNOT_TEXT) whose icon
// sits at boxes[0]'s top-left corner; color is RGB, contents UTF-8, author
// UTF-8. It returns 0, or -1 with MuPDF's message in err.
int vika_annotate(fz_context *ctx, fz_document *doc, int number, int type, const float *boxes, int n, const float color[3], const char *contents, const char *author, char *err, int errlen);
// vika_save_pdf writes the document, with its changes, into a new
// buffer: as an incremental update after the original bytes when
// incremental is set and MuPDF can (not for a repaired file), else
// whole. It returns 1 for an incremental update, 0 for a whole file, or
// -1 with MuPDF's message in err.
// One highlight or text annotation as vika_read_annots returns it: its
// type, rectangle and quadrilaterals' boxes (page space), its colour
// (ncolor components: 0 none, 1 gray, 3 RGB, 4 CMYK) and contents.
#define VIKA_ANNOT_QUADS 200
typedef struct {
	int type;
	float rect[4];
	int ncolor;
	float color[4];
	int nquads;
	float quads[4 * VIKA_ANNOT_QUADS];
	char text[VIKA_MARK_TEXT];
} vika_annot;
// vika_read_annots reads the highlight and text annotations of page
// number, visiting at most maxvisit annotations, keeping at most cap. It
// returns the number kept, or -1 with MuPDF's message in err.
int vika_read_annots(fz_context *ctx, fz_document *doc, int number, vika_annot *out, int cap, int maxvisit, char *err, int errlen);
int vika_save_pdf(fz_context *ctx, fz_document *doc, int incremental, fz_buffer **out, char *err, int errlen);

#endif
