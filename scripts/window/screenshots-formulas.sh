#!/usr/bin/env bash
# Screenshots of formulas transcribed into LaTeX in the real native window
# (WebKitGTK) under Xvfb, in English and French, into build/screenshots/:
#   native-formulas-<lang>-1-settings.png   Settings: "Figures and tables", LaTeX of formulas on
#   native-formulas-<lang>-2-explorer.png   the explorer's Formulas tab, each formula with its LaTeX
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
window_script screenshots-formulas "${VIKA_SHOTS:-$root/build/screenshots}"

paper=$root/../shared/data/pdfs/vaswani2017_attention_is_all_you_need.pdf
[[ -f $paper ]] || die "needs $paper (the generated PDF has no display formula)"

pdf=$work/vaswani2017_attention_is_all_you_need.pdf
cp "$paper" "$pdf"

window_start 1280x800

for lang in ${VIKA_SHOT_LANGS:-en fr}; do
  case $lang in
  en) export LANGUAGE=en_US LANG=en_US.UTF-8 settings_x=703 ;;
  fr) export LANGUAGE=fr_FR LANG=fr_FR.UTF-8 settings_x=803 ;;
  *) die "unknown language $lang" ;;
  esac
  mkdir -p "$XDG_CONFIG_HOME/vika"
  printf '{"locale": "%s", "describe": true, "describe_model": "gemini/gemini-2.5-flash", "describe_formulas": true, "describe_max": 20}\n' \
    "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  out=$shots/native-formulas-$lang
  start_app "$pdf"
  sleep 2
  # The add, then the describing job (figures, then formulas) with its progress.
  settle 150 "$work/ready.png" 5

  # Settings (the last tab at the top; its x depends on the language), scrolled to "Figures and tables".
  click "$settings_x" 27
  sleep 1
  settle 15 "$work/settings.png"
  click 460 76
  key End
  sleep 0.5
  key Prior
  sleep 1
  settle 15 "$out-1-settings.png"
  key Escape
  sleep 1

  # The explorer, its Formulas tab (the fifth of the tabs right of the document).
  click 481 27
  sleep 1
  settle 20 "$work/explorer.png"
  click "${VIKA_FORMULAS_TAB_X:-1066}" "${VIKA_FORMULAS_TAB_Y:-246}"
  sleep 1
  settle 20 "$out-2-explorer.png"
  stop_app
done
