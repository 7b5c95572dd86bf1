#!/usr/bin/env bash
# Screenshots of an answer's eight sources in the real native window under
# Xvfb, in English and French, into build/screenshots/ (VIKA_SHOTS):
#   native-sources-LANG-1.png   the sources panel opened, sources 1 to 3
#   native-sources-LANG-2.png   focus moved down the list, the middle sources
#   native-sources-LANG-3.png   the last sources, up to the 8th
# The question is ResNet's "residual learning framework to ease the training
# of deep networks", whose words the titles of its reference list (page 9)
# also hold: the shots show which pages the eight sources are on (a
# reference list comes after the other passages unless the question is about
# references: backend/retrieve/references.go). It runs build/bin/vika (make
# build) with ../shared/data/pdfs/he2015_resnet.pdf; answers come from
# frontend/e2e/fake-gemini.mjs. VIKA_SHOT_LANGS (default "en fr").
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-sources "${VIKA_SHOTS:-$root/build/screenshots}"

resnet=$root/../shared/data/pdfs/he2015_resnet.pdf
[[ -f $resnet ]] || die "needs $resnet"
pdf=$work/he2015_resnet.pdf
cp "$resnet" "$pdf"

window_start 1280x800
offer_answered

for lang in ${VIKA_SHOT_LANGS:-en fr}; do
  case $lang in
  en) export LANGUAGE=en_US LANG=en_US.UTF-8 ;;
  fr) export LANGUAGE=fr_FR LANG=fr_FR.UTF-8 ;;
  *) die "unknown language $lang" ;;
  esac
  mkdir -p "$XDG_CONFIG_HOME/vika"
  printf '{"locale": "%s"}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  out=$shots/native-sources-$lang
  start_app "$pdf"
  sleep 2
  settle 90 "$work/ready.png" 5
  ask 'residual learning framework to ease the training of deep networks'
  sleep 2
  settle 40 "$work/answer.png"
  # Shift+Tab reaches the sources toggle; Tab then focuses (and scrolls to) each source in turn.
  key shift+Tab Return
  sleep 1
  key Tab
  sleep 1
  settle 15 "$out-1.png"
  key Tab Tab Tab Tab
  sleep 1
  settle 15 "$out-2.png"
  key Tab Tab Tab
  sleep 1
  settle 15 "$out-3.png"
  stop_app
done
say "saved $shots/native-sources-*.png"
