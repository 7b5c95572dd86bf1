#!/usr/bin/env bash
# Screenshots of a slide deck (pptx) in the real native window (WebKitGTK) under Xvfb, in
# English and French, into build/screenshots/:
#   slides-<lang>-1-library.png  cours3.pptx (given as argument) listed: PPTX, 3 slides
#   slides-<lang>-2-answer.png   a question answered by the fake Gemini server, its chip
#                                citing the slide: [cours3.pptx slide 2]
#   slides-<lang>-3-viewer.png   the chip clicked: the viewer on slide 2 of 3, the passage
#                                highlighted
# The deck is packaging/scripts/package-pdf's (--formats), written as a pptx by this machine's
# LibreOffice, which the app also uses to convert it (one page per slide).
# Same machinery as scripts/window/screenshots.sh (scripts/window/lib.sh): build/bin/vika
# (make build). Environment: VIKA_BIN, VIKA_SHOTS, VIKA_SHOT_LANGS (default "en fr").
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-slides "${VIKA_SHOTS:-$root/build/screenshots}" go soffice tesseract

go run ./packaging/scripts/package-pdf --formats "$work"
HOME=$work soffice --headless --norestore "-env:UserInstallation=file://$work/lo" \
  --convert-to pptx --outdir "$work" "$work/deck.fodp" >"$work/soffice.log" 2>&1 ||
  die "LibreOffice could not write the deck: $(cat "$work/soffice.log")"
deck=$work/cours3.pptx
mv "$work/deck.pptx" "$deck"

window_start 1280x800

for lang in ${VIKA_SHOT_LANGS:-en fr}; do
  case $lang in
  en) export LANGUAGE=en_US LANG=en_US.UTF-8 ;;
  fr) export LANGUAGE=fr_FR LANG=fr_FR.UTF-8 ;;
  *) die "unknown language $lang" ;;
  esac
  mkdir -p "$XDG_CONFIG_HOME/vika"
  printf '{"locale": "%s"}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  out=$shots/slides-$lang
  start_app "$deck"
  sleep 3
  settle 120 "$out-1-library.png" 5
  ask 'When were the moraine sediments dated?'
  sleep 2
  settle 60 "$out-2-answer.png" 3
  click_text 'slide' 1 320 # the answer's first chip: [cours3.pptx slide 2]
  sleep 2
  settle 30 "$out-3-viewer.png" 3
  stop_app
done
rm "$XDG_CONFIG_HOME/vika/settings.json"
