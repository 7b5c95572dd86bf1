#!/usr/bin/env bash
# Screenshots of the suggested questions under a newly added document in
# the real native window (WebKitGTK) under Xvfb, into build/screenshots/:
#   suggest-01-library-en.png   Vaswani's PDF just added: "Questions to start with" under
#                               its row, phrased from its outline's section titles
#   suggest-02-asked-en.png     the first suggestion clicked: asked in the chat (fake Gemini)
#   suggest-03-library-fr.png, suggest-04-asked-fr.png   the same in a French window
# Same tools as screenshots.sh. SUGGEST_Y: the first suggestion's y in
# the window (English, French), when the layout moves.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-suggest "${VIKA_SHOTS:-$root/build/screenshots}"

pdf=$root/../shared/data/pdfs/vaswani2017_attention_is_all_you_need.pdf
[[ -f $pdf ]] || die "the shared PDFs are missing ($pdf)"
window_start 1280x800
read -r y_en y_fr <<<"${SUGGEST_Y:-419 443}"

# shoot LOCALE FIRST_SHOT SECOND_SHOT Y: adds the PDF, shoots the library,
# clicks the first suggestion (at y, when known) and shoots the answer.
shoot() {
  printf '{"locale": "%s"}\n' "$1" >"$XDG_CONFIG_HOME/vika/settings.json"
  start_app "$pdf"
  sleep 15 # the page loads, then main.go adds the PDF
  settle 240 "$shots/$2" 8
  if (($4 > 0)); then
    click 160 "$4"
    settle 60 "$shots/$3" 4
  fi
  stop_app
}

shoot en suggest-01-library-en.png suggest-02-asked-en.png "$y_en"
shoot fr suggest-03-library-fr.png suggest-04-asked-fr.png "$y_fr"
rm "$XDG_CONFIG_HOME/vika/settings.json"
