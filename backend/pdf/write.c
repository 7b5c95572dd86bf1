// MuPDF's other document handlers (images, EPUB, XPS, CBZ, FB2, MOBI,
// Office) written out as PDF, inside fz_try like mupdf.c.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "write.h"

#define VIKA_TRY(ctx) if (!vika_setjmp(*fz_push_try(ctx))) if (fz_do_try(ctx)) do
#define VIKA_ALWAYS(ctx) while (0); if (fz_do_always(ctx)) do
#define VIKA_CATCH(ctx) while (0); if (fz_do_catch(ctx))

int vika_write_pdf(const char *magic, const unsigned char *data, size_t len, size_t store, float w, float h, float em, float maxside, int maxpages, size_t maxbytes, fz_cookie *cookie, unsigned char **out, size_t *outlen, int *pages, char *err, int errlen) {
	fz_context *ctx = fz_new_context_imp(NULL, NULL, store, VIKA_FZ_VERSION);
	if (!ctx) {
		snprintf(err, errlen, "cannot create a MuPDF context");
		return VIKA_WRITE_CONTEXT;
	}
	vika_quiet(ctx);
	fz_stream *volatile stm = NULL;
	fz_document *volatile doc = NULL;
	fz_page *volatile page = NULL;
	fz_buffer *volatile buf = NULL;
	fz_output *volatile o = NULL;
	fz_document_writer *volatile wri = NULL;
	volatile int rc = 0;
	*out = NULL;
	*outlen = 0;
	*pages = 0;
	VIKA_TRY(ctx) {
		fz_register_document_handlers(ctx);
		stm = fz_open_memory(ctx, data, len);
		doc = fz_open_document_with_stream(ctx, magic, stm);
		if (fz_needs_password(ctx, doc)) {
			rc = VIKA_WRITE_PASSWORD;
			break;
		}
		if (fz_is_document_reflowable(ctx, doc)) {
			fz_layout_document(ctx, doc, w, h, em);
		}
		int n = fz_count_pages(ctx, doc);
		*pages = n;
		if (n <= 0) {
			rc = VIKA_WRITE_NOPAGES;
			break;
		}
		if (maxpages > 0 && n > maxpages) {
			rc = VIKA_WRITE_PAGES;
			break;
		}
		buf = fz_new_buffer(ctx, 65536);
		o = fz_new_output_with_buffer(ctx, buf);
		wri = fz_new_pdf_writer_with_output(ctx, o, "compress");
		o = NULL; // the writer owns it now, and closes and drops it
		for (int i = 0; i < n && !cookie->abort; i++) {
			page = fz_load_page(ctx, doc, i);
			fz_rect r = fz_bound_page(ctx, page);
			float pw = r.x1 - r.x0, ph = r.y1 - r.y0, s = 1;
			float side = pw > ph ? pw : ph;
			if (maxside > 0 && side > maxside) {
				s = maxside / side;
			}
			fz_rect box = {0, 0, pw * s, ph * s};
			fz_matrix m = {s, 0, 0, s, -r.x0 * s, -r.y0 * s};
			fz_device *dev = fz_begin_page(ctx, wri, box);
			fz_run_page(ctx, page, dev, m, cookie);
			fz_end_page(ctx, wri);
			fz_drop_page(ctx, page);
			page = NULL;
			unsigned char *d;
			if (maxbytes > 0 && fz_buffer_storage(ctx, buf, &d) > maxbytes) {
				rc = VIKA_WRITE_BYTES;
				break;
			}
		}
		if (rc == 0 && !cookie->abort) {
			fz_close_document_writer(ctx, wri);
		}
	}
	VIKA_ALWAYS(ctx) {
		fz_drop_page(ctx, page);
		fz_drop_document_writer(ctx, wri);
		fz_drop_output(ctx, o);
		fz_drop_document(ctx, doc);
		fz_drop_stream(ctx, stm);
	}
	VIKA_CATCH(ctx) {
		snprintf(err, errlen, "%s", fz_caught_message(ctx));
		rc = cookie->abort ? VIKA_ABORTED : VIKA_WRITE_FAILED;
	}
	if (rc == 0 && cookie->abort) {
		rc = VIKA_ABORTED;
	}
	if (rc == 0) {
		unsigned char *d;
		size_t n = fz_buffer_storage(ctx, buf, &d);
		if (maxbytes > 0 && n > maxbytes) {
			rc = VIKA_WRITE_BYTES;
		} else {
			*out = malloc(n ? n : 1);
			if (!*out) {
				snprintf(err, errlen, "out of memory");
				rc = VIKA_WRITE_FAILED;
			} else {
				memcpy(*out, d, n);
				*outlen = n;
			}
		}
	}
	fz_drop_buffer(ctx, buf);
	fz_drop_context(ctx);
	return rc;
}
