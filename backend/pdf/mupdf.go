package pdf

// go-fitz calls a few MuPDF functions outside fz_try. An exception thrown
// there has no handler and MuPDF terminates the whole process ("aborting
// process from uncaught error!"); fz_count_pages does that on a page tree
// with a negative /Count. This file calls those functions inside fz_try,
// against the MuPDF library that go-fitz links statically, using the
// context and document handles of the go-fitz Document.

/*
#include <setjmp.h>

typedef struct fz_context fz_context;
typedef struct fz_document fz_document;
typedef void (fz_message_cb)(void *user, const char *message);

// Prototypes of the MuPDF 1.24 API (include/mupdf/fitz/context.h and
// document.h); fz_try expands to fz_push_try/fz_do_try/fz_do_catch.
int fz_count_pages(fz_context *ctx, fz_document *doc);
sigjmp_buf *fz_push_try(fz_context *ctx);
int fz_do_try(fz_context *ctx);
int fz_do_catch(fz_context *ctx);
void fz_set_warning_callback(fz_context *ctx, fz_message_cb *cb, void *user);
void fz_set_error_callback(fz_context *ctx, fz_message_cb *cb, void *user);

static int vika_count_pages(void *ctx, void *doc) {
	volatile int n = -1;
	if (!sigsetjmp(*fz_push_try(ctx), 0)) {
		if (fz_do_try(ctx)) do {
			n = fz_count_pages(ctx, doc);
		} while (0);
	}
	if (fz_do_catch(ctx)) {
		return -1;
	}
	return n;
}

static void vika_quiet(void *ctx) {
	fz_set_warning_callback(ctx, 0, 0);
	fz_set_error_callback(ctx, 0, 0);
}
*/
import "C"

import (
	"reflect"
	"unsafe"

	fitz "github.com/gen2brain/go-fitz"
)

// handles returns the MuPDF context and document of d, or ok=false if
// this go-fitz version lays out its Document differently.
func handles(d *fitz.Document) (ctx, doc unsafe.Pointer, ok bool) {
	v := reflect.ValueOf(d).Elem()
	c, f := v.FieldByName("ctx"), v.FieldByName("doc")
	if !c.IsValid() || !f.IsValid() || c.Kind() != reflect.Pointer || f.Kind() != reflect.Pointer {
		return nil, nil, false
	}
	ctx, doc = c.UnsafePointer(), f.UnsafePointer()
	return ctx, doc, ctx != nil && doc != nil
}

// countPages returns the number of pages, or -1 if MuPDF cannot count them.
func countPages(d *fitz.Document) int {
	ctx, doc, ok := handles(d)
	if !ok {
		return d.NumPage() // unguarded fallback; TestHandles catches layout changes
	}
	return int(C.vika_count_pages(ctx, doc))
}

// quiet stops MuPDF printing warnings and errors to stderr; failures are
// reported through Page.Err instead.
func quiet(d *fitz.Document) {
	if ctx, _, ok := handles(d); ok {
		C.vika_quiet(ctx)
	}
}
