#!/usr/bin/env bash
# Screenshots of the real window's explorer filters under Xvfb, in English and
# French, into build/screenshots/: native-explorer-filter-<lang>-1-figures.png
# (the ResNet paper's Figures tab, unfiltered) and -2-filtered.png (the words
# "ImageNet" and pages 5-6 typed into the filters). Same harness as
# screenshots-regions.sh (scripts/window/lib.sh); needs ../shared's ResNet.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-explorer "${VIKA_SHOTS:-$root/build/screenshots}"

resnet=$root/../shared/data/pdfs/he2015_resnet.pdf
[[ -f $resnet ]] || die "needs $resnet"
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
  out=$shots/native-explorer-filter-$lang
  start_app "$pdf"
  sleep 2
  settle 90 "$work/ready.png" 5
  click 481 27 # the Explorer view
  sleep 1
  settle 20 "$work/explorer.png"
  click "$figures_x" 246 # its Figures tab
  sleep 1
  settle 20 "$out-1-figures.png"
  # From the Figures tab, Tab passes Formulas and Outline and reaches the word filter.
  key Tab Tab Tab
  xdotool type --delay 15 'ImageNet'
  key Tab
  xdotool type --delay 15 '5-6'
  sleep 1
  settle 20 "$out-2-filtered.png"
  stop_app
done
