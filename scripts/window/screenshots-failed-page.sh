#!/usr/bin/env bash
# Screenshots of a page the PDF reader failed, in the real native window (WebKitGTK)
# under Xvfb, in English and French, into build/screenshots/:
#   native-failed-<lang>-1-explorer.png  the explorer's pages, page 2 marked as failed
#   native-failed-<lang>-2-viewer.png    page 2 opened: shown as failed, not drawn by pdf.js
# The PDF is testpdf.FanOut(10, 12) (page 2's forms fan out for days), read with a page
# budget of 1 s (VIKA_PAGE_TIMEOUT_S=1), written by the generators' test into the work folder.
# Same machinery as scripts/window/screenshots.sh (scripts/window/lib.sh): build/bin/vika
# (make build). Environment: VIKA_BIN, VIKA_SHOTS, VIKA_SHOT_LANGS (default "en fr");
# VIKA_PAGE2_X/Y, where page 2 sits in the explorer's list at 1280x800.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-failed-page "${VIKA_SHOTS:-$root/build/screenshots}" go

go test -tags webkit2_41 -run TestWriteGenerators ./backend/sandbox -write-generators "$work" >/dev/null
pdf=$work/fanout.pdf
[[ -f $pdf ]] || die "the generators' test did not write $pdf"

window_start 1280x800
export VIKA_PAGE_TIMEOUT_S=1

for lang in ${VIKA_SHOT_LANGS:-en fr}; do
  case $lang in
  en) export LANGUAGE=en_US LANG=en_US.UTF-8 ;;
  fr) export LANGUAGE=fr_FR LANG=fr_FR.UTF-8 ;;
  *) die "unknown language $lang" ;;
  esac
  mkdir -p "$XDG_CONFIG_HOME/vika"
  printf '{"locale": "%s"}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  out=$shots/native-failed-$lang
  start_app "$pdf"
  sleep 2
  settle 90 "$work/ready.png" 5
  click 481 27 # the Explorer tab
  sleep 1
  settle 20 "$out-1-explorer.png"
  click "${VIKA_PAGE2_X:-700}" "${VIKA_PAGE2_Y:-366}"
  sleep 2
  settle 20 "$out-2-viewer.png"
  stop_app
done
