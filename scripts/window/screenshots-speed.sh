#!/usr/bin/env bash
# Screenshots of a document that is searchable before its vectors are ready,
# in the real native window (WebKitGTK) under Xvfb, into build/screenshots/:
#   speed-01-searchable-en.png  Okasaki's thesis (a long PDF: minutes of embedding) listed
#                               with "Searching by keywords until ready" under its row
#   speed-02-asked-en.png       a question asked meanwhile: answered (fake Gemini) from
#                               passages found by keywords, no error
#   speed-03-searchable-fr.png, speed-04-asked-fr.png   the same in a French window
# Same tools as screenshots.sh.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-speed "${VIKA_SHOTS:-$root/build/screenshots}"

pdf=$root/../shared/data/pdfs/okasaki1996_purely_functional_data_structures_thesis.pdf
[[ -f $pdf ]] || die "the shared PDFs are missing ($pdf)"
window_start 1280x800
offer_answered

# shoot LOCALE FIRST_SHOT SECOND_SHOT QUESTION: adds the PDF, shoots the library once
# it is searchable (the progress row gone, the screen still), asks and shoots the answer.
shoot() {
  printf '{"locale": "%s"}\n' "$1" >"$XDG_CONFIG_HOME/vika/settings.json"
  start_app "$pdf"
  sleep 15 # the page loads, then main.go adds the PDF
  settle 300 "$shots/$2" 6
  ask "$4"
  settle 90 "$shots/$3" 4
  stop_app
}

shoot en speed-01-searchable-en.png speed-02-asked-en.png "What is a purely functional queue?"
shoot fr speed-03-searchable-fr.png speed-04-asked-fr.png "Qu'est-ce qu'une file purement fonctionnelle ?"
rm "$XDG_CONFIG_HOME/vika/settings.json"
