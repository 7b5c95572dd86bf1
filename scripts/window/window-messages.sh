#!/usr/bin/env bash
# Screenshots of the production build (build/bin/vika, make build) in French,
# showing messages that come from Go as codes and are translated by the page
# (backend/message, frontend/src/lib/i18n/messages.ts):
#   1. an ingest error: a text file named notes.pdf is added beside a real PDF,
#      and the library says, in French, that it is not a PDF;
#   2. a provider fallback notice: the fake Gemini server answers the first
#      answer request with 429 (FAKE_GEMINI_RATE_LIMIT=1), the app falls back
#      to its next model, and the answer's notice says so in French;
#   3. a page's failure reason in the explorer: a copy of the generated PDF
#      whose page 2 is 99999 pt wide (MuPDF reads it, Vika refuses pages over
#      14400 pt) is added; the explorer lists its pages and says, in French,
#      why page 2 has no text.
# Each check reads the screenshot back with Tesseract; the PNGs stay in
# ${VIKA_MESSAGE_SHOTS:-build/screenshots}. It exits 1 on the first failed check.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script window-messages "${VIKA_MESSAGE_SHOTS:-$root/build/screenshots}" tesseract curl

pdf=$work/vika_e2e_generated.pdf
node frontend/e2e/pdf.mjs "$pdf"
printf 'These are lecture notes saved as plain text, not a PDF.\n' >"$work/notes.pdf"
# The same PDF with a page too large to read: page 2's MediaBox, rewritten in
# place (same length, so the cross-reference offsets stay right).
perl -0pe '$n = 0; s{/MediaBox \[0 0 612 792\]}{++$n == 2 ? "/MediaBox [0 0 99999 9]" : $&}ge' "$pdf" >"$work/pages.pdf"

export FAKE_GEMINI_RATE_LIMIT=1
window_start 1280x800
mkdir -p "$XDG_CONFIG_HOME/vika"
printf '{"locale": "fr"}\n' >"$XDG_CONFIG_HOME/vika/settings.json"

ocr() {
  convert "$1" ${2:+-crop "$2" +repage} -resize 200% -colorspace Gray "$work/ocr.png"
  for psm in 3 11; do tesseract "$work/ocr.png" - -l eng+fra --psm "$psm" 2>/dev/null; done | tr -s '[:space:]' ' '
}
squash() { tr -d '[:space:]_' | tr '[:upper:]' '[:lower:]'; }
expect() {
  local shot=$1 crop=$2 what=$3 text seen
  shift 3
  seen=$(ocr "$shot" "$crop")
  for text in "$@"; do
    [[ $(squash <<<"$seen") == *"$(squash <<<"$text")"* ]] ||
      fail "$what: \"$text\" is not on ${shot#"$root"/}; Tesseract read: $seen"
  done
}

library=320x800+0+0 centre=960x800+320+0

start_app "$pdf" "$work/notes.pdf"
sleep 2
settle 90 "$shots/fr-ingest-error.png" 5
expect "$shots/fr-ingest-error.png" "$library" "the ingest error in French" "notes.pdf" "pas un PDF"

ask 'xylophonic probing sequence'
sleep 2
settle 60 "$shots/fr-fallback-notice.png" 3
expect "$shots/fr-fallback-notice.png" "$centre" "the fallback notice in French" "est indisponible" "Essai de"
stop_app

start_app "$work/pages.pdf"
sleep 2
settle 90 "$shots/fr-page-failure-document.png" 5
click 481 27 # the explorer, from the navigation above the centre column
sleep 1
settle 20 "$shots/fr-page-failure.png" 2
expect "$shots/fr-page-failure.png" "$centre" "the page's failure reason in French" "trop grande pour" "ignorée"
stop_app
rm -f "$shots/fr-page-failure-document.png"
say "passed: ${shots#"$root"/}/fr-ingest-error.png, ${shots#"$root"/}/fr-fallback-notice.png, ${shots#"$root"/}/fr-page-failure.png"
