#!/usr/bin/env bash
# Screenshots of formulas rendered as MathML and of the scope, in the real
# native window (WebKitGTK) under Xvfb, in English and French, into
# build/screenshots/:
#   native-student-<lang>-1-answer.png    an answer with Vaswani's attention formula rendered, scope chips above it
#   native-student-<lang>-2-sources.png   its sources, the formula passage's LaTeX rendered
#   native-student-<lang>-3-explorer.png  the explorer's Formulas tab, each transcription rendered
#   native-student-<lang>-4-selection.png the viewer (opened from the answer's first citation) with a passage
#                                         selected and its menu Explain / Ask about this / Define
#   native-student-<lang>-5-explained.png the chat after Explain: the passage above the question, the answer
#   native-student-<lang>-6-export.png    the HTML export of the conversation (saved through the GTK dialog's
#                                         default name), opened in headless Chromium
# The answers' scope is the section "3 Model Architecture" of Vaswani's
# outline (the library's Section list) and pages 3 to 5.
# The settings turn describing on (Gemini 2.5 Flash, formulas on); adding
# Vaswani et al. from ../shared (required) then sends each formula's crop to
# frontend/e2e/fake-gemini.mjs, whose fake vision model writes LaTeX from the
# text sent with the crop. Same machinery as scripts/window/screenshots-regions.sh
# (scripts/window/lib.sh, build/bin/vika from make build).
#
# Environment: VIKA_BIN, VIKA_SHOTS as in screenshots.sh; VIKA_SHOT_LANGS
# (default "en fr"); VIKA_FORMULAS_TAB_X, VIKA_FORMULAS_TAB_Y (the Formulas
# tab, at 1280x800); VIKA_CHIP_X, VIKA_CHIP_Y (the answer's first citation);
# VIKA_SELECT_FROM, VIKA_SELECT_TO ("X Y": the drag that selects, in the
# viewer); VIKA_EXPORT_X, VIKA_EXPORT_Y (the conversation's HTML export).
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-student "${VIKA_SHOTS:-$root/build/screenshots}"

paper=$root/../shared/data/pdfs/vaswani2017_attention_is_all_you_need.pdf
[[ -f $paper ]] || die "needs $paper (the generated PDF has no display formula)"

pdf=$work/vaswani2017_attention_is_all_you_need.pdf
cp "$paper" "$pdf"

window_start 1280x800

for lang in ${VIKA_SHOT_LANGS:-en fr}; do
  case $lang in
  en) export LANGUAGE=en_US LANG=en_US.UTF-8 question="What is Scaled Dot-Product Attention? Give equation (1), its formula with softmax and the square root of dk." ;;
  fr) export LANGUAGE=fr_FR LANG=fr_FR.UTF-8 question="Scaled Dot-Product Attention : quelle est la formule (1), avec softmax et la racine de dk ?" ;;
  *) die "unknown language $lang" ;;
  esac
  mkdir -p "$XDG_CONFIG_HOME/vika"
  printf '{"locale": "%s", "describe": true, "describe_model": "gemini/gemini-2.5-flash", "describe_formulas": true, "describe_max": 20}\n' \
    "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  out=$shots/native-student-$lang
  # The export dialog saves under the folder the app starts in.
  exports=$work/exports-$lang
  mkdir -p "$exports"
  cd "$exports"
  start_app "$pdf"
  cd "$root"
  sleep 2
  settle 150 "$work/ready.png" 5
  # The formulas' transcriptions (the fake vision model) go on in the background after the add.
  sleep "${VIKA_DESCRIBE_WAIT:-45}"
  # Dismiss the suggested questions under the new document, if they show (they move the fields
  # below them); where they are not, this clicks an empty part of the library.
  sleep 3
  click "${VIKA_SUGGEST_CLOSE_X:-281}" "${VIKA_SUGGEST_CLOSE_Y:-409}"
  sleep 1
  # The scope: pages 3 to 5 in the library's page fields (left column, under the document).
  click "${VIKA_PAGES_FROM_X:-47}" "${VIKA_PAGES_FROM_Y:-419}"
  sleep 1
  xdotool type --delay 80 "3"
  sleep 1
  click "${VIKA_PAGES_TO_X:-120}" "${VIKA_PAGES_TO_Y:-419}"
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
  click "${VIKA_CHIP_X:-985}" "${VIKA_CHIP_Y:-231}"
  sleep 2
  settle 30 "$work/viewer.png"
  read -r x1 y1 <<<"${VIKA_SELECT_FROM:-853 416}"
  read -r x2 y2 <<<"${VIKA_SELECT_TO:-1100 425}"
  # Select as a hand does with the mouse: a double-click on the first word, then a
  # shift-click at the end of the passage extends the selection to it.
  xdotool mousemove --sync $((X + x1)) $((Y + y1))
  sleep 0.3
  xdotool click --repeat 2 --delay 90 1
  sleep 0.5
  xdotool mousemove --sync $((X + x2)) $((Y + y2))
  sleep 0.3
  xdotool keydown shift click 1 keyup shift
  sleep 1
  settle 10 "$out-4-selection.png"
  # Explain is the menu's first button (focused by Tab from the selection's toolbar is not
  # reliable under xdotool): click it where the menu shows, under the selection's end.
  click "${VIKA_EXPLAIN_X:-$((x1 + 30))}" "${VIKA_EXPLAIN_Y:-$((y2 + 22))}"
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
  html=$(find "$exports" "$work" -name 'vika-conversation*.html' -print -quit 2>/dev/null || true)
  if [[ -n $html ]]; then
    chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
      --disable-sync --no-first-run --hide-scrollbars --window-size=1000,1400 --screenshot="$out-6-export.png" "file://$html" \
      >"$work/chromium.log" 2>&1 || say "chromium failed: $(tail -n 3 "$work/chromium.log")"
    [[ -f $out-6-export.png ]] && say "saved ${out#"$root"/}-6-export.png"
  else
    say "no HTML export was saved (see $work/dialog-$lang.png)"
  fi
  [[ -n ${VIKA_KEEP_STEPS:-} ]] && cp "$work"/*.png "$VIKA_KEEP_STEPS"/ 2>/dev/null
  true
done
