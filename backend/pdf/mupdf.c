// Guarded calls into MuPDF. Every call that may throw runs inside the
// expansion of fz_try/fz_always/fz_catch, so a malformed page reports an
// error instead of aborting the process, and every object is dropped on
// the success and the error path alike (fz_drop_* accept NULL).
#include <math.h>
#include <stdio.h>
#include "mupdf.h"

void vika_caught(fz_context *ctx, char *err, int errlen) {
	if (err && errlen > 0) {
		snprintf(err, errlen, "%s", fz_caught_message(ctx));
	}
}

int vika_count_pages(fz_context *ctx, fz_document *doc) {
	volatile int n = -1;
	VIKA_TRY(ctx) {
		n = fz_count_pages(ctx, doc);
	}
	VIKA_CATCH(ctx) {
		return -1;
	}
	return n;
}

void vika_quiet(fz_context *ctx) {
	fz_set_warning_callback(ctx, 0, 0);
	fz_set_error_callback(ctx, 0, 0);
}

int vika_stext_json(fz_context *ctx, fz_document *doc, int number, int flags, fz_cookie *cookie, float bounds[4], fz_buffer **json, char *err, int errlen) {
	fz_page *volatile page = NULL;
	fz_stext_page *volatile text = NULL;
	fz_device *volatile dev = NULL;
	fz_buffer *volatile buf = NULL;
	fz_output *volatile out = NULL;
	volatile int failed = 0;
	fz_matrix identity = {1, 0, 0, 1, 0, 0};
	fz_stext_options opts = {flags, 1};
	*json = NULL;
	VIKA_TRY(ctx) {
		page = fz_load_page(ctx, doc, number);
		fz_rect r = fz_bound_page(ctx, page);
		bounds[0] = r.x0; bounds[1] = r.y0; bounds[2] = r.x1; bounds[3] = r.y1;
		text = fz_new_stext_page(ctx, r);
		dev = fz_new_stext_device(ctx, text, &opts);
		fz_run_page_contents(ctx, page, dev, identity, cookie);
		fz_close_device(ctx, dev);
		if (cookie->abort) {
			break; // leaves the fz_try body: nothing more to print
		}
		buf = fz_new_buffer(ctx, 16384);
		out = fz_new_output_with_buffer(ctx, buf);
		fz_print_stext_page_as_json(ctx, out, text, 10);
		fz_close_output(ctx, out);
	}
	VIKA_ALWAYS(ctx) {
		fz_drop_output(ctx, out);
		fz_drop_device(ctx, dev);
		fz_drop_stext_page(ctx, text);
		fz_drop_page(ctx, page);
	}
	VIKA_CATCH(ctx) {
		vika_caught(ctx, err, errlen);
		failed = 1;
	}
	if (failed || cookie->abort) {
		fz_drop_buffer(ctx, buf);
		return cookie->abort ? VIKA_ABORTED : -1;
	}
	*json = buf;
	return 0;
}

int vika_render_gray(fz_context *ctx, fz_document *doc, int number, float scale, fz_irect area, fz_cookie *cookie, unsigned char *samples, char *err, int errlen) {
	fz_page *volatile page = NULL;
	fz_pixmap *volatile pix = NULL;
	fz_device *volatile dev = NULL;
	volatile int failed = 0;
	fz_matrix identity = {1, 0, 0, 1, 0, 0};
	fz_matrix ctm = {scale, 0, 0, scale, 0, 0};
	VIKA_TRY(ctx) {
		page = fz_load_page(ctx, doc, number);
		pix = fz_new_pixmap_with_bbox_and_data(ctx, fz_device_gray(ctx), area, NULL, 0, samples);
		fz_clear_pixmap_with_value(ctx, pix, 255);
		dev = fz_new_draw_device(ctx, identity, pix);
		fz_run_page_contents(ctx, page, dev, ctm, cookie);
		fz_close_device(ctx, dev);
	}
	VIKA_ALWAYS(ctx) {
		fz_drop_device(ctx, dev);
		fz_drop_pixmap(ctx, pix);
		fz_drop_page(ctx, page);
	}
	VIKA_CATCH(ctx) {
		vika_caught(ctx, err, errlen);
		failed = 1;
	}
	if (cookie->abort) {
		return VIKA_ABORTED;
	}
	return failed ? -1 : 0;
}

// The path device: records path boxes into a caller's buffer, never
// allocating, so a page of a million paths costs time (bounded by the
// cookie) but no memory.
typedef struct {
	vika_device_head head;
	float *out;
	int cap;
	int n;
} vika_path_device;

static void record_box(fz_device *dev, fz_rect r, int stroked) {
	vika_path_device *p = (vika_path_device *)dev;
	if (p->n < p->cap) {
		float *o = p->out + 5 * p->n;
		o[0] = r.x0; o[1] = r.y0; o[2] = r.x1; o[3] = r.y1; o[4] = (float)stroked;
	}
	p->n++;
}

static void path_fill(fz_context *ctx, fz_device *dev, const fz_path *path, int even_odd, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp) {
	record_box(dev, fz_bound_path(ctx, path, NULL, ctm), 0);
}

static void path_stroke(fz_context *ctx, fz_device *dev, const fz_path *path, const fz_stroke_state *stroke, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp) {
	record_box(dev, fz_bound_path(ctx, path, NULL, ctm), 1); // the geometry: a stroke's miter allowance would swell a rule to 8 pt
}

int vika_path_boxes(fz_context *ctx, fz_document *doc, int number, fz_cookie *cookie, float *out, int cap, int *total, char *err, int errlen) {
	fz_page *volatile page = NULL;
	fz_device *volatile dev = NULL;
	volatile int failed = 0;
	fz_matrix identity = {1, 0, 0, 1, 0, 0};
	*total = 0;
	VIKA_TRY(ctx) {
		page = fz_load_page(ctx, doc, number);
		dev = fz_new_device_of_size(ctx, sizeof(vika_path_device));
		vika_path_device *p = (vika_path_device *)dev;
		p->head.fill_path = path_fill;
		p->head.stroke_path = path_stroke;
		p->out = out;
		p->cap = cap;
		fz_run_page_contents(ctx, page, dev, identity, cookie);
		fz_close_device(ctx, dev);
		*total = p->n;
	}
	VIKA_ALWAYS(ctx) {
		fz_drop_device(ctx, dev);
		fz_drop_page(ctx, page);
	}
	VIKA_CATCH(ctx) {
		vika_caught(ctx, err, errlen);
		failed = 1;
	}
	if (cookie->abort) {
		return VIKA_ABORTED;
	}
	return failed ? -1 : 0;
}

// The head of struct fz_image as MuPDF 1.24 lays it out (fitz/image.h,
// fitz/store.h): an fz_key_storable (an fz_storable and a short), then
// the image's width and height in pixels. Nested as MuPDF nests it, so
// the padding is the same.
typedef struct {
	struct {
		int refs;
		void *drop;
		void *droppable;
	} storable;
	short store_key_refs;
} vika_key_storable;

typedef struct {
	vika_key_storable key_storable;
	int w, h;
} vika_image_head;

// The image device: records image draws into a caller's buffer, never
// allocating.
typedef struct {
	vika_device_head head;
	float *out;
	int cap;
	int n;
} vika_image_device;

static float side(float x, float y) {
	return sqrtf(x * x + y * y);
}

static void record_image(fz_device *dev, fz_image *img, fz_matrix m) {
	vika_image_device *d = (vika_image_device *)dev;
	if (d->n < d->cap) {
		// the image is the unit square mapped by m
		float xs[4] = {m.e, m.a + m.e, m.c + m.e, m.a + m.c + m.e};
		float ys[4] = {m.f, m.b + m.f, m.d + m.f, m.b + m.d + m.f};
		float *o = d->out + VIKA_IMAGE_FLOATS * d->n;
		o[0] = o[2] = xs[0];
		o[1] = o[3] = ys[0];
		for (int i = 1; i < 4; i++) {
			o[0] = fminf(o[0], xs[i]); o[2] = fmaxf(o[2], xs[i]);
			o[1] = fminf(o[1], ys[i]); o[3] = fmaxf(o[3], ys[i]);
		}
		o[4] = side(m.a, m.b);
		o[5] = side(m.c, m.d);
		const vika_image_head *h = (const vika_image_head *)img;
		o[6] = (float)h->w;
		o[7] = (float)h->h;
	}
	d->n++;
}

static void image_fill(fz_context *ctx, fz_device *dev, fz_image *img, fz_matrix ctm, float alpha, fz_color_params cp) {
	record_image(dev, img, ctm);
}

static void image_mask_fill(fz_context *ctx, fz_device *dev, fz_image *img, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp) {
	record_image(dev, img, ctm);
}

// Positions of fill_image and fill_image_mask among the device's
// callbacks after stroke_path (fitz/device.h: clip_path, clip_stroke_path,
// fill_text, stroke_text, clip_text, clip_stroke_text, ignore_text,
// fill_shade, fill_image, fill_image_mask).
#define VIKA_FILL_IMAGE 8
#define VIKA_FILL_IMAGE_MASK 9

int vika_image_draws(fz_context *ctx, fz_document *doc, int number, fz_cookie *cookie, float *out, int cap, int *total, char *err, int errlen) {
	fz_page *volatile page = NULL;
	fz_device *volatile dev = NULL;
	volatile int failed = 0;
	fz_matrix identity = {1, 0, 0, 1, 0, 0};
	*total = 0;
	VIKA_TRY(ctx) {
		page = fz_load_page(ctx, doc, number);
		dev = fz_new_device_of_size(ctx, sizeof(vika_image_device));
		vika_image_device *d = (vika_image_device *)dev;
		d->head.other_callbacks[VIKA_FILL_IMAGE] = (void *)image_fill;
		d->head.other_callbacks[VIKA_FILL_IMAGE_MASK] = (void *)image_mask_fill;
		d->out = out;
		d->cap = cap;
		fz_run_page_contents(ctx, page, dev, identity, cookie);
		fz_close_device(ctx, dev);
		*total = d->n;
	}
	VIKA_ALWAYS(ctx) {
		fz_drop_device(ctx, dev);
		fz_drop_page(ctx, page);
	}
	VIKA_CATCH(ctx) {
		vika_caught(ctx, err, errlen);
		failed = 1;
	}
	if (cookie->abort) {
		return VIKA_ABORTED;
	}
	return failed ? -1 : 0;
}

int vika_bound_page(fz_context *ctx, fz_document *doc, int number, float bounds[4], char *err, int errlen) {
	fz_page *volatile page = NULL;
	volatile int failed = 0;
	VIKA_TRY(ctx) {
		page = fz_load_page(ctx, doc, number);
		fz_rect r = fz_bound_page(ctx, page);
		bounds[0] = r.x0; bounds[1] = r.y0; bounds[2] = r.x1; bounds[3] = r.y1;
	}
	VIKA_ALWAYS(ctx) {
		fz_drop_page(ctx, page);
	}
	VIKA_CATCH(ctx) {
		vika_caught(ctx, err, errlen);
		failed = 1;
	}
	return failed ? -1 : 0;
}

void vika_drop_buffer(fz_context *ctx, fz_buffer *buf) {
	fz_drop_buffer(ctx, buf);
}

size_t vika_buffer_data(fz_context *ctx, fz_buffer *buf, unsigned char **data) {
	return fz_buffer_storage(ctx, buf, data);
}

int vika_metadata(fz_context *ctx, fz_document *doc, const char *key, char *buf, int size) {
	volatile int n = -1;
	if (size <= 0) {
		return -1;
	}
	buf[0] = 0;
	VIKA_TRY(ctx) {
		n = fz_lookup_metadata(ctx, doc, key, buf, size);
	}
	VIKA_CATCH(ctx) {
		return -1;
	}
	buf[size - 1] = 0;
	return n;
}

int vika_outline(fz_context *ctx, fz_document *doc, vika_outline_entry *out, int cap, int maxdepth, int maxvisit, char *err, int errlen) {
	fz_outline *volatile root = NULL;
	volatile int failed = 0;
	int n = 0;
	VIKA_TRY(ctx) {
		root = fz_load_outline(ctx, doc);
	}
	VIKA_CATCH(ctx) {
		vika_caught(ctx, err, errlen);
		failed = 1;
	}
	if (failed) {
		return -1;
	}
	// Depth-first walk with an explicit stack of the next siblings, so a
	// deep or wide outline costs no C stack; MuPDF's loader already breaks
	// cycles, and maxvisit bounds the walk whatever the tree holds.
	fz_outline *stack[64];
	int depth = 0, visited = 0;
	fz_outline *node = root;
	if (maxdepth > 64) {
		maxdepth = 64;
	}
	while (node && n < cap && visited < maxvisit) {
		visited++;
		out[n].page = node->page.chapter == 0 ? node->page.page : -1;
		out[n].depth = depth;
		snprintf(out[n].title, VIKA_TITLE_MAX, "%s", node->title ? node->title : "");
		n++;
		if (node->down && depth + 1 < maxdepth) {
			stack[depth++] = node->next;
			node = node->down;
			continue;
		}
		node = node->next;
		while (!node && depth > 0) {
			node = stack[--depth];
		}
	}
	fz_drop_outline(ctx, root);
	return n;
}

static void copy_str(char *dst, int size, const char *src) {
	snprintf(dst, size, "%s", src ? src : "");
}

static void set_box(vika_mark *m, fz_rect r) {
	m->box[0] = r.x0; m->box[1] = r.y0; m->box[2] = r.x1; m->box[3] = r.y1;
}

int vika_marks(fz_context *ctx, fz_document *doc, int number, vika_mark *out, int cap, int maxvisit, char *err, int errlen) {
	fz_page *volatile page = NULL;
	fz_link *volatile links = NULL;
	volatile int n = 0;
	volatile int failed = 0;
	VIKA_TRY(ctx) {
		page = fz_load_page(ctx, doc, number);
		pdf_page *pp = pdf_page_from_fz_page(ctx, page);
		if (pp) {
			int visited = 0;
			for (pdf_annot *w = pdf_first_widget(ctx, pp); w && n < cap && visited < maxvisit; w = pdf_next_widget(ctx, w)) {
				visited++;
				pdf_obj *obj = pdf_annot_obj(ctx, w);
				vika_mark *m = &out[n];
				m->kind = VIKA_MARK_FIELD;
				m->annot = VIKA_ANNOT_WIDGET;
				set_box(m, pdf_bound_annot(ctx, w));
				copy_str(m->type, sizeof m->type, pdf_field_type_string(ctx, obj));
				char *name = pdf_load_field_name(ctx, obj);
				copy_str(m->name, sizeof m->name, name);
				fz_free(ctx, name);
				copy_str(m->label, sizeof m->label, pdf_field_label(ctx, obj));
				copy_str(m->text, sizeof m->text, pdf_field_value(ctx, obj));
				n++;
			}
			visited = 0;
			for (pdf_annot *a = pdf_first_annot(ctx, pp); a && n < cap && visited < maxvisit; a = pdf_next_annot(ctx, a)) {
				visited++;
				int type = pdf_annot_type(ctx, a);
				if (type == VIKA_ANNOT_LINK || type == VIKA_ANNOT_POPUP || type == VIKA_ANNOT_WIDGET) {
					continue;
				}
				const char *contents = pdf_annot_contents(ctx, a);
				vika_mark *m = &out[n];
				m->kind = VIKA_MARK_NOTE;
				m->annot = type;
				set_box(m, pdf_bound_annot(ctx, a));
				m->type[0] = m->name[0] = m->label[0] = 0;
				copy_str(m->text, sizeof m->text, contents);
				n++;
			}
		}
		links = fz_load_links(ctx, page);
		int visited = 0;
		for (fz_link *l = links; l && n < cap && visited < maxvisit; l = l->next) {
			visited++;
			if (!l->uri || !fz_is_external_link(ctx, l->uri)) {
				continue;
			}
			vika_mark *m = &out[n];
			m->kind = VIKA_MARK_LINK;
			m->annot = VIKA_ANNOT_LINK;
			set_box(m, l->rect);
			m->type[0] = m->name[0] = m->label[0] = 0;
			copy_str(m->text, sizeof m->text, l->uri);
			n++;
		}
	}
	VIKA_ALWAYS(ctx) {
		fz_drop_link(ctx, links);
		fz_drop_page(ctx, page);
	}
	VIKA_CATCH(ctx) {
		vika_caught(ctx, err, errlen);
		failed = 1;
	}
	return failed ? -1 : n;
}
