#!/usr/bin/env bash
# Screenshots of what an answer says of its making, in the real native window
# under Xvfb, in English and French, into build/screenshots/ (VIKA_SHOTS):
#   native-pipeline-LANG-1.png   the answer: the fallback notice listing the
#                                models still to try, the pipeline strip
#   native-pipeline-LANG-2.png   the sources opened: each cosine's badge,
#                                coloured by its band
#   native-pipeline-LANG-3.png   further down the sources, more badges
# The fake Gemini (frontend/e2e/fake-gemini.mjs) answers the first answer
# request with its 429, so the app falls back to the next Gemini model and
# says which remain. The question is ResNet's Figure 4, with
# ../shared/data/pdfs/he2015_resnet.pdf. VIKA_BIN (default build/bin/vika),
# VIKA_SHOT_LANGS (default "en fr").
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script screenshots-pipeline "${VIKA_SHOTS:-$root/build/screenshots}"

resnet=$root/../shared/data/pdfs/he2015_resnet.pdf
[[ -f $resnet ]] || die "needs $resnet"
pdf=$work/he2015_resnet.pdf
cp "$resnet" "$pdf"

export FAKE_GEMINI_RATE_LIMIT=1 # the fake's first answer request gets its 429
window_start 1280x800
first=1
for lang in ${VIKA_SHOT_LANGS:-en fr}; do
  if ((!first)); then # a fresh fake, whose first answer is a 429 again
    kill -TERM "$fake_pid" 2>/dev/null
    wait "$fake_pid" 2>/dev/null || true
    window_fake_gemini
  fi
  first=0
  case $lang in
  en) export LANGUAGE=en_US LANG=en_US.UTF-8 ;;
  fr) export LANGUAGE=fr_FR LANG=fr_FR.UTF-8 ;;
  *) die "unknown language $lang" ;;
  esac
  mkdir -p "$XDG_CONFIG_HOME/vika"
  printf '{"locale": "%s"}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  out=$shots/native-pipeline-$lang
  start_app "$pdf"
  sleep 2
  settle 180 "$work/ready.png" 10
  sleep 10 # the first answer needs the PDF fully prepared (a short still screen is not enough)
  ask 'What does Figure 4 show about plain and residual networks on ImageNet?'
  sleep 3
  settle 60 "$out-1.png" 2
  # Shift+Tab reaches the sources toggle; Tab then focuses the first source.
  key shift+Tab Return
  sleep 1
  key Tab
  sleep 1
  settle 15 "$out-2.png"
  key Tab Tab Tab
  sleep 1
  settle 15 "$out-3.png"
  stop_app
done
say "saved $shots/native-pipeline-*.png"
