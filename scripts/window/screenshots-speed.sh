#!/usr/bin/env bash
# Screenshots of a document that is searchable before its vectors are ready,
# in the real native window (WebKitGTK) under Xvfb, into build/screenshots/:
#   speed-01-searchable-en.png  Okasaki's thesis (a long PDF: minutes of embedding) listed
#                               with "Searching by keywords until ready" under its row
#   speed-02-asked-en.png       a question asked meanwhile: answered (fake Gemini) from
#                               passages found by keywords, no error
#   speed-03-searchable-fr.png, speed-04-asked-fr.png   the same in a French window
#   speed-05-reading-en.png     the 28-page Flajolet-Martin scan while OCR reads it: listed,
#                               its row saying how many pages are left
#   speed-06-reading-asked-en.png  a question on its first pages asked meanwhile, answered
#   speed-07-reading-fr.png, speed-08-reading-asked-fr.png   the same in a French window
# Same tools as screenshots.sh. With the argument "reading", only the scan's shots.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-speed "${VIKA_SHOTS:-$root/build/screenshots}"

pdf=$root/../shared/data/pdfs/okasaki1996_purely_functional_data_structures_thesis.pdf
scan=$root/../shared/data/pdfs/flajolet_martin1985_probabilistic_counting_SCANNED.pdf
[[ -f $pdf && -f $scan ]] || die "the shared PDFs are missing ($pdf, $scan)"
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

# shoot_reading LOCALE FIRST_SHOT SECOND_SHOT QUESTION: adds the scan and shoots the library
# while OCR reads it (no settle: the count of pages left moves), asks and shoots the answer.
shoot_reading() {
  printf '{"locale": "%s"}\n' "$1" >"$XDG_CONFIG_HOME/vika/settings.json"
  start_app "$scan"
  sleep 18 # the page loads, main.go adds the PDF, OCR reads its first pages (one step every 5 s)
  import -window root "$shots/$2"
  say "saved $2 ($((SECONDS - started))s)"
  ask "$4"
  sleep 8 # answered while OCR still reads (the whole scan takes about 45 s)
  import -window root "$shots/$3"
  say "saved $3 ($((SECONDS - started))s)"
  stop_app
}

if [[ ${1:-} != reading ]]; then # "reading": the scan's shots only
  shoot en speed-01-searchable-en.png speed-02-asked-en.png "What is a purely functional queue?"
  shoot fr speed-03-searchable-fr.png speed-04-asked-fr.png "Qu'est-ce qu'une file purement fonctionnelle ?"
fi
shoot_reading en speed-05-reading-en.png speed-06-reading-asked-en.png "What is probabilistic counting?"
# Keywords only until its vectors are in, and a French question on an English paper shares few
# of its words (BM25's coordination factor then abstains): the student types the paper's terms.
shoot_reading fr speed-07-reading-fr.png speed-08-reading-asked-fr.png "probabilistic counting algorithms"
rm "$XDG_CONFIG_HOME/vika/settings.json"
