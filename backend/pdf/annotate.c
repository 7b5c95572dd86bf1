// Writing annotations through MuPDF's own API (pdf/annot.h), each call
// inside fz_try like the rest of the package's C (mupdf.c).
#include <stdio.h>
#include "mupdf.h"

typedef struct pdf_write_options pdf_write_options;
pdf_document *pdf_document_from_fz_document(fz_context *ctx, fz_document *doc);
pdf_obj *pdf_trailer(fz_context *ctx, pdf_document *doc);
pdf_obj *pdf_dict_gets(fz_context *ctx, pdf_obj *dict, const char *key);
pdf_annot *pdf_create_annot(fz_context *ctx, pdf_page *page, int type);
void pdf_drop_annot(fz_context *ctx, pdf_annot *annot);
void pdf_set_annot_rect(fz_context *ctx, pdf_annot *annot, fz_rect rect);
void pdf_set_annot_quad_points(fz_context *ctx, pdf_annot *annot, int n, const fz_quad *qv);
void pdf_set_annot_color(fz_context *ctx, pdf_annot *annot, int n, const float *color);
void pdf_set_annot_contents(fz_context *ctx, pdf_annot *annot, const char *text);
void pdf_set_annot_author(fz_context *ctx, pdf_annot *annot, const char *author);
void pdf_set_annot_icon_name(fz_context *ctx, pdf_annot *annot, const char *name);
int pdf_update_annot(fz_context *ctx, pdf_annot *annot);
int pdf_can_be_saved_incrementally(fz_context *ctx, pdf_document *doc);
pdf_write_options *pdf_parse_write_options(fz_context *ctx, pdf_write_options *opts, const char *args);
void pdf_write_document(fz_context *ctx, pdf_document *doc, fz_output *out, const pdf_write_options *opts);
void *fz_calloc(fz_context *ctx, size_t count, size_t size);

// The side of a note's icon, in points (what Acrobat and MuPDF draw).
#define VIKA_NOTE_ICON 20

int vika_encrypted(fz_context *ctx, fz_document *doc) {
	volatile int enc = -1;
	VIKA_TRY(ctx) {
		pdf_document *pdf = pdf_document_from_fz_document(ctx, doc);
		if (pdf) {
			enc = pdf_dict_gets(ctx, pdf_trailer(ctx, pdf), "Encrypt") != NULL;
		}
	}
	VIKA_CATCH(ctx) {
		return -1;
	}
	return enc;
}

int vika_annotate(fz_context *ctx, fz_document *doc, int number, int type, const float *boxes, int n, const float color[3], const char *contents, const char *author, char *err, int errlen) {
	fz_page *volatile page = NULL;
	pdf_annot *volatile annot = NULL;
	fz_quad *volatile quads = NULL;
	volatile int failed = 0;
	VIKA_TRY(ctx) {
		page = fz_load_page(ctx, doc, number);
		pdf_page *pp = pdf_page_from_fz_page(ctx, page);
		if (!pp) {
			snprintf(err, errlen, "%s", "not a PDF page");
			failed = 1;
			break;
		}
		annot = pdf_create_annot(ctx, pp, type);
		if (type == VIKA_ANNOT_HIGHLIGHT) {
			quads = fz_calloc(ctx, n, sizeof(fz_quad));
			fz_rect r = {boxes[0], boxes[1], boxes[2], boxes[3]};
			for (int i = 0; i < n; i++) {
				const float *b = boxes + 4 * i;
				fz_quad q = {{b[0], b[1]}, {b[2], b[1]}, {b[0], b[3]}, {b[2], b[3]}};
				quads[i] = q;
				if (b[0] < r.x0) r.x0 = b[0];
				if (b[1] < r.y0) r.y0 = b[1];
				if (b[2] > r.x1) r.x1 = b[2];
				if (b[3] > r.y1) r.y1 = b[3];
			}
			pdf_set_annot_quad_points(ctx, annot, n, quads);
		} else {
			fz_rect r = {boxes[0], boxes[1], boxes[0] + VIKA_NOTE_ICON, boxes[1] + VIKA_NOTE_ICON};
			pdf_set_annot_rect(ctx, annot, r);
			pdf_set_annot_icon_name(ctx, annot, "Comment");
		}
		pdf_set_annot_color(ctx, annot, 3, color);
		if (contents && contents[0]) {
			pdf_set_annot_contents(ctx, annot, contents);
		}
		if (author && author[0]) {
			pdf_set_annot_author(ctx, annot, author);
		}
		pdf_update_annot(ctx, annot);
	}
	VIKA_ALWAYS(ctx) {
		fz_free(ctx, quads);
		pdf_drop_annot(ctx, annot);
		fz_drop_page(ctx, page);
	}
	VIKA_CATCH(ctx) {
		vika_caught(ctx, err, errlen);
		failed = 1;
	}
	return failed ? -1 : 0;
}

// The options are parsed by MuPDF into storage larger than its
// pdf_write_options (a few hundred bytes in 1.24), so this file needs
// none of the struct's layout.
#define VIKA_WRITE_OPTIONS_SIZE 8192

int vika_save_pdf(fz_context *ctx, fz_document *doc, int incremental, fz_buffer **out, char *err, int errlen) {
	fz_buffer *volatile buf = NULL;
	fz_output *volatile o = NULL;
	void *volatile opts = NULL;
	volatile int failed = 0;
	volatile int inc = incremental;
	*out = NULL;
	VIKA_TRY(ctx) {
		pdf_document *pdf = pdf_document_from_fz_document(ctx, doc);
		if (!pdf) {
			snprintf(err, errlen, "%s", "not a PDF");
			failed = 1;
			break;
		}
		opts = fz_calloc(ctx, 1, VIKA_WRITE_OPTIONS_SIZE);
		if (inc && !pdf_can_be_saved_incrementally(ctx, pdf)) {
			inc = 0;
		}
		pdf_parse_write_options(ctx, opts, inc ? "incremental" : "");
		buf = fz_new_buffer(ctx, 1 << 16);
		o = fz_new_output_with_buffer(ctx, buf);
		pdf_write_document(ctx, pdf, o, opts);
		fz_close_output(ctx, o);
	}
	VIKA_ALWAYS(ctx) {
		fz_drop_output(ctx, o);
		fz_free(ctx, opts);
	}
	VIKA_CATCH(ctx) {
		vika_caught(ctx, err, errlen);
		failed = 1;
	}
	if (failed) {
		fz_drop_buffer(ctx, buf);
		return -1;
	}
	*out = buf;
	return inc ? 1 : 0;
}

void pdf_annot_color(fz_context *ctx, pdf_annot *annot, int *n, float color[4]);
int pdf_annot_quad_point_count(fz_context *ctx, pdf_annot *annot);
fz_quad pdf_annot_quad_point(fz_context *ctx, pdf_annot *annot, int i);

static float min4(float a, float b, float c, float d) {
	float m = a < b ? a : b;
	m = m < c ? m : c;
	return m < d ? m : d;
}

static float max4(float a, float b, float c, float d) {
	float m = a > b ? a : b;
	m = m > c ? m : c;
	return m > d ? m : d;
}

int vika_read_annots(fz_context *ctx, fz_document *doc, int number, vika_annot *out, int cap, int maxvisit, char *err, int errlen) {
	fz_page *volatile page = NULL;
	volatile int n = 0;
	volatile int failed = 0;
	VIKA_TRY(ctx) {
		page = fz_load_page(ctx, doc, number);
		pdf_page *pp = pdf_page_from_fz_page(ctx, page);
		int visited = 0;
		for (pdf_annot *a = pp ? pdf_first_annot(ctx, pp) : NULL; a && n < cap && visited < maxvisit; a = pdf_next_annot(ctx, a)) {
			visited++;
			int type = pdf_annot_type(ctx, a);
			if (type != VIKA_ANNOT_TEXT && type != VIKA_ANNOT_HIGHLIGHT) {
				continue;
			}
			vika_annot *o = &out[n];
			o->type = type;
			fz_rect r = pdf_bound_annot(ctx, a);
			o->rect[0] = r.x0; o->rect[1] = r.y0; o->rect[2] = r.x1; o->rect[3] = r.y1;
			float c[4] = {0, 0, 0, 0};
			int nc = 0;
			pdf_annot_color(ctx, a, &nc, c);
			o->ncolor = nc;
			for (int i = 0; i < 4; i++) o->color[i] = c[i];
			o->nquads = 0;
			if (type == VIKA_ANNOT_HIGHLIGHT) {
				int nq = pdf_annot_quad_point_count(ctx, a);
				for (int i = 0; i < nq && i < VIKA_ANNOT_QUADS; i++) {
					fz_quad q = pdf_annot_quad_point(ctx, a, i);
					float *b = o->quads + 4 * i;
					b[0] = min4(q.ul.x, q.ur.x, q.ll.x, q.lr.x);
					b[1] = min4(q.ul.y, q.ur.y, q.ll.y, q.lr.y);
					b[2] = max4(q.ul.x, q.ur.x, q.ll.x, q.lr.x);
					b[3] = max4(q.ul.y, q.ur.y, q.ll.y, q.lr.y);
					o->nquads++;
				}
			}
			const char *contents = pdf_annot_contents(ctx, a);
			snprintf(o->text, VIKA_MARK_TEXT, "%s", contents ? contents : "");
			n++;
		}
	}
	VIKA_ALWAYS(ctx) {
		fz_drop_page(ctx, page);
	}
	VIKA_CATCH(ctx) {
		vika_caught(ctx, err, errlen);
		failed = 1;
	}
	return failed ? -1 : n;
}
