#!/usr/bin/env bash
# Screenshots of tables and figures in the real native window (WebKitGTK)
# under Xvfb, in English and French, into build/screenshots/:
#   native-regions-<lang>-1-table-answer.png   an answer cited from a table
#   native-regions-<lang>-2-table-viewer.png   its chip opened: the table outlined on its page
#   native-regions-<lang>-3-table-source.png   the sources panel: the table rendered
#   native-regions-<lang>-4-figure-source.png  an answer from a figure's image, its thumbnail
#   native-regions-<lang>-5-explorer-figures.png  the explorer's Figures tab
# Same machinery as scripts/window/screenshots.sh (scripts/window/lib.sh): build/bin/vika
# (make build), the ResNet paper from ../shared (required: the generated PDF has
# no table or figure), answers from frontend/e2e/fake-gemini.mjs.
#
# Environment: VIKA_BIN, VIKA_SHOTS as in screenshots.sh; VIKA_SHOT_LANGS
# (default "en fr"). The window's language is set in its settings file (the
# Settings view's language), and the system's (LANGUAGE/LANG) follows.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-regions "${VIKA_SHOTS:-$root/build/screenshots}"

resnet=$root/../shared/data/pdfs/he2015_resnet.pdf
[[ -f $resnet ]] || die "needs $resnet (the generated PDF has no table or figure)"

pdf=$work/he2015_resnet.pdf
cp "$resnet" "$pdf"

window_start 1280x800

for lang in ${VIKA_SHOT_LANGS:-en fr}; do
  case $lang in
  en) export LANGUAGE=en_US LANG=en_US.UTF-8 figures_x=993 ;;
  fr) export LANGUAGE=fr_FR LANG=fr_FR.UTF-8 figures_x=1029 ;;
  *) die "unknown language $lang" ;;
  esac
  mkdir -p "$XDG_CONFIG_HOME/vika"
  printf '{"locale": "%s"}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  out=$shots/native-regions-$lang
  start_app "$pdf"
  sleep 2
  settle 90 "$work/ready.png" 5

  # A table answer: Table 2 (page 5) is the first source; the fake model cites it first.
  ask 'What top-1 error do plain-34 and ResNet-34 reach with 10-crop testing?'
  sleep 2
  settle 40 "$out-1-table-answer.png"
  # From the question box, four Shift+Tabs reach the first chip (as in screenshots.sh).
  key shift+Tab shift+Tab shift+Tab shift+Tab Return
  sleep 2
  settle 30 "$out-2-table-viewer.png"
  key Escape
  sleep 0.5
  key Tab Tab Tab Return
  sleep 1
  settle 15 "$out-3-table-source.png"

  # A figure answer: its crop goes to the (fake) vision model; the sources show the thumbnail.
  ask 'What does Figure 2 show about residual learning?'
  sleep 2
  settle 40 "$work/figure-answer.png"
  # Shift+Tab reaches the sources toggle; Tab then focuses (and scrolls to) the first source.
  key shift+Tab Return
  sleep 1
  key Tab
  sleep 1
  settle 15 "$out-4-figure-source.png"

  # The explorer, its Figures tab (the fourth of the tabs right of the document, at 1280x800;
  # its place follows the labels' length, hence one x per language).
  click 481 27
  sleep 1
  settle 20 "$work/explorer.png"
  click "${VIKA_FIGURES_TAB_X:-$figures_x}" "${VIKA_FIGURES_TAB_Y:-246}"
  sleep 1
  settle 20 "$out-5-explorer-figures.png"
  stop_app
done
