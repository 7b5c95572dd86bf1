#!/usr/bin/env bash
# Screenshots of the student's own highlights and notes in the real native
# window (WebKitGTK) under Xvfb, in English and French, into build/screenshots/:
#   notes-<lang>-1-menu.png         Vaswani et al. in the viewer (opened from an answer's first citation), a
#                                   passage of its text layer selected: the menu with the five highlight
#                                   colours and "Note..."
#   notes-<lang>-2-highlighted.png  the page with two highlights: one in green, one in yellow with a note
#   notes-<lang>-3-viewer-list.png  a note on the whole page added; the viewer's "My notes" list of the
#                                   document (page note, highlights, their notes; exports, flashcards from
#                                   the highlights, "Save a copy with my notes")
#   notes-<lang>-4-notes-view.png   the Notes view: the course's notes, document by document
#   notes-<lang>-5-answer.png       "Only my notes" ticked in the library, a question answered (by the fake
#                                   Gemini server) from the note: its chip reads "your note, p. N"
#   notes-<lang>-6-scan-menu.png    Flajolet and Martin's scan in the viewer: a passage of its OCR layer
#                                   selected, the menu with the highlight colours
#   notes-<lang>-7-scan-highlighted.png  that passage highlighted in pink over the scan
# The buttons are found by their text, read from the screen with Tesseract
# (click_text), the colour swatches and the citation chips by their colour.
# The scan is a session of its own, OCR limited to its first
# VIKA_SCAN_OCR_PAGES pages (default 4). Same machinery as
# scripts/window/screenshots-student.sh (scripts/window/lib.sh, build/bin/vika
# from make build). Typed text is ASCII (xdotool loses accents under load).
#
# Environment: VIKA_BIN, VIKA_SHOTS as in screenshots.sh; VIKA_SHOT_LANGS
# (default "en fr"); VIKA_SHOT_PARTS (default "text scan"); VIKA_SELECT_1,
# VIKA_SELECT_2 ("X1 Y1 X2 Y2": the drags that select on Vaswani's page);
# VIKA_SCAN_SELECT (the same on the scan).
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-notes "${VIKA_SHOTS:-$root/build/screenshots}" tesseract

paper=$root/../shared/data/pdfs/vaswani2017_attention_is_all_you_need.pdf
scan=$root/../shared/data/pdfs/flajolet_martin1985_probabilistic_counting_SCANNED.pdf
[[ -f $paper ]] || die "needs $paper"
[[ -f $scan ]] || die "needs $scan (a scanned PDF: its OCR layer)"
pdf=$work/vaswani2017_attention_is_all_you_need.pdf
cp "$paper" "$pdf"
scanned=$work/flajolet_martin1985_probabilistic_counting_SCANNED.pdf
cp "$scan" "$scanned"

window_start 1280x800

accent='#2F62D0'

# find_pixel COLOR X0 Y0 X1 Y1: prints "x y" (relative to the window) of the first pixel of COLOR
# ("#RRGGBB", exactly) in the box, top to bottom then left to right; fails when there is none.
find_pixel() {
  local color=${1^^} x0=$2 y0=$3 x1=$4 y1=$5 at
  import -window root -crop "$((x1 - x0))x$((y1 - y0))+$((X + x0))+$((Y + y0))" +repage "$work/box.png"
  at=$(convert "$work/box.png" txt:- | awk -v c="$color" 'NR > 1 && $3 == c { split($1, p, /[,:]/); print p[1], p[2]; exit }')
  [[ -n $at ]] || return 1
  read -r px py <<<"$at"
  echo "$((x0 + px)) $((y0 + py))"
}

# click_color COLOR X0 Y0 X1 Y1 [DX DY]: clicks the first pixel of COLOR in the box, moved by DX DY.
click_color() {
  local at
  at=$(find_pixel "$1" "$2" "$3" "$4" "$5") || fail "no $1 in $2,$3-$4,$5 (see $work/box.png)"
  read -r x y <<<"$at"
  click $((x + ${6:-0})) $((y + ${7:-0}))
}

# Closes the suggested questions under the new document (see screenshots-student.sh).
dismiss_suggestions() {
  local top
  if top=$(wait_color 45 240 780 "$accent" "${VIKA_SUGGEST_WAIT:-60}"); then
    click 281 $((top + 19))
    sleep 1
  else
    say "no suggested questions showed within ${VIKA_SUGGEST_WAIT:-60}s"
  fi
  true
}

viewer_drawn() {
  sleep 3
  settle 60 "$1" 4
}

# Starts the app on file $1 in language $lang (settings $2 added), waits for the window to settle.
start_in() {
  mkdir -p "$XDG_CONFIG_HOME/vika" "$work/run-$lang"
  printf '{"locale": "%s"%s}\n' "$lang" "${2:-}" >"$XDG_CONFIG_HOME/vika/settings.json"
  cd "$work/run-$lang"
  start_app "$1"
  cd "$root"
  sleep 2
  settle 150 "$work/ready.png" 5
}

# Opens the viewer from the answer's first citation chip (its "p.N", read by Tesseract, in the centre column).
open_first_chip() {
  click_text 'p\.[0-9]+' 1 330
  viewer_drawn "$work/viewer.png"
}

select_drag() { # "X1 Y1 X2 Y2"; the pointer then leaves the page (no tooltip over the shot)
  local x1 y1 x2 y2
  read -r x1 y1 x2 y2 <<<"$1"
  drag "$x1" "$y1" "$x2" "$y2"
  sleep 0.5
  xdotool mousemove --sync $((X + 752)) $((Y + 790))
  sleep 1
}

text_part() {
  start_in "$pdf"
  dismiss_suggestions
  ask "$question"
  sleep 2
  settle 60 "$work/answer.png"
  open_first_chip
  # A first passage: highlighted green from the menu's swatches.
  select_drag "${VIKA_SELECT_1:-$select_1}"
  settle 10 "$out-1-menu.png"
  click_color '#8CDE73' 745 300 1280 800 4 4
  settle 10 "$work/green.png" 2
  # A second one, with a note (the note box opens under the menu's swatches; yellow by default).
  select_drag "${VIKA_SELECT_2:-$select_2}"
  click_color '#FFA64D' 745 300 1280 800 49 6 # the menu's Note..., right of its last swatch (orange)
  sleep 1
  xdotool type --delay 40 "$note"
  sleep 0.5
  key Tab Return # Save (Tesseract does not read a primary button's white text)
  sleep 1
  xdotool mousemove --sync $((X + 1270)) $((Y + 790))
  settle 10 "$out-2-highlighted.png" 2
  # A note on the whole page (the toolbar's "Note on this page"), then the document's list.
  click_text "$this_word" 1 745
  sleep 1
  xdotool type --delay 40 "$page_note"
  sleep 0.5
  key Tab Return
  sleep 1
  click_text "$mine_word" 1 745
  settle 10 "$out-3-viewer-list.png" 2
  # The course-wide Notes view (the navigation's tab, top of the centre column).
  key Escape
  sleep 1
  click_text 'Notes' 1 320
  settle 10 "$out-4-notes-view.png" 2
  # "Only my notes", then a question answered from the note.
  click_text "$only_word" 1 0
  sleep 1
  click_text "$chat_word" 1 320
  sleep 1
  ask "$note_question"
  sleep 2
  settle 60 "$out-5-answer.png" 2
  stop_app
}

scan_part() {
  VIKA_MAX_OCR_PAGES=${VIKA_SCAN_OCR_PAGES:-4} start_in "$scanned"
  settle "${VIKA_OCR_WAIT:-240}" "$work/scan-ready.png" 10
  dismiss_suggestions
  ask "$scan_question"
  sleep 2
  settle 60 "$work/scan-answer.png"
  open_first_chip
  select_drag "${VIKA_SCAN_SELECT:-793 598 1077 604}"
  settle 10 "$out-6-scan-menu.png" 2
  click_color '#FF8CBF' 745 300 1280 800 4 4
  xdotool mousemove --sync $((X + 752)) $((Y + 790))
  settle 10 "$out-7-scan-highlighted.png" 2
  stop_app
}

for lang in ${VIKA_SHOT_LANGS:-en fr}; do
  case $lang in
  en)
    export LANGUAGE=en_US LANG=en_US.UTF-8
    question="What is Scaled Dot-Product Attention?"
    note="Exam: know why the dot products are scaled by the square root of dk."
    page_note="Revise this page before the exam on Friday."
    note_question="Why are the dot products scaled?"
    scan_question="How does probabilistic counting estimate the number of distinct elements?"
    # The viewer's banner takes one line in English, two in French: the page sits 17 px lower.
    select_1="853 450 1172 458" select_2="853 490 1172 498"
    this_word=this mine_word=My only_word=Only chat_word=Chat
    ;;
  fr)
    export LANGUAGE=fr_FR LANG=fr_FR.UTF-8
    question="Scaled Dot-Product Attention : qu'est-ce que c'est ?"
    note="Examen : savoir pourquoi on divise par la racine de dk."
    page_note="Revoir cette page avant l'examen de vendredi."
    note_question="Pourquoi divise-t-on par la racine de dk ?"
    scan_question="Comment le probabilistic counting estime-t-il le nombre de distinct elements ?"
    select_1="853 467 1172 475" select_2="853 507 1172 515"
    this_word=cette mine_word=Mes only_word=Seulement chat_word=Questions
    ;;
  *) die "unknown language $lang" ;;
  esac
  out=$shots/notes-$lang
  for part in ${VIKA_SHOT_PARTS:-text scan}; do
    "${part}_part"
  done
done
