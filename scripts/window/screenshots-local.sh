#!/usr/bin/env bash
# Screenshots of the Settings screen's "Local models" switch in the real
# native window under Xvfb, into build/screenshots/: native-local-en.png
# and native-local-fr.png (off by default, the Ollama address shown). Same
# tools as screenshots.sh.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-local "${VIKA_SHOTS:-$root/build/screenshots}"

window_start 1280x800
offer_answered

# Opens Settings (its tab at x=$1: the labels' widths differ by language)
# and scrolls the answers card's first sections into view.
settings_scrolled() {
  click "$1" 27
  sleep 2
  xdotool mousemove --sync $((X + 640)) $((Y + 400))
  for _ in 1 2 3 4 5 6; do xdotool click 5; sleep 0.2; done
}

start_app
sleep 6
settings_scrolled 706
settle 20 "$shots/native-local-en.png"
stop_app

printf '{"locale": "fr"}\n' >"$XDG_CONFIG_HOME/vika/settings.json"
start_app
sleep 6
settings_scrolled 805
settle 20 "$shots/native-local-fr.png"
stop_app
rm "$XDG_CONFIG_HOME/vika/settings.json"
