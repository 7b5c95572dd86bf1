#!/usr/bin/env bash
# Screenshots of course-wide study material in the real native window (WebKitGTK)
# under Xvfb, in English then French, into build/screenshots/:
#   wide-01-plan-LANG.png    three PDFs added; the Study tab set to the whole library: the plan
#                            (documents, pages, requests, tokens) before starting
#   wide-02-guide-LANG.png   the course-wide guide written by the fake Gemini server, its lines'
#                            chips citing the three documents
#   wide-03-chips-LANG.png   further down the same guide: lines citing the other documents
#   wide-04-several-LANG.png "Several documents…": the documents ticked together
# Words are found on the screen with Tesseract (click_text, scripts/window/lib.sh).
# Same tools as screenshots.sh, plus tesseract. WIDE_LANGS="fr" shoots one language.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-wide "${VIKA_SHOTS:-$root/build/screenshots}" tesseract

data=$root/../shared/data/pdfs
pdfs=("$data/vaswani2017_attention_is_all_you_need.pdf" "$data/devlin2019_bert.pdf" "$data/he2015_resnet.pdf")
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

# shoot LANG STUDY CANCEL: the window's words for the Study tab and a job's Cancel button in LANG.
shoot() {
  local lang=$1 tab=$2 cancel=$3
  printf '{"locale": "%s"}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  start_app "${pdfs[@]}"
  sleep 20 # the page loads, then main.go adds the PDFs
  settle 240 "$work/library-$lang.png" 8
  click_text "$tab" 1 320
  settle 30 "$work/study-$lang.png" 2
  # The document picker: focused by its label, the last option (the whole library) chosen by keyboard.
  click_text Document 1 320
  sleep 0.5
  key End
  settle 30 "$shots/wide-01-plan-$lang.png" 2
  click_primary # Make the study guide
  sleep 2
  wait_gone "$cancel" 300
  settle 30 "$shots/wide-02-guide-$lang.png" 2
  xdotool mousemove --sync 800 600 click --repeat 6 --delay 100 5 # the wheel, down
  settle 30 "$shots/wide-03-chips-$lang.png" 2
  xdotool click --repeat 30 --delay 30 4 # back up
  click_text Document 1 320
  sleep 0.5
  key End Up
  settle 30 "$shots/wide-04-several-$lang.png" 2
  stop_app
}

for lang in ${WIDE_LANGS:-en fr}; do
  case $lang in
  en) shoot en Study Cancel ;;
  fr) shoot fr 'R.+viser' Annuler ;; # awk (mawk) matches bytes: é is two
  *) die "WIDE_LANGS: en or fr, not $lang" ;;
  esac
done
rm "$XDG_CONFIG_HOME/vika/settings.json"
if grep 'vika: frontend' "$work/app.log"; then fail "the page reported errors (above)"; fi
say "done"
