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
# VIKA_SHOT_LANGS (default "en fr"), VIKA_SUMMARY_PARTS (default "1 2": the
# settings, the answer), VIKA_SUMMARY_PAGES (page-ups from the end of Settings).
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
  en) export LANGUAGE=en_US LANG=en_US.UTF-8 settings_x=793 ;;
  fr) export LANGUAGE=fr_FR LANG=fr_FR.UTF-8 settings_x=902 ;;
  *) die "unknown language $lang" ;;
  esac
  mkdir -p "$XDG_CONFIG_HOME/vika"
  out=$shots/native-summary-$lang

  # 1. The index off: the cost of summarising the PDF added.
  if [[ " ${VIKA_SUMMARY_PARTS:-1 2} " == *" 1 "* ]]; then
  printf '{"locale": "%s", "summarize_max": 120}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  start_app "$pdf"
  sleep 2
  settle 180 "$work/ready.png" 10
  click "$settings_x" 27
  sleep 1
  settle 15 "$work/settings.png"
  # Scrolled from the end, a page at a time: the section sits above
  # "Remember" and the language (VIKA_SUMMARY_PAGES pages up, default 2).
  click 460 76
  key End
  sleep 0.5
  for ((i = 0; i < ${VIKA_SUMMARY_PAGES:-2}; i++)); do
    key Prior
    sleep 0.5
  done
  sleep 1
  settle 15 "$out-1-settings.png"
  stop_app
  fi

  # 2. The index on: the PDF added again is summarised, then a question.
  [[ " ${VIKA_SUMMARY_PARTS:-1 2} " == *" 2 "* ]] || continue
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
