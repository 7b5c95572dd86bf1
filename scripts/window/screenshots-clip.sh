#!/usr/bin/env bash
# Screenshots of Settings' search models with the CLIP entry (figure search),
# in the real native window (WebKitGTK) under Xvfb, in English and French,
# into build/screenshots/:
#   native-clip-settings-<lang>.png
# Same machinery as scripts/window/screenshots.sh (scripts/window/lib.sh):
# build/bin/vika (make build); no document, no download.
#
# Environment: VIKA_BIN, VIKA_SHOTS as in screenshots.sh; VIKA_SHOT_LANGS
# (default "en fr").
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-clip "${VIKA_SHOTS:-$root/build/screenshots}"

window_start 1280x800

for lang in ${VIKA_SHOT_LANGS:-en fr}; do
  printf '{"locale": "%s"}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  start_app
  sleep 2
  # Settings, in the navigation above the centre column (its place follows the labels' length).
  case $lang in
  fr) click 805 27 ;;
  *) click 706 27 ;;
  esac
  sleep 1
  # The search models are the last card: scroll the view to its end.
  xdotool mousemove --sync $((X + 800)) $((Y + 450))
  for _ in $(seq 30); do xdotool click 5; done
  sleep 1
  settle 20 "$shots/native-clip-settings-$lang.png"
  stop_app
done
