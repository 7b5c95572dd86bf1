#!/usr/bin/env bash
# Screenshots of formulas rendered as MathML, of the scope and of the viewer's selection menu, in the real
# native window (WebKitGTK) under Xvfb, in English and French, into build/screenshots/:
#   native-student-<lang>-1-answer.png    an answer with Vaswani's attention formula rendered, scope chips above it
#   native-student-<lang>-2-sources.png   its sources, the formula passage's LaTeX rendered
#   native-student-<lang>-3-explorer.png  the explorer's Formulas tab, each transcription rendered
#   native-student-<lang>-4-selection.png the viewer (opened from the answer's first citation) with a passage
#                                         selected by a drag that ends in the page's margin, and its menu
#                                         Explain / Ask about this / Define
#   native-student-<lang>-5-explained.png the chat after Explain, scrolled to the answer's end (its citations; the
#                                         passage above the question is scrolled out of the narrow column)
#   native-student-<lang>-6-export.png    the HTML export of the conversation (saved through the GTK dialog's
#                                         default name), opened in headless Chromium
#   native-student-<lang>-7-scan-selection.png  Flajolet and Martin's scan in the viewer: a passage of its OCR
#                                         layer selected, and the menu
#   native-student-<lang>-8-scan-explained.png  the chat after Explain on the scan's passage
# The answers' scope is the section "3 Model Architecture" of Vaswani's
# outline (the library's Section list) and pages 3 to 5.
# The settings turn describing on (Gemini 2.5 Flash, formulas on); adding
# Vaswani et al. from ../shared (required) then sends each formula's crop to
# frontend/e2e/fake-gemini.mjs, whose fake vision model writes LaTeX from the
# text sent with the crop. The scan is a second session of its own (the
# session is ephemeral), with OCR limited to its first VIKA_SCAN_OCR_PAGES
# pages (default 4: the machine is shared; the passage asked about is on its
# first page). Same machinery as scripts/window/screenshots-regions.sh
# (scripts/window/lib.sh, build/bin/vika from make build).
#
# The suggested questions under a new document come late (the model phrases
# them) and move the fields under them: the script waits for them (their
# accent border, up to VIKA_SUGGEST_WAIT seconds) and closes them, then finds
# the page fields from the Section list's border. Questions are typed in
# ASCII (xdotool loses accents under load).
#
# Environment: VIKA_BIN, VIKA_SHOTS as in screenshots.sh; VIKA_SHOT_LANGS
# (default "en fr"); VIKA_SHOT_PARTS (default "formula scan"); VIKA_FORMULAS_TAB_X,
# VIKA_FORMULAS_TAB_Y (the Formulas tab, at 1280x800); VIKA_CHIP_X, VIKA_CHIP_Y
# (the answer's first citation); VIKA_SELECT_FROM, VIKA_SELECT_TO ("X Y": the
# drag that selects, in the viewer); VIKA_SCAN_CHIP, VIKA_SCAN_SELECT_FROM,
# VIKA_SCAN_SELECT_TO (the same for the scan); VIKA_EXPORT_X, VIKA_EXPORT_Y
# (the conversation's HTML export).
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-student "${VIKA_SHOTS:-$root/build/screenshots}"

paper=$root/../shared/data/pdfs/vaswani2017_attention_is_all_you_need.pdf
scan=$root/../shared/data/pdfs/flajolet_martin1985_probabilistic_counting_SCANNED.pdf
[[ -f $paper ]] || die "needs $paper (the generated PDF has no display formula)"
[[ -f $scan ]] || die "needs $scan (a scanned PDF: its OCR layer)"

pdf=$work/vaswani2017_attention_is_all_you_need.pdf
cp "$paper" "$pdf"
scanned=$work/flajolet_martin1985_probabilistic_counting_SCANNED.pdf
cp "$scan" "$scanned"

window_start 1280x800

accent='#2F62D0'     # --accent: the suggestions' border, a primary button
select_edge='#C5C6C7' # the top border of the library's Section list (WebKitGTK's native select)

# Closes the suggested questions under the new document: waits up to VIKA_SUGGEST_WAIT seconds for their
# accent border in the library column, then clicks their close button (right of their title).
dismiss_suggestions() {
  local top
  if top=$(wait_color 45 240 780 "$accent" "${VIKA_SUGGEST_WAIT:-60}"); then
    click 281 $((top + 19))
    sleep 1
    wait_color 45 240 780 "$accent" 3 >/dev/null && say "the suggested questions are still shown"
  else
    say "no suggested questions showed within ${VIKA_SUGGEST_WAIT:-60}s"
  fi
  true
}

# The top of the Section list, under the page fields (the fields sit 24 px above it).
section_top() {
  wait_color 100 240 790 "$select_edge" 10 || die "the library's Section list was not found"
}

# Explain, the selection menu's first (primary) button, under a selection that starts at x y: clicked.
explain_under() {
  local x=$1 y=$2 top
  # The button is filled: an accent pixel with another 8 px under it (not a 2 px outline of a cited box).
  while top=$(wait_color $((x + 20)) "$y" $((y + 260)) "$accent" 5); do
    if wait_color $((x + 20)) $((top + 8)) $((top + 9)) "$accent" >/dev/null; then
      click $((x + 30)) $((top + 8))
      return 0
    fi
    y=$((top + 3))
  done
  say "no selection menu under the selection"
}

# Waits for the viewer's page to be drawn (pdf.js, then a scan's OCR layer): the screen still for 4 s.
viewer_drawn() {
  sleep 3
  settle 60 "$1" 4
}

# Starts the app on file $1 with settings.json $2, in folder $3 (the export dialog saves there).
start_in() {
  mkdir -p "$XDG_CONFIG_HOME/vika" "$3"
  printf '%s\n' "$2" >"$XDG_CONFIG_HOME/vika/settings.json"
  cd "$3"
  start_app "$1"
  cd "$root"
  sleep 2
  settle 150 "$work/ready.png" 5
}

formula_part() {
  local exports=$work/exports-$lang
  start_in "$pdf" "{\"locale\": \"$lang\", \"describe\": true, \"describe_model\": \"gemini/gemini-2.5-flash\", \"describe_formulas\": true, \"describe_max\": 20}" "$exports"
  # The formulas' transcriptions (the fake vision model) go on in the background after the add.
  sleep "${VIKA_DESCRIBE_WAIT:-45}"
  dismiss_suggestions
  settle 20 "$work/library.png"
  # The scope: pages 3 to 5 in the library's page fields (left column, under the document).
  local top
  top=$(section_top)
  click 47 $((top - 24))
  sleep 1
  xdotool type --delay 80 "3"
  sleep 1
  click 120 $((top - 24))
  sleep 1
  xdotool type --delay 80 "5"
  sleep 1
  # The section: Tab past "Search everything" to the Section list, pick by its first characters.
  key Tab
  sleep 0.5
  key Tab
  sleep 1
  xdotool type --delay 120 "3 Model"
  sleep 1
  key Return
  sleep 1
  settle 10 "$work/scoped.png"
  ask "$question"
  sleep 2
  settle 60 "$out-1-answer.png"
  # The sources toggle is the last control of the answer.
  key shift+Tab Return
  sleep 1
  settle 15 "$out-2-sources.png"
  click 481 27
  sleep 1
  settle 20 "$work/explorer.png"
  click "${VIKA_FORMULAS_TAB_X:-1066}" "${VIKA_FORMULAS_TAB_Y:-246}"
  sleep 1
  settle 20 "$out-3-explorer.png"
  # Back to the chat; the answer's first citation opens the viewer at its page.
  click "${VIKA_CHAT_TAB_X:-400}" "${VIKA_CHAT_TAB_Y:-27}"
  sleep 1
  settle 10 "$work/chat.png"
  click "${VIKA_CHIP_X:-985}" "${VIKA_CHIP_Y:-$chip_y}"
  viewer_drawn "$work/viewer.png"
  # A drag from a word of the page into the margin right of its column: the menu takes what of it lies in
  # the text layer.
  local x1 y1 x2 y2
  read -r x1 y1 <<<"${VIKA_SELECT_FROM:-853 416}"
  read -r x2 y2 <<<"${VIKA_SELECT_TO:-1240 440}"
  drag "$x1" "$y1" "$x2" "$y2"
  sleep 1
  settle 10 "$out-4-selection.png"
  explain_under "$x1" "$y1"
  sleep 3
  settle 60 "$out-5-explained.png" 2
  # Close the viewer (Esc): the chat's header gets its width back.
  key Escape
  sleep 1
  click "${VIKA_EXPORT_X:-880}" "${VIKA_EXPORT_Y:-79}"
  sleep 3
  settle 10 "$work/dialog-$lang.png"
  key Return
  sleep 2
  stop_app
  local html
  html=$(find "$exports" "$work" -name 'vika-conversation*.html' -print -quit 2>/dev/null || true)
  if [[ -n $html ]]; then
    chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
      --disable-sync --no-first-run --hide-scrollbars --window-size=1000,1400 --screenshot="$out-6-export.png" "file://$html" \
      >"$work/chromium.log" 2>&1 || say "chromium failed: $(tail -n 3 "$work/chromium.log")"
    [[ -f $out-6-export.png ]] && say "saved ${out#"$root"/}-6-export.png"
  else
    say "no HTML export was saved (see $work/dialog-$lang.png)"
  fi
}

scan_part() {
  VIKA_MAX_OCR_PAGES=${VIKA_SCAN_OCR_PAGES:-4} start_in "$scanned" "{\"locale\": \"$lang\"}" "$work/scan-$lang"
  # OCR goes on after the window shows: wait until the library has stopped changing.
  settle "${VIKA_OCR_WAIT:-240}" "$work/scan-ready.png" 10
  dismiss_suggestions
  ask "$scan_question"
  sleep 2
  settle 60 "$work/scan-answer.png"
  local cx cy x1 y1 x2 y2
  read -r cx cy <<<"${VIKA_SCAN_CHIP:-985 207}"
  click "$cx" "$cy"
  viewer_drawn "$work/scan-viewer.png"
  read -r x1 y1 <<<"${VIKA_SCAN_SELECT_FROM:-797 426}"
  read -r x2 y2 <<<"${VIKA_SCAN_SELECT_TO:-1075 452}"
  drag "$x1" "$y1" "$x2" "$y2"
  sleep 1
  settle 10 "$out-7-scan-selection.png"
  explain_under "$x1" "$y1"
  sleep 3
  settle 60 "$out-8-scan-explained.png" 2
  stop_app
}

for lang in ${VIKA_SHOT_LANGS:-en fr}; do
  # ASCII only: see ask in lib.sh.
  case $lang in
  en)
    export LANGUAGE=en_US LANG=en_US.UTF-8
    chip_y=231 # the question takes two lines
    question="What is Scaled Dot-Product Attention? Give equation (1), its formula with softmax and the square root of dk."
    scan_question="How does probabilistic counting estimate the number of distinct elements?"
    ;;
  fr)
    export LANGUAGE=fr_FR LANG=fr_FR.UTF-8
    chip_y=210 # the question takes one line
    question="Scaled Dot-Product Attention : quelle est la formule (1), avec softmax et la racine de dk ?"
    scan_question="Comment le probabilistic counting estime-t-il le nombre de distinct elements ?"
    ;;
  *) die "unknown language $lang" ;;
  esac
  out=$shots/native-student-$lang
  for part in ${VIKA_SHOT_PARTS:-formula scan}; do
    "${part}_part"
    [[ -n ${VIKA_KEEP_STEPS:-} ]] && for f in "$work"/*.png; do cp "$f" "$VIKA_KEEP_STEPS/$lang-$part-$(basename "$f")"; done
    true
  done
done
