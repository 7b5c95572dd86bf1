#!/usr/bin/env bash
# Screenshots of the mind map in the real native window (WebKitGTK) under
# Xvfb, with the strict Content-Security-Policy, in English then French,
# into build/screenshots/:
#   mindmap-01-document-LANG.png  one document (en: Vaswani's paper, fr: Jégou's French slides):
#                                 its study guide made by the fake Gemini server, then the Mind
#                                 map tab: its outline, the guide's key terms under their sections
#   mindmap-02-viewer-LANG.png    a node clicked: the viewer open at its page
#   mindmap-03-course-LANG.png    the whole library (four PDFs, two without an outline: their
#                                 section titles): the course map
#   mindmap-04-list-LANG.png      the same map as a list (the keyboard's way to its pages)
# Words are found on the screen with Tesseract (click_text, scripts/window/lib.sh). The
# script fails if the page reported an error (a CSP violation among them).
# Same tools as screenshots.sh, plus tesseract. MINDMAP_LANGS="fr" shoots one language.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-mindmap "${VIKA_SHOTS:-$root/build/screenshots}" tesseract

data=$root/../shared/data/pdfs
pdfs=("$data/vaswani2017_attention_is_all_you_need.pdf" "$data/devlin2019_bert.pdf" "$data/he2015_resnet.pdf"
  "$data/jegou_statistique_inferentielle_slides_fr.pdf")
for p in "${pdfs[@]}"; do [[ -f $p ]] || die "the shared PDFs are missing ($p)"; done
export FAKE_GEMINI_DELAY_MS=5 # the fake streams its pieces quickly: the guide's requests take seconds
window_start 1280x800

# wait_gone REGEX LIMIT: waits until no word of the screen matches REGEX (a running job's
# Cancel button), at most LIMIT seconds.
wait_gone() {
  local re=$1 limit=$2 t0=$SECONDS
  while ((SECONDS - t0 < limit)); do
    import -window root "$work/ocr.png"
    tesseract "$work/ocr.png" - -l eng+fra --psm 11 tsv 2>/dev/null | awk -F'\t' -v re="^($re)$" 'NR > 1 && $12 ~ re { f = 1 } END { exit !f }' || return 0
    sleep 2
  done
  fail "'$re' still on the screen after ${limit}s"
}

# click_small REGEX: clicks the first word matching REGEX (whole word) among the mind
# map's small labels, read by Tesseract from the screen enlarged twice (the map is drawn
# fitted, its labels too small for click_text's reading at 1:1).
click_small() {
  local re=$1 at x y
  import -window root "$work/ocr.png"
  convert "$work/ocr.png" -resize 200% "$work/ocr2.png"
  at=$(tesseract "$work/ocr2.png" - -l eng+fra --psm 11 tsv 2>/dev/null |
    awk -F'\t' -v re="^($re)$" 'NR > 1 && $12 ~ re && $7 >= 640 { print int(($8 + $10 / 2) / 24), int(($7 + $9 / 2) / 2), int(($8 + $10 / 2) / 2) }' |
    sort -n -k1,1 -k2,2 | head -n 1)
  [[ -n $at ]] || fail "no label matching '$re' in the map (see $work/ocr2.png)"
  read -r _ x y <<<"$at"
  xdotool mousemove --sync "$x" "$y" click 1
}

# shoot LANG STUDY CANCEL MAP LIST PICK NODE: the window's words for the Study tab, a job's
# Cancel button, the mind map's tab and its list's summary in LANG; the key choosing the
# document in the picker; a word of a node to click.
shoot() {
  local lang=$1 tab=$2 cancel=$3 map=$4 list=$5 pick=$6 node=$7
  printf '{"locale": "%s"}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  start_app "${pdfs[@]}"
  sleep 20 # the page loads, then main.go adds the PDFs
  settle 300 "$work/library-$lang.png" 8
  click_text "$tab" 1 320
  settle 30 "$work/study-$lang.png" 2
  click_text Document 1 320
  sleep 0.5
  key "$pick"
  settle 30 "$work/picked-$lang.png" 2
  click_primary # Make the study guide
  sleep 2
  wait_gone "$cancel" 300
  settle 30 "$work/guide-$lang.png" 2
  click_text "$map" 1 320
  settle 30 "$shots/mindmap-01-document-$lang.png" 3
  click_small "$node"
  settle 60 "$shots/mindmap-02-viewer-$lang.png" 3
  key Escape # back from the viewer
  sleep 1
  # The document picker: focused by its label, the last option (the whole library) chosen by keyboard.
  click_text Document 1 320
  sleep 0.5
  key End
  settle 30 "$shots/mindmap-03-course-$lang.png" 3
  xdotool mousemove --sync 800 200 click --repeat 10 --delay 100 5 # the wheel, down (over the page, not the map)
  sleep 1
  click_text "$list" 1 320
  sleep 1
  xdotool mousemove --sync 800 200 click --repeat 10 --delay 100 5
  settle 30 "$shots/mindmap-04-list-$lang.png" 2
  stop_app
}

for lang in ${MINDMAP_LANGS:-en fr}; do
  case $lang in
  # The picker, focused, chooses a document by its first letter.
  en) shoot en Study Cancel Mind list v Training ;;
  fr) shoot fr 'R.+viser' Annuler Carte liste j Statistique ;; # awk (mawk) matches bytes: é is two
  *) die "MINDMAP_LANGS: en or fr, not $lang" ;;
  esac
done
rm "$XDG_CONFIG_HOME/vika/settings.json"
if grep 'vika: frontend' "$work/app.log"; then fail "the page reported errors (above)"; fi
say "done"
