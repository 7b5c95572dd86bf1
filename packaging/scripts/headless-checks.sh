# Sourced by packaging/scripts/package-test.sh (the .deb in a Debian chroot) and
# packaging/scripts/windows-test.sh (the Windows installer under Wine): the checks both
# run on an installed Vika, so the two platforms are held to the same results.
# The caller defines say and die.

# check_json NAME FILE PYTHON: run the PYTHON assertions on the JSON document(s) in FILE
# (doc is the first one, docs all of them).
check_json() {
  python3 - "$2" "$3" <<'PY' || die "$1: $(cat "$2")"
import json, sys
raw = open(sys.argv[1], encoding="utf-8").read()
docs = [json.loads(line) for line in raw.splitlines() if line.strip()]
doc = docs[0]
exec(sys.argv[2])
PY
  say "ok: $1"
}

# headless_checks OUT VIKA...: ingest and search the two PDFs of packaging/scripts/package-pdf
# (sample.pdf: a text page and an image-only page; cours.pdf: a French page), which must
# be in the directory VIKA... runs in. VIKA... is the command that runs the installed
# vika with the arguments that follow it; outputs go to the directory OUT.
headless_checks() {
  local out=$1 t
  shift
  t=$SECONDS
  "$@" ingest --json sample.pdf >"$out/ingest" 2>"$out/ingest.err" ||
    die "vika ingest: $(cat "$out/ingest" "$out/ingest.err")"
  check_json "vika ingest --json: 2 pages, 1 text + 1 scanned, OCR ran, English ($((SECONDS - t)) s)" "$out/ingest" '
assert doc["pages"] == 2 and doc["page_types"] == {"text": 1, "scanned": 1}, doc
assert doc["ocr_pages"] == 1 and doc["lang"] == "en" and doc["chunks"] >= 2, doc
assert not doc.get("error") and not doc.get("failed_pages"), doc'

  "$@" ingest --json cours.pdf >"$out/ingest-fr" 2>"$out/ingest-fr.err" ||
    die "vika ingest cours.pdf: $(cat "$out/ingest-fr" "$out/ingest-fr.err")"
  check_json "vika ingest --json: a French page is French (lingua-go trimmed to Vika's languages)" "$out/ingest-fr" '
assert doc["pages"] == 1 and doc["lang"] == "fr", doc'

  "$@" search --json --mode dense -k 2 --pdf sample.pdf \
    "when were the moraine sediments of the glaciers dated" >"$out/dense" 2>"$out/dense.err" ||
    die "vika search --mode dense: $(cat "$out/dense" "$out/dense.err")"
  check_json "vika search --mode dense: the OCR'd page 2 first (ONNX Runtime + bge-small-en-v1.5 from the box)" "$out/dense" '
h = doc["hits"]
assert h and h[0]["page"] == 2 and h[0]["found_by"] == "dense" and "radiocarbon" in h[0]["text"], h'

  # Offline, a French question worded unlike its page is found by meaning (multilingual-e5-small
  # from the box) and reranked (ms-marco-MiniLM-L-12-v2 from the box).
  "$@" search --json --mode hybrid --rerank on -k 2 --pdf cours.pdf \
    "Comment a-t-on déterminé l'âge des dépôts laissés par les glaciers ?" >"$out/fr" 2>"$out/fr.err" ||
    die "vika search (French): $(cat "$out/fr" "$out/fr.err")"
  check_json "vika search, a French question: found by meaning, with a reranker score (the box's models)" "$out/fr" '
h = doc["hits"]
assert h and h[0]["page"] == 1 and h[0]["found_by"] in ("dense", "both"), h
assert h[0]["dense_score"] is not None and h[0]["rerank_score"] is not None and h[0].get("band"), h'

  "$@" search --json --mode bm25 -k 2 --pdf sample.pdf "chlorophyll absorbs red light" \
    >"$out/bm25" 2>"$out/bm25.err" || die "vika search --mode bm25: $(cat "$out/bm25" "$out/bm25.err")"
  check_json "vika search --mode bm25: page 1 first" "$out/bm25" '
h = doc["hits"]
assert h and h[0]["page"] == 1 and h[0]["found_by"] == "bm25" and "Chlorophyll" in h[0]["text"], h'

  "$@" search --json --mode hybrid -k 2 --pdf sample.pdf "meltwater discharge of the valley" \
    >"$out/hybrid" 2>"$out/hybrid.err" || die "vika search --mode hybrid: $(cat "$out/hybrid" "$out/hybrid.err")"
  check_json "vika search --mode hybrid: page 2 first, found by both" "$out/hybrid" '
h = doc["hits"]
assert h and h[0]["page"] == 2 and h[0]["found_by"] == "both", h'

  "$@" search --json -k 2 --pdf sample.pdf "meltwater discharge of the valley" \
    >"$out/auto" 2>"$out/auto.err" || die "vika search: $(cat "$out/auto" "$out/auto.err")"
  # The default mode answers at once: by keywords while the PDF's vectors are still being computed
  # (it says so on stderr), by both lists once they are in; --mode hybrid below waits for them.
  check_json "vika search (default mode): page 2 first, by keywords or both" "$out/auto" '
h = doc["hits"]
assert h and h[0]["page"] == 2 and h[0]["found_by"] in ("both", "bm25"), h'
}

# office_files DIR: deck.pptx and deck.odp, written by this machine's LibreOffice from
# DIR/deck.fodp (`package-pdf --formats`), with a throwaway profile.
office_files() {
  local soffice profile f
  soffice=$(command -v soffice) || die "soffice is missing here (scripts/setup/apt-packages.txt lists LibreOffice)"
  profile=$(mktemp -d)
  for f in pptx odp; do
    HOME=$profile "$soffice" --headless --norestore "-env:UserInstallation=file://$profile" \
      --convert-to "$f" --outdir "$1" "$1/deck.fodp" >"$profile/log" 2>&1 ||
      die "LibreOffice could not write deck.$f: $(cat "$profile/log")"
  done
  rm -rf "$profile"
}

# format_checks OUT DOCS VIKA...: the files of the other formats in DOCS (`package-pdf
# --formats`: tableau.png, livre.epub; deck.pptx and deck.odp from office_files) read with
# MuPDF's own handlers, as they are where LibreOffice is not installed: the photo of a page by
# OCR, the EPUB's chapters as text, the pptx as reflowed text with its warning, the odp
# refused with the message saying how to install LibreOffice.
format_checks() {
  local out=$1 docs=$2 t
  shift 2
  t=$SECONDS
  "$@" ingest --json tableau.png >"$out/png" 2>"$out/png.err" || die "vika ingest tableau.png: $(cat "$out/png" "$out/png.err")"
  check_json "vika ingest --json tableau.png: one scanned page read by OCR ($((SECONDS - t)) s)" "$out/png" '
assert doc["format"] == "png" and doc["pages"] == 1 and doc["ocr_pages"] == 1 and doc["chunks"] >= 1, doc'
  "$@" search --json --mode bm25 -k 1 --pdf tableau.png "moraine sediments radiocarbon" >"$out/png-search" 2>"$out/png-search.err" ||
    die "vika search tableau.png: $(cat "$out/png-search" "$out/png-search.err")"
  check_json "vika search tableau.png: the photo's words found, cited [tableau.png p.1]" "$out/png-search" '
h = doc["hits"]
assert h and h[0]["label"] == "[tableau.png p.1]" and "radiocarbon" in h[0]["text"], h'

  "$@" search --json --mode bm25 -k 1 --pdf livre.epub "permafrost methane" >"$out/epub" 2>"$out/epub.err" ||
    die "vika search livre.epub: $(cat "$out/epub" "$out/epub.err")"
  check_json "vika search livre.epub: the EPUB's second chapter found (MuPDF's EPUB handler)" "$out/epub" '
h = doc["hits"]
assert h and h[0]["label"].startswith("[livre.epub p.") and "methane" in h[0]["text"], h'

  [[ -f $docs/deck.pptx ]] || return 0
  "$@" ingest --json deck.pptx >"$out/pptx" 2>"$out/pptx.err" || die "vika ingest deck.pptx: $(cat "$out/pptx" "$out/pptx.err")"
  check_json "vika ingest deck.pptx without LibreOffice: its text, reflowed, with the warning" "$out/pptx" '
assert doc["format"] == "pptx" and not doc.get("unit") and doc["chunks"] >= 1, doc
assert "LibreOffice" in doc.get("warning", ""), doc'
  if "$@" ingest --json deck.odp >"$out/odp" 2>"$out/odp.err"; then
    die "vika ingest deck.odp without LibreOffice succeeded: $(cat "$out/odp")"
  fi
  check_json "vika ingest deck.odp without LibreOffice: refused, saying how to install it" "$out/odp" '
assert "LibreOffice" in doc["error"] and "apt install" in doc["error"], doc'
}

# office_checks OUT VIKA...: with LibreOffice installed, the pptx has one page per slide,
# cited as slides, and the odp is read.
office_checks() {
  local out=$1 t
  shift
  t=$SECONDS
  "$@" ingest --json deck.pptx >"$out/pptx-lo" 2>"$out/pptx-lo.err" || die "vika ingest deck.pptx: $(cat "$out/pptx-lo" "$out/pptx-lo.err")"
  check_json "vika ingest deck.pptx with LibreOffice: 3 slides ($((SECONDS - t)) s, conversion included)" "$out/pptx-lo" '
assert doc["format"] == "pptx" and doc["unit"] == "slide" and doc["pages"] == 3 and not doc.get("warning"), doc'
  "$@" search --json --mode bm25 -k 1 --pdf deck.odp "moraine radiocarbon" >"$out/odp-lo" 2>"$out/odp-lo.err" ||
    die "vika search deck.odp: $(cat "$out/odp-lo" "$out/odp-lo.err")"
  check_json "vika search deck.odp with LibreOffice: cited [deck.odp slide 2]" "$out/odp-lo" '
h = doc["hits"]
assert h and h[0]["label"] == "[deck.odp slide 2]", h'
}
