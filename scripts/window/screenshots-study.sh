#!/usr/bin/env bash
# Screenshots of the Study view in the real native window (WebKitGTK) under
# Xvfb, in English then French, into build/screenshots/:
#   study-01-suggest-LANG.png   Vaswani's PDF just added: the suggested questions under its row
#   study-02-plan-LANG.png      the Study tab: the plan (requests, tokens, the formula) before starting
#   study-03-guide-LANG.png     the guide written by the fake Gemini server, with its citation chips
#                               (one line no source supports, its chip marked unverified)
#   study-04-chip-LANG.png      a chip clicked: the viewer open at the cited page
#   study-05-quiz-LANG.png      flashcards made, the quiz's first question before revealing
#   study-06-revealed-LANG.png  an option picked: the verdict, the answer and its source chip
#   study-07-outline-LANG.png   without a model: the extractive outline, and what flashcards need
# The buttons are found by their text, read from the screen with Tesseract
# (click_text, scripts/window/lib.sh), so the script follows the layout in both languages.
# Same tools as screenshots.sh, plus tesseract. STUDY_LANGS="fr" shoots one language.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-study "${VIKA_SHOTS:-$root/build/screenshots}" tesseract

pdf=$root/../shared/data/pdfs/vaswani2017_attention_is_all_you_need.pdf
[[ -f $pdf ]] || die "the shared PDFs are missing ($pdf)"
window_start 1280x800

# shoot LANG STUDY CARDS: the window's words for the Study tab and for the
# flashcards button (a word the tabs do not hold, also in the view's
# introduction above it) in LANG.
shoot() {
  local lang=$1 tab=$2 cards=$3
  printf '{"locale": "%s"}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  start_app "$pdf"
  sleep 15 # the page loads, then main.go adds the PDF
  settle 240 "$shots/study-01-suggest-$lang.png" 8
  click_text "$tab" 1 320
  settle 30 "$shots/study-02-plan-$lang.png" 2
  click_primary # Make the study guide
  settle 120 "$shots/study-03-guide-$lang.png" 4
  click_text 'p\.[0-9]+' 1 320 # the first citation chip (the guide's questions cite no page)
  settle 60 "$shots/study-04-chip-$lang.png" 3
  key Escape # back from the viewer
  sleep 1
  click_text "$cards" 2 320 # the first is the view's introduction
  settle 120 "$work/cards-$lang.png" 4
  click_text Quiz 1 320
  settle 30 "$shots/study-05-quiz-$lang.png" 2
  key Tab Return # the first option: picking it reveals the answer
  settle 30 "$shots/study-06-revealed-$lang.png" 2
  stop_app
  # Without a model: no key, no Gemini address.
  (
    unset GEMINI_API_KEY VIKA_GEMINI_BASE_URL
    start_app "$pdf"
    sleep 15
    settle 240 "$work/offline-$lang.png" 8
    click_text "$tab" 1 320
    settle 30 "$work/offline-plan-$lang.png" 2
    click_primary # Make the outline
    settle 60 "$shots/study-07-outline-$lang.png" 3
    stop_app
  )
}

for lang in ${STUDY_LANGS:-en fr}; do
  case $lang in
  en) shoot en Study flashcards ;;
  fr) shoot fr 'R.+viser' cartes ;; # awk (mawk) matches bytes: é is two
  *) die "STUDY_LANGS: en or fr, not $lang" ;;
  esac
done
rm "$XDG_CONFIG_HOME/vika/settings.json"
if grep 'vika: frontend' "$work/app.log"; then fail "the page reported errors (above)"; fi
say "done"
