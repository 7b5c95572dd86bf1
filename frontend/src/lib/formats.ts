// The files the library takes: PDFs and the others Vika converts to PDF
// (slide decks, Word files, EPUBs, images...), from Go's catalogue
// (convert.Extensions), no copy here.

import catalogue from './api/catalogue.json';

/** The file input's accept list. */
export const ACCEPT = ['application/pdf', '.pdf', ...catalogue.extensions.map((e) => `.${e}`)].join(',');
