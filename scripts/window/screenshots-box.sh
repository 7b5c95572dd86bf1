#!/usr/bin/env bash
# Screenshots of the models of the box at work in the real native window under Xvfb, in
# English and French, into build/screenshots/ (VIKA_SHOTS):
#   native-box-LANG-sources.png     a French question over the French slides: the sources
#                                   panel, each source found by meaning (its cosine band)
#                                   and reranked
#   native-box-LANG-dashboard.png   the dashboard: the relevance proxy is the cross-encoder's
#   native-box-LANG-dashboard-row.png  the question's row, Hit@5, Recall@5 and MRR filled
# It runs build/bin/vika (make build) with ../shared/data/pdfs/jegou_statistique_inferentielle_slides_fr.pdf
# and the models `make assets` installs (the box); answers come from frontend/e2e/fake-gemini.mjs.
# VIKA_SHOT_LANGS (default "en fr").
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-box "${VIKA_SHOTS:-$root/build/screenshots}"

slides=$root/../shared/data/pdfs/jegou_statistique_inferentielle_slides_fr.pdf
[[ -f $slides ]] || die "needs $slides"
pdf=$work/cours_statistique.pdf
cp "$slides" "$pdf"

window_start 1280x800
offer_answered

for lang in ${VIKA_SHOT_LANGS:-en fr}; do
  case $lang in
  en) export LANGUAGE=en_US LANG=en_US.UTF-8 dashboard_x=680 ;; # the Dashboard tab, by the width of the labels before it
  fr) export LANGUAGE=fr_FR LANG=fr_FR.UTF-8 dashboard_x=765 ;;
  *) die "unknown language $lang" ;;
  esac
  mkdir -p "$XDG_CONFIG_HOME/vika"
  printf '{"locale": "%s"}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  out=$shots/native-box-$lang
  start_app "$pdf"
  sleep 2
  settle 120 "$work/ready.png" 5
  ask "Quelle branche de la statistique se contente de decrire les donnees observees, sans chercher a generaliser ?" # ASCII: xdotool loses accents
  sleep 2
  settle 60 "$work/answer.png"
  key shift+Tab Return
  sleep 1
  key Tab
  sleep 1
  settle 15 "$out-sources.png"
  click "$dashboard_x" 27
  sleep 1
  settle 20 "$out-dashboard.png"
  # The question's row, with its Hit@5, Recall@5 and MRR, is below the charts.
  click 800 470
  key End
  sleep 1
  settle 15 "$out-dashboard-row.png"
  stop_app
done
say "saved $shots/native-box-*.png"
