// Declarations of the MuPDF 1.24 document writer and document opening
// that write.c calls (fitz/writer.h, fitz/document.h, fitz/stream.h,
// fitz/context.h in go-fitz's bundled headers), and write.c's own guarded
// wrapper.
#ifndef VIKA_WRITE_H
#define VIKA_WRITE_H

#include "mupdf.h"

// VIKA_FZ_VERSION must equal the FZ_VERSION of the MuPDF go-fitz links
// (TestWritePDF fails otherwise): fz_new_context_imp refuses another.
#define VIKA_FZ_VERSION "1.24.9"

typedef struct fz_stream fz_stream;
typedef struct fz_document_writer fz_document_writer;
typedef struct fz_alloc_context fz_alloc_context;
typedef struct fz_locks_context fz_locks_context;

fz_context *fz_new_context_imp(const fz_alloc_context *alloc, const fz_locks_context *locks, size_t max_store, const char *version);
void fz_drop_context(fz_context *ctx);
void fz_register_document_handlers(fz_context *ctx);
fz_stream *fz_open_memory(fz_context *ctx, const unsigned char *data, size_t len);
void fz_drop_stream(fz_context *ctx, fz_stream *stm);
fz_document *fz_open_document_with_stream(fz_context *ctx, const char *magic, fz_stream *stream);
void fz_drop_document(fz_context *ctx, fz_document *doc);
int fz_needs_password(fz_context *ctx, fz_document *doc);
int fz_is_document_reflowable(fz_context *ctx, fz_document *doc);
void fz_layout_document(fz_context *ctx, fz_document *doc, float w, float h, float em);
void fz_run_page(fz_context *ctx, fz_page *page, fz_device *dev, fz_matrix transform, fz_cookie *cookie);
fz_document_writer *fz_new_pdf_writer_with_output(fz_context *ctx, fz_output *out, const char *options);
fz_device *fz_begin_page(fz_context *ctx, fz_document_writer *wri, fz_rect mediabox);
void fz_end_page(fz_context *ctx, fz_document_writer *wri);
void fz_close_document_writer(fz_context *ctx, fz_document_writer *wri);
void fz_drop_document_writer(fz_context *ctx, fz_document_writer *wri);

// Results of vika_write_pdf besides 0 and VIKA_ABORTED.
#define VIKA_WRITE_FAILED (-1)
#define VIKA_WRITE_PASSWORD (-3)
#define VIKA_WRITE_NOPAGES (-4)
#define VIKA_WRITE_PAGES (-5)
#define VIKA_WRITE_BYTES (-6)
#define VIKA_WRITE_CONTEXT (-7)

// vika_write_pdf opens data as a document of type magic (a MIME type or
// file extension MuPDF knows) in a context of its own with a store of
// store bytes, lays a reflowable document out on pages of w x h points at
// font size em, and writes its pages through MuPDF's PDF writer, text
// kept as text. A page whose longer side exceeds maxside points (0: no
// limit) is scaled down to it. A document of more than maxpages pages
// fails with VIKA_WRITE_PAGES, a PDF growing past maxbytes with
// VIKA_WRITE_BYTES. On success *out holds the PDF (malloc'd; the caller
// frees it), *outlen its length and *pages its page count.
int vika_write_pdf(const char *magic, const unsigned char *data, size_t len, size_t store, float w, float h, float em, float maxside, int maxpages, size_t maxbytes, fz_cookie *cookie, unsigned char **out, size_t *outlen, int *pages, char *err, int errlen);

#endif
