// Reads the annotations of a PDF with pdf.js, for package pdf's
// write-back test: argv[2] is pdfjs-dist's legacy ES module; stdin holds
// the PDF; stdout gets, in page order, each annotation's page, subtype,
// rectangle, quadrilaterals (PDF space), colour (0..255), contents and
// its page's height.
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";

const pdfjs = await import(pathToFileURL(process.argv[2]).href);
const data = new Uint8Array(readFileSync(0));
const doc = await pdfjs.getDocument({ data, isEvalSupported: false, useSystemFonts: false, verbosity: 0 }).promise;
const out = [];
for (let n = 1; n <= doc.numPages; n++) {
  const page = await doc.getPage(n);
  const height = page.view[3] - page.view[1];
  for (const a of await page.getAnnotations()) {
    if (a.subtype === "Popup" || a.subtype === "Link") continue;
    const quads = [];
    for (const q of a.quadPoints ? chunks(a.quadPoints) : []) quads.push(q);
    out.push({
      page: n,
      subtype: a.subtype,
      rect: a.rect,
      quads,
      color: a.color ? Array.from(a.color) : [],
      contents: a.contentsObj ? a.contentsObj.str : a.contents ?? "",
      height,
    });
  }
}
process.stdout.write(JSON.stringify(out));

// pdf.js gives QuadPoints either as one flat array of 8 numbers a quad
// or as arrays of {x, y} points, by version.
function chunks(qp) {
  if (Array.isArray(qp) && qp.length && typeof qp[0] === "object" && !Array.isArray(qp[0]) && !(qp[0] instanceof Float32Array)) {
    return qp.map((pts) => pts.flatMap((p) => [p.x, p.y]));
  }
  const flat = Array.from(qp).flat();
  const res = [];
  for (let i = 0; i + 8 <= flat.length; i += 8) res.push(flat.slice(i, i + 8));
  return res;
}
