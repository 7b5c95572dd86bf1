#!/usr/bin/env bash
# Screenshots of a phone photo of a page added as a document, in the real
# native window under Xvfb, in English and French, into build/screenshots/:
#   native-photo-LANG-1-library.png  the photo in the library: one scanned page, read by OCR; beside
#                                    it a photo too small and blurred to read, with the poor-text warning
#   native-photo-LANG-2-answer.png   a question answered from it, its chips citing photo-of-notes.jpg p.1
#   native-photo-LANG-3-viewer.png   the first chip opened: the photo as the page, the passage
#                                    highlighted on the slanted lines where OCR read it
# The photo is made by backend/testpdf/photo (TestPhoto: the lecture page rendered, turned 6
# degrees on a dark table, in perspective, unevenly lit, noisy, saved as JPEG; and at 40 DPI,
# 700 pixels wide, JPEG quality 40: too blurred to read). Answers from
# frontend/e2e/fake-gemini.mjs. VIKA_BIN (default build/bin/vika), VIKA_SHOT_LANGS (default
# "en fr").
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-photo "${VIKA_SHOTS:-$root/build/screenshots}" go tesseract

go test -tags webkit2_41 -count=1 -run '^TestPhoto$' ./backend/testpdf/photo -args -photo-out "$work" >/dev/null
[[ -s $work/photo-of-notes.jpg && -s $work/blurred-photo.jpg ]] || die "the photos were not written"

window_start 1280x800
for lang in ${VIKA_SHOT_LANGS:-en fr}; do
  case $lang in
  en) export LANGUAGE=en_US LANG=en_US.UTF-8 ;;
  fr) export LANGUAGE=fr_FR LANG=fr_FR.UTF-8 ;;
  *) die "unknown language $lang" ;;
  esac
  mkdir -p "$XDG_CONFIG_HOME/vika"
  printf '{"locale": "%s"}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  out=$shots/native-photo-$lang
  start_app "$work/photo-of-notes.jpg" "$work/blurred-photo.jpg"
  sleep 2
  settle 120 "$out-1-library.png" 5
  ask 'How does the standard error of the estimate change with the sample size?'
  sleep 3
  settle 40 "$out-2-answer.png"
  click_text 'photo-of-notes[.]jpg' 1 340 # the answer's first chip (the library's name is left of x 340)
  xdotool mousemove --sync $((X + 150)) $((Y + 600)) # off the chip: no tooltip over the page
  sleep 3
  settle 30 "$out-3-viewer.png"
  stop_app
done
say "saved $shots/native-photo-*.png"
