#!/usr/bin/env bash
# Screenshots of the flashcards' review in the real native window (WebKitGTK)
# under Xvfb, in English then French, into build/screenshots/:
#   review-01-queue-LANG.png     Vaswani's PDF added, flashcards made by the fake Gemini
#                                server from the whole paper and two of its sections: the
#                                Due today tab, the first card's question
#   review-02-grades-LANG.png    its answer shown (Space): the page it cites and the four
#                                grades, each with the interval FSRS gives it
#   review-03-after-LANG.png     the queue after three grades (keys 1 to 4: Again, Easy,
#                                Again): two cards left, the missed ones, their answer shown
#   review-03b-done-LANG.png     five grades later: none due today
#   review-04-progress-LANG.png  the Progress tab: weak sections first (Study again), then
#                                the table per document and section
#   review-05-again-LANG.png     the first weak section studied again: its cards
#   review-05b-quiz-LANG.png     the quiz on that section's cards, an answer revealed: the
#                                student says whether theirs was right (recorded)
#   review-06-dashboard-LANG.png the dashboard's flashcards: due today, the weak sections
# The tabs are found by their text, read from the screen with Tesseract
# (click_text, as screenshots-study.sh does). Same tools as screenshots.sh,
# plus tesseract. REVIEW_LANGS="fr" shoots one language.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-review "${VIKA_SHOTS:-$root/build/screenshots}" tesseract

pdf=$root/../shared/data/pdfs/vaswani2017_attention_is_all_you_need.pdf
[[ -f $pdf ]] || die "the shared PDFs are missing ($pdf)"
window_start 1280x800

# cards_of_section N CARDS: picks the N-th entry of the Section list (its popup, opened by
# a click under the "Section" label, walked with the arrow keys) and makes its flashcards.
cards_of_section() {
  local n=$1 cards=$2 i
  click_text Section 1 640 30
  sleep 1
  key Home
  for ((i = 0; i < n; i++)); do key Down; done
  key Return
  settle 30 "$work/section.png" 2
  click_text "$cards" 2 320
  settle 120 "$work/cards.png" 4
}

# grade G...: grades the card shown with each key (1 to 4), showing the next one's answer
# (Space) after each.
grade() {
  local g
  for g in "$@"; do
    key "$g"
    sleep 1
    key space
    sleep 1
  done
  xdotool mousemove --sync 1200 780 # no hover on the buttons
}

# shoot LANG STUDY CARDS DUE PROGRESS AGAIN TYPED DASHBOARD: the window's words in LANG for
# the Study tab, the flashcards button, the Due today tab, the Progress tab, the first Study
# again button, the quiz's answer box label and the Dashboard tab.
shoot() {
  local lang=$1 study=$2 cards=$3 due=$4 progress=$5 again=$6 typed=$7 dashboard=$8
  printf '{"locale": "%s"}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  start_app "$pdf"
  sleep 15 # the page loads, then main.go adds the PDF
  settle 240 "$work/added-$lang.png" 8
  click_text "$study" 1 320
  settle 30 "$work/plan-$lang.png" 2
  click_text "$cards" 2 320 # the first is the view's introduction
  settle 120 "$work/cards-$lang.png" 4
  cards_of_section 3 "$cards" # 3 Model Architecture
  cards_of_section 9 "$cards" # further sections: more cards, in more sections
  click_text "$due" 1 320
  settle 30 "$shots/review-01-queue-$lang.png" 2
  key space
  settle 30 "$shots/review-02-grades-$lang.png" 2
  grade 1 4 1 # Again, Easy (due in days), Again: two cards left, the missed ones
  settle 30 "$shots/review-03-after-$lang.png" 2
  grade 1 3 3 3 3 # until none is due
  settle 30 "$shots/review-03b-done-$lang.png" 2
  click_text "$progress" 1 320
  settle 30 "$shots/review-04-progress-$lang.png" 2
  click_text "$again" 1 320
  settle 30 "$shots/review-05-again-$lang.png" 2
  click_text Quiz 1 320
  settle 30 "$work/quiz-$lang.png" 2
  click_text "$typed" 1 320 96 # Reveal the answer, under the answer box under its label
  settle 30 "$shots/review-05b-quiz-$lang.png" 2
  click_text "$dashboard" 1 320
  settle 60 "$shots/review-06-dashboard-$lang.png" 3
  stop_app
}

for lang in ${REVIEW_LANGS:-en fr}; do
  case $lang in
  en) shoot en Study flashcards Due Progress again Your Dashboard ;;
  # awk (mawk) matches bytes: é is two, ’ three
  fr) shoot fr 'R.+viser' cartes 'aujourd.+hui' 'Progr.+s' nouveau Votre Tableau ;;
  *) die "REVIEW_LANGS: en or fr, not $lang" ;;
  esac
done
rm "$XDG_CONFIG_HOME/vika/settings.json"
if grep 'vika: frontend' "$work/app.log"; then fail "the page reported errors (above)"; fi
say "done"
