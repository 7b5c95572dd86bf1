# Driving the real native window (WebKitGTK) under Xvfb, for
# scripts/window/screenshots.sh and scripts/window/window-test.sh, which source this file.
#
# The caller sets root (the repository) and cds there, then calls
#   window_script NAME SHOTS [TOOL...]   say, die and fail prefixed with NAME; bin
#                         (VIKA_BIN, else build/bin/vika); the tools checked; work (a
#                         fresh temporary folder, removed on exit with all that the
#                         script started: window_trap); SHOTS made
#   window_start WxH      Xvfb (window_xvfb), the fake provider (window_fake_gemini: sets
#                         fake_port, points the app at it), the app's private config,
#                         runtime dir and session bus (window_env)
# and then start_app FILE..., stop_app, settle, wait_color, click, drag, key. The app's stdout and
# stderr go to $work/app.log.
# Needs: Xvfb, xdotool, imagemagick (import, compare), setsid, node.

window_script() {
  script_name=$1
  shots=$2
  shift 2
  bin=${VIKA_BIN:-$root/build/bin/vika}
  window_require "$@"
  work=$(mktemp -d "/tmp/vika-$script_name.XXXXXX")
  window_trap
  mkdir -p "$shots"
}

say() { printf '%s: %s\n' "$script_name" "$*" >&2; }
die() {
  printf '%s: error: %s\n' "$script_name" "$*" >&2
  exit 2
}
fail() {
  printf '%s: FAILED: %s\n' "$script_name" "$*" >&2
  exit 1
}

window_start() {
  window_xvfb "$1"
  window_fake_gemini
  window_env
}

window_require() {
  local cmd
  for cmd in Xvfb xdotool import compare setsid node "$@"; do
    command -v "$cmd" >/dev/null || die "$cmd is missing (see scripts/setup/apt-packages.txt, or run make deps)"
  done
  [[ -x $bin ]] || die "$bin is missing: run 'make build'"
}

groups=()
fake_pid=
window_teardown() {
  local status=$? g i
  trap - EXIT INT TERM HUP
  set +e
  [[ -n $fake_pid ]] && kill -TERM "$fake_pid" 2>/dev/null
  # The app first (it needs the display to close cleanly), then Xvfb.
  for g in "${groups[@]}"; do
    kill -TERM -- "-$g" 2>/dev/null
    for ((i = 0; i < 50; i++)); do
      pgrep -g "$g" >/dev/null || break
      sleep 0.1
    done
    if pgrep -g "$g" >/dev/null; then
      say "killing what is left of process group $g"
      kill -KILL -- "-$g" 2>/dev/null
    fi
  done
  if ((status != 0)) && [[ -f $work/app.log ]]; then
    say "failed (status $status); last lines of the app's log:"
    tail -n 30 "$work/app.log" | cut -c1-300 | sed 's/^/  | /' >&2
  fi
  rm -rf "$work"
  exit "$status"
}

window_trap() {
  trap window_teardown EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM HUP
}

# Xvfb on a free display (-displayfd: the server picks it and tells us).
window_xvfb() {
  local i
  setsid Xvfb -displayfd 3 -screen 0 "${1}x24" -nolisten tcp 3>"$work/display" </dev/null >"$work/xvfb.log" 2>&1 &
  xvfb=$!
  groups=("$xvfb")
  for ((i = 0; i < 100; i++)); do
    [[ -s $work/display ]] && break
    kill -0 "$xvfb" 2>/dev/null || die "Xvfb did not start: $(cat "$work/xvfb.log")"
    sleep 0.1
  done
  [[ -s $work/display ]] || die "Xvfb did not report its display within 10s"
  export DISPLAY=:$(tr -d '[:space:]' <"$work/display")
  say "Xvfb on display $DISPLAY"
}

# The fake LLM provider, on a free port; the app gets its URL and a fake key.
window_fake_gemini() {
  local i
  node "$root/frontend/e2e/fake-gemini.mjs" 0 </dev/null >"$work/fake.log" 2>&1 &
  fake_pid=$!
  for ((i = 0; i < 300; i++)); do # node can take seconds to start on a loaded machine
    grep -qs 'listening on' "$work/fake.log" && break
    sleep 0.1
  done
  fake_port=$(sed -n 's/^fake-gemini listening on \([0-9]*\)$/\1/p' "$work/fake.log")
  [[ -n $fake_port ]] || die "the fake Gemini server did not start: $(cat "$work/fake.log")"
  unset MISTRAL_API_KEY GROQ_API_KEY OPENROUTER_API_KEY
  export GEMINI_API_KEY=fake VIKA_GEMINI_BASE_URL=http://127.0.0.1:$fake_port
  export VIKA_OLLAMA_BASE_URL=http://127.0.0.1:9 # nothing listens: no local model
}

# The app's environment: no saved settings of the user's, a private session bus.
window_env() {
  export XDG_CONFIG_HOME=$work/config
  export NO_AT_BRIDGE=1 # no accessibility bus
  export XDG_RUNTIME_DIR=$work/runtime
  mkdir -p "$XDG_CONFIG_HOME"
  offer_answered
  mkdir -m 700 "$XDG_RUNTIME_DIR"
  launcher=()
  command -v dbus-run-session >/dev/null && launcher=(dbus-run-session --)
  app=
}

# Records "Not now" to the first-run model offer under $XDG_CONFIG_HOME, so that the window
# looks as it does for a user who answered it (screenshots.sh shows the offer first).
offer_answered() {
  mkdir -p "$XDG_CONFIG_HOME/vika"
  printf '{"answer": "declined", "at": "2026-01-01T00:00:00Z"}\n' >"$XDG_CONFIG_HOME/vika/model-offer.json"
}

# Starts the app with the given files; sets window, X, Y, WIDTH, HEIGHT.
start_app() {
  started=$SECONDS
  setsid "${launcher[@]}" "$bin" "$@" </dev/null >>"$work/app.log" 2>&1 &
  app=$!
  groups=("$app" "$xvfb")
  window=
  while [[ -z $window ]]; do
    window=$(xdotool search --onlyvisible --name '^Vika$' 2>/dev/null | head -n 1) || true
    [[ -n $window ]] && break
    kill -0 "$app" 2>/dev/null || die "the app exited before showing its window"
    ((SECONDS - started < 60)) || die "no window named Vika within 60s"
    sleep 0.5
  done
  say "window $window after $((SECONDS - started))s"
  eval "$(xdotool getwindowgeometry --shell "$window")" # X, Y, WIDTH, HEIGHT
}

stop_app() {
  local i
  kill -TERM -- "-$app" 2>/dev/null
  for ((i = 0; i < 50; i++)); do
    pgrep -g "$app" >/dev/null || break
    sleep 0.1
  done
  pgrep -g "$app" >/dev/null && kill -KILL -- "-$app" 2>/dev/null
  groups=("$xvfb")
}

# Waits until the screen stays the same for ${3:-1} seconds (screenshots a
# second apart are identical: the page has settled, no progress moving), at
# most $1 seconds; saves the last screenshot as $2.
settle() {
  local limit=$1 out=$2 quiet=${3:-1} same=0 prev=$work/prev.png cur=$work/cur.png diff t0=$SECONDS
  import -window root "$prev"
  while ((SECONDS - t0 < limit)); do
    sleep 1
    import -window root "$cur"
    diff=$(compare -metric AE "$prev" "$cur" null: 2>&1 || true)
    mv "$cur" "$prev"
    if [[ $diff == 0 ]]; then
      if ((++same >= quiet)); then
        mv "$prev" "$out"
        say "saved ${out#"$root"/} ($((SECONDS - started))s)"
        return 0
      fi
    else
      same=0
    fi
  done
  say "the window was still changing after ${limit}s"
  mv "$prev" "$out"
}

# Prints the first y (relative to the window) in [y0, y1) where column x of the screen is colour ("#RRGGBB",
# exactly), waiting up to ${5:-0} seconds for it; fails, printing nothing, when it does not show.
wait_color() {
  local x=$1 y0=$2 y1=$3 color=${4^^} limit=${5:-0} t0=$SECONDS y
  while :; do
    import -window root -crop "1x$((y1 - y0))+$((X + x))+$((Y + y0))" +repage "$work/column.png"
    y=$(convert "$work/column.png" txt:- | awk -v c="$color" 'NR > 1 && $3 == c { split($1, p, /[,:]/); print p[2]; exit }')
    if [[ -n $y ]]; then
      echo $((y0 + y))
      return 0
    fi
    ((SECONDS - t0 < limit)) || return 1
    sleep 1
  done
}

click() { # x y, relative to the window
  xdotool mousemove --sync $((X + $1)) $((Y + $2)) click 1
}

# Drags with the first button held from x1 y1 to x2 y2 (relative to the window), in ${5:-8} steps, as a hand does
# (xdotool's single jump from press to release did not select in WebKitGTK under Xvfb).
drag() {
  local x1=$1 y1=$2 x2=$3 y2=$4 n=${5:-8} i
  xdotool mousemove --sync $((X + x1)) $((Y + y1))
  sleep 0.3
  xdotool mousedown 1
  sleep 0.3
  for ((i = 1; i <= n; i++)); do
    xdotool mousemove --sync $((X + x1 + (x2 - x1) * i / n)) $((Y + y1 + (y2 - y1) * i / n))
    sleep 0.15
  done
  sleep 0.3
  xdotool mouseup 1
}

key() {
  xdotool key --delay 80 "$@"
}

# Asks the question $1 from the question box (it spans the bottom of the centre
# column, right of the 320 px sidebar). ASCII only: under load xdotool typed "é" as
# another character or not at all (it remaps a spare keycode for each non-ASCII one).
ask() {
  [[ $1 == *[![:ascii:]]* ]] && die "ask: type ASCII only (xdotool loses accents under load): $1"
  click $((320 + (WIDTH - 320) / 2)) $((HEIGHT - 85)) # the text area, above the switches and numbers under it
  sleep 0.5
  xdotool type --delay 15 "$1"
  key Return
}

# click_text REGEX [NTH] [MIN_X] [DY]: clicks the NTH (default 1) word of
# the screen matching REGEX (an awk regular expression, whole word), counted
# top to bottom then left to right, among those from x = MIN_X on, DY pixels
# below it (default 0); the words are Tesseract's reading of a screenshot
# (the script needs tesseract: window_script NAME DIR tesseract).
click_text() {
  local re=$1 nth=${2:-1} minx=${3:-0} dy=${4:-0} at
  import -window root "$work/ocr.png"
  at=$(tesseract "$work/ocr.png" - -l eng+fra --psm 11 tsv 2>/dev/null |
    awk -F'\t' -v re="^($re)$" -v mx="$minx" \
      'NR > 1 && $12 ~ re && $7 >= mx { y = $8 + int($10 / 2); print int(y / 12), $7 + int($9 / 2), y }' |
    sort -n -k1,1 -k2,2 | sed -n "${nth}p")
  [[ -n $at ]] || fail "no word matching '$re' on the screen (see $work/ocr.png)"
  read -r _ x y <<<"$at"
  xdotool mousemove --sync "$x" "$((y + dy))" click 1
}

# click_primary: clicks the solid accent-coloured button of the centre
# column (the view's one primary button; Tesseract does not read its white
# text): the bounding box of that colour, thin lines and text removed.
click_primary() {
  local box w h x y
  import -window root "$work/shot.png"
  box=$(convert "$work/shot.png" -crop +320+60 +repage -fuzz 8% -fill white +opaque 'srgb(47,98,208)' \
    -fill black -opaque 'srgb(47,98,208)' -morphology Dilate Square:4 -format '%@' info:)
  [[ $box =~ ^([0-9]+)x([0-9]+)\+([0-9]+)\+([0-9]+)$ ]] || fail "no primary button on the screen (see $work/shot.png)"
  w=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]} x=${BASH_REMATCH[3]} y=${BASH_REMATCH[4]}
  ((w > 40 && h > 15)) || fail "no primary button on the screen (see $work/shot.png)"
  xdotool mousemove --sync $((320 + x + w / 2)) $((60 + y + h / 2)) click 1
}
