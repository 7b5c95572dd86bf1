#!/usr/bin/env bash
# Screenshots of the summary index in the real native window (WebKitGTK)
# under Xvfb, in English and French, into build/screenshots/ (VIKA_SHOTS):
#   native-summary-<lang>-1-settings.png  Settings → Summary index, off: what
#                                         summarising the PDF here would cost
#                                         (requests, tokens, model), before
#                                         anything is asked
#   native-summary-<lang>-2-answer.png    with the index on (the PDF added
#                                         again, its passages summarised by the
#                                         fake model): an answer, its pipeline
#                                         strip counting the sources the
#                                         summary list ranked
#   native-summary-<lang>-3-sources.png   its sources opened: "its summary
#                                         matched too"
# The fake Gemini (frontend/e2e/fake-gemini.mjs) answers each summary
# request with the passage's section and first sentence (leadSummary). The
# PDF is ../shared/data/pdfs/shannon1948_mathematical_theory_of_communication.pdf.
# Same machinery as screenshots-formulas.sh (scripts/window/lib.sh); VIKA_BIN,
# VIKA_SHOT_LANGS (default "en fr").
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-summary "${VIKA_SHOTS:-$root/build/screenshots}"

paper=$root/../shared/data/pdfs/shannon1948_mathematical_theory_of_communication.pdf
[[ -f $paper ]] || die "needs $paper"
pdf=$work/shannon1948.pdf
cp "$paper" "$pdf"

export FAKE_GEMINI_DELAY_MS=5 # one summary a passage: quick pieces
window_start 1280x800

for lang in ${VIKA_SHOT_LANGS:-en fr}; do
  case $lang in
  en) export LANGUAGE=en_US LANG=en_US.UTF-8 settings_x=703 ;;
  fr) export LANGUAGE=fr_FR LANG=fr_FR.UTF-8 settings_x=803 ;;
  *) die "unknown language $lang" ;;
  esac
  mkdir -p "$XDG_CONFIG_HOME/vika"
  out=$shots/native-summary-$lang

  # 1. The index off: the cost of summarising the PDF added.
  printf '{"locale": "%s", "summarize_max": 120}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  start_app "$pdf"
  sleep 2
  settle 180 "$work/ready.png" 10
  click "$settings_x" 27
  sleep 1
  settle 15 "$work/settings.png"
  click 460 76
  key End
  sleep 0.5
  key Prior
  sleep 1
  settle 15 "$out-1-settings.png"
  stop_app

  # 2. The index on: the PDF added again is summarised, then a question.
  printf '{"locale": "%s", "summarize": true, "summarize_max": 120}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  start_app "$pdf"
  sleep 2
  settle 300 "$work/summarised.png" 15 # the add, then the summarising job with its progress
  sleep 5
  ask 'What is the capacity of a noisy channel?'
  sleep 3
  settle 60 "$out-2-answer.png" 2
  key shift+Tab Return
  sleep 1
  key Tab
  sleep 1
  settle 15 "$out-3-sources.png"
  stop_app
done
say "saved $shots/native-summary-*.png"
