#!/usr/bin/env bash
# Smoke test of the production build in its real window: build/bin/vika (make
# build: the built bundle, the strict Content-Security-Policy, WebKitGTK) under
# Xvfb, in English and then in French (the language setting). For each:
#   1. the app opens with a generated 3-page PDF given as argument, and shows it
#      in the library, in that language;
#   2. a question typed in the chat is answered by the fake Gemini server
#      (frontend/e2e/fake-gemini.mjs): the prompt it received cites the PDF's
#      page 2, and the window shows the answer with its citation chips;
#   3. the first chip opens the viewer on page 2 (its text on screen, not page 1's);
#   4. the page reported no error: no "vika: frontend ..." line in the app's
#      stderr (uncaught exceptions, unhandled rejections, CSP violations and
#      console.error are written there by the app itself, lib/errorreport.ts).
# What the window shows is read back with Tesseract from screenshots, kept in
# build/window-test/. It exits 1 on the first failed check, naming it.
#
# Environment: VIKA_BIN (default build/bin/vika), VIKA_WINDOW_SHOTS (default
# build/window-test). Needs what scripts/window/lib.sh needs, and tesseract.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

source "$root/scripts/window/lib.sh"
window_script window-test "${VIKA_WINDOW_SHOTS:-$root/build/window-test}" tesseract curl

rm -rf "$shots"
mkdir -p "$shots"

pdf=$work/vika_e2e_generated.pdf
node frontend/e2e/pdf.mjs "$pdf"
question='xylophonic probing sequence'
label='vika_e2e_generated.pdf p.2'

window_start 1280x800

# The text of a screenshot, read by Tesseract (scaled up twice: UI text is
# small), twice: as a page (--psm 3) and as sparse text (--psm 11), which
# each miss lines the other reads. Crop: ${2:-the whole screen} (WxH+X+Y).
ocr() {
  local psm
  convert "$1" ${2:+-crop "$2" +repage} -resize 200% -colorspace Gray "$work/ocr.png"
  for psm in 3 11; do
    tesseract "$work/ocr.png" - -l eng+fra --psm "$psm" 2>/dev/null
  done | tr -s '[:space:]' ' '
}

# Text compared without case, spaces or underscores (Tesseract drops some).
squash() { tr -d '[:space:]_' | tr '[:upper:]' '[:lower:]'; }

# expect SHOT CROP WHAT TEXT...: each TEXT must be in that part of the
# screenshot (CROP "" for all of it).
expect() {
  local shot=$1 crop=$2 what=$3 text seen
  shift 3
  seen=$(ocr "$shot" "$crop")
  for text in "$@"; do
    [[ $(squash <<<"$seen") == *"$(squash <<<"$text")"* ]] ||
      fail "$what: \"$text\" is not on ${shot#"$root"/}; Tesseract read: $seen"
  done
}

# refuse SHOT CROP WHAT TEXT: TEXT must not be in that part of the screenshot.
refuse() {
  local seen
  seen=$(ocr "$1" "$2")
  if [[ $(squash <<<"$seen") == *"$(squash <<<"$4")"* ]]; then fail "$3: \"$4\" is on ${1#"$root"/} ($2)"; fi
}

requests() { curl -fsS "http://127.0.0.1:$fake_port/__requests"; }

# frontend_errors: the lines the page reported since the app started.
frontend_errors() { tail -n "+$((log_start + 1))" "$work/app.log" | grep -a '^vika: frontend' || true; }

# Parts of the 1280x800 window: the library (the 320 px sidebar), the centre
# column, and the viewer, which opens over the right of it (from x=746).
library=320x800+0+0 centre=960x800+320+0 viewer=534x800+746+0

touch "$work/app.log"
for lang in en fr; do
  case $lang in
  en) placeholder='Ask about your documents' model_used='Model used' found='The cited passage is highlighted' of='of 3' ;;
  fr) placeholder='Interrogez vos documents' model_used='Modèle utilisé' found='Le passage cité est surligné' of='sur 3' ;;
  esac
  say "--- $lang"
  export XDG_CONFIG_HOME=$work/config-$lang
  mkdir -p "$XDG_CONFIG_HOME/vika"
  printf '{"locale": "%s"}\n' "$lang" >"$XDG_CONFIG_HOME/vika/settings.json"
  offer_answered
  log_start=$(wc -l <"$work/app.log")
  asked=$(requests | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).length))')

  # 1. The window opens with the PDF added.
  start_app "$pdf"
  sleep 2
  settle 90 "$shots/$lang-1-document.png" 5
  expect "$shots/$lang-1-document.png" "$library" "the PDF given as argument is in the library ($lang)" vika_e2e_generated.pdf '3 pages'
  expect "$shots/$lang-1-document.png" "" "the window speaks $lang" "$placeholder"

  # 2. A question, answered by the fake provider from the PDF's page 2.
  ask "$question"
  sleep 2
  settle 40 "$shots/$lang-2-answer.png"
  requests >"$work/requests.json"
  node -e '
    const [file, before, label] = process.argv.slice(1);
    const reqs = JSON.parse(require("fs").readFileSync(file, "utf8")).slice(Number(before));
    const prompt = (r) => {
      try {
        return (JSON.parse(r.body).contents ?? []).flatMap((c) => c.parts ?? []).map((p) => p.text ?? "").join("");
      } catch { return ""; }
    };
    const asks = reqs.filter((r) => r.method === "POST").map(prompt).filter((p) => p.includes("<source "));
    if (asks.length === 0) { console.error(`no answer request reached the fake provider (${reqs.length} requests)`); process.exit(1); }
    if (!asks.some((p) => p.includes(label))) { console.error(`the prompt does not cite [${label}]`); process.exit(1); }
  ' "$work/requests.json" "$asked" "$label" || fail "the question did not reach the provider with the PDF's page 2 ($lang)"
  expect "$shots/$lang-2-answer.png" "$centre" "the answer with its chips and model line ($lang)" "green cheese" "$label" "$model_used"

  # 3. The first chip opens the viewer on page 2. From the question box,
  # Shift+Tab reaches the sources toggle (the answer's last control), three
  # more the first chip (the fake model's answer cites three times).
  key shift+Tab shift+Tab shift+Tab shift+Tab Return
  sleep 2
  settle 30 "$shots/$lang-3-viewer.png"
  expect "$shots/$lang-3-viewer.png" "$viewer" "the chip opens the viewer on page 2, highlighted ($lang)" "Hash tables" "xylophonic" "$found" "$of"
  refuse "$shots/$lang-3-viewer.png" "$viewer" "the viewer shows page 1, not page 2 ($lang)" "Sorting algorithms"
  stop_app

  # 4. No error, CSP violation or console error in the page.
  errors=$(frontend_errors)
  [[ -z $errors ]] || fail "the page reported errors ($lang):"$'\n'"$errors"
  say "$lang: window opened, PDF added, answer with chips, viewer on page 2, no page error"
done
say "passed (screenshots in ${shots#"$root"/})"
