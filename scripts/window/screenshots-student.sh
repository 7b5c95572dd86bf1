#!/usr/bin/env bash
# Screenshots of formulas rendered as MathML and of the scope, in the real
# native window (WebKitGTK) under Xvfb, in English and French, into
# build/screenshots/:
#   native-student-<lang>-1-answer.png    an answer with Vaswani's attention formula rendered, scope chips above it
#   native-student-<lang>-2-sources.png   its sources, the formula passage's LaTeX rendered
#   native-student-<lang>-3-explorer.png  the explorer's Formulas tab, each transcription rendered
# The settings turn describing on (Gemini 2.5 Flash, formulas on); adding
# Vaswani et al. from ../shared (required) then sends each formula's crop to
# frontend/e2e/fake-gemini.mjs, whose fake vision model writes LaTeX from the
# text sent with the crop. Same machinery as scripts/window/screenshots-regions.sh
# (scripts/window/lib.sh, build/bin/vika from make build).
#
# Environment: VIKA_BIN, VIKA_SHOTS as in screenshots.sh; VIKA_SHOT_LANGS
# (default "en fr"); VIKA_FORMULAS_TAB_X, VIKA_FORMULAS_TAB_Y (the Formulas
# tab, at 1280x800).
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
  en) export LANGUAGE=en_US LANG=en_US.UTF-8 question="What is Scaled Dot-Product Attention? Give its formula with softmax and the square root of dk." ;;
  fr) export LANGUAGE=fr_FR LANG=fr_FR.UTF-8 question="Scaled Dot-Product Attention : quelle formule, avec softmax et la racine de dk ?" ;;
  *) die "unknown language $lang" ;;
  esac
  mkdir -p "$XDG_CONFIG_HOME/vika"
  printf '{"locale": "%s", "describe": true, "describe_model": "gemini/gemini-2.5-flash", "describe_formulas": true, "describe_max": 20}\n' \
    "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  out=$shots/native-student-$lang
  start_app "$pdf"
  sleep 2
  settle 150 "$work/ready.png" 5
  # The scope: pages 3 to 5 in the library's page fields (left column, under the document).
  click "${VIKA_PAGES_FROM_X:-47}" "${VIKA_PAGES_FROM_Y:-334}"
  xdotool type --delay 15 "3"
  click "${VIKA_PAGES_TO_X:-120}" "${VIKA_PAGES_TO_Y:-334}"
  xdotool type --delay 15 "5"
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
  stop_app
done
