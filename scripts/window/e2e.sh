#!/usr/bin/env bash
# End-to-end test: `wails dev` (the Go app with live bindings, proxying the Vite
# dev server) under Xvfb, driven by Playwright (npm playwright-core) in Debian's
# chromium. The test is frontend/e2e/vika.e2e.mjs; its screenshots go to
# build/screenshots/e2e-*.png.
#
# Needs: frontend/node_modules (npm ci), xvfb-run, /usr/bin/chromium, and a Go
# tree that compiles. wails dev regenerates the bindings (frontend/wailsjs).
#
# The chat's answers come from frontend/e2e/fake-gemini.mjs, a local server
# speaking Gemini's streaming wire format: the app gets VIKA_GEMINI_BASE_URL
# pointing at it and GEMINI_API_KEY=fake, no other provider's key, and a
# private config folder (no saved settings of the user's).
#
# Environment: VIKA_E2E_PORT (default 34115), VIKA_E2E_VITE_PORT (the Vite dev
# server behind it, default 5173: give concurrent runs each their own),
# VIKA_E2E_BOOT_TIMEOUT (seconds to
# wait for wails dev once the script has compiled its build, default 240), VIKA_E2E_TEST_TIMEOUT
# (default 300), VIKA_E2E_LOG (default build/e2e/wails-dev.log),
# VIKA_E2E_GENERATED=1 (use a generated PDF instead of ../shared's ResNet paper).
#
# Everything it starts runs in one process group (plus the group wails dev
# gives Vite), and is torn down on every exit path. It exits with the test's
# status.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

port=${VIKA_E2E_PORT:-34115}
vite_port=${VIKA_E2E_VITE_PORT:-5173}
[[ $vite_port =~ ^[0-9]+$ ]] && ((vite_port >= 1 && vite_port <= 65535)) || die "VIKA_E2E_VITE_PORT must be a port number, not '$vite_port'"
export VIKA_E2E_VITE_PORT=$vite_port # read by frontend/vite.config.ts
boot_timeout=${VIKA_E2E_BOOT_TIMEOUT:-240}
test_timeout=${VIKA_E2E_TEST_TIMEOUT:-300}
log=${VIKA_E2E_LOG:-$root/build/e2e/wails-dev.log}
url=http://localhost:$port

say() { printf 'e2e: %s\n' "$*" >&2; }
die() { printf 'e2e: error: %s\n' "$*" >&2; exit 2; }

# --- preconditions -----------------------------------------------------------
for cmd in xvfb-run node go curl setsid; do
  command -v "$cmd" >/dev/null || die "$cmd is missing (see scripts/setup/apt-packages.txt, or run make deps)"
done
[[ -x /usr/bin/chromium || -n ${VIKA_E2E_CHROMIUM:-} ]] || die "/usr/bin/chromium is missing (apt-get install chromium)"
[[ -d frontend/node_modules/playwright-core && -x frontend/node_modules/.bin/vite ]] ||
  die "frontend/node_modules is incomplete: run 'make deps' (or 'cd frontend && npm ci')"
# main.go embeds frontend/dist: it must exist even though wails dev serves Vite.
[[ -d frontend/dist ]] || { mkdir -p frontend/dist && touch frontend/dist/.gitkeep; }

listening() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null || (exec 3<>"/dev/tcp/::1/$1") 2>/dev/null
}
if listening "$port"; then
  die "port $port is already in use (another 'wails dev' or app?): stop it, or set VIKA_E2E_PORT"
fi
if listening "$vite_port"; then
  die "port $vite_port (Vite) is already in use (another e2e run?): stop it, or set VIKA_E2E_VITE_PORT"
fi

mkdir -p "$(dirname "$log")" build/screenshots
: >"$log"

# --- the fake LLM provider ----------------------------------------------------------
fake_log=$(dirname "$log")/fake-gemini.log
node frontend/e2e/fake-gemini.mjs 0 </dev/null >"$fake_log" 2>&1 &
fake_pid=$!
for ((i = 0; i < 300; i++)); do # node can take seconds to start on a loaded machine
  grep -q 'listening on' "$fake_log" && break
  kill -0 "$fake_pid" 2>/dev/null || die "the fake Gemini server did not start: $(cat "$fake_log")"
  sleep 0.1
done
fake_port=$(sed -n 's/^fake-gemini listening on \([0-9]*\)$/\1/p' "$fake_log")
[[ -n $fake_port ]] || { kill "$fake_pid" 2>/dev/null; die "the fake Gemini server did not report its port"; }
fake_url=http://127.0.0.1:$fake_port
config_home=$(mktemp -d /tmp/vika-e2e-config.XXXXXX)
# "Not now" to the first-run model offer, as a user who answered it (its own tests are vitest's).
mkdir -p "$config_home/vika"
printf '{"answer": "declined", "at": "2026-01-01T00:00:00Z"}\n' >"$config_home/vika/model-offer.json"
# The app's settings live under XDG_CONFIG_HOME; Go's own settings (go env -w) stay where they are.
GOENV=$(go env GOENV)
export GOENV
unset MISTRAL_API_KEY GROQ_API_KEY OPENROUTER_API_KEY
export GEMINI_API_KEY=fake VIKA_GEMINI_BASE_URL=$fake_url XDG_CONFIG_HOME=$config_home
export VIKA_OLLAMA_BASE_URL=http://127.0.0.1:9 # nothing listens: no local model

# --- start wails dev -----------------------------------------------------------
# -m / -nosyncgomod: never run `go mod tidy` nor rewrite go.mod;
# -noreload / -nogorebuild: no reload or rebuild when files change during the test;
# -s: no production build of the frontend (Vite serves it). xvfb-run adds -nolisten tcp.
export NO_AT_BRIDGE=1 # no accessibility bus under Xvfb
# Every process of the run inherits this mark, D-Bus daemons that GLib or a
# keyring access may autolaunch included: teardown stops them and fails if
# one cannot be stopped (scripts/window/daemons.sh).
# shellcheck source=scripts/window/daemons.sh
. "$root/scripts/window/daemons.sh"
export VIKA_E2E_RUN="$$.$RANDOM"
daemons_before=$(daemons_count)
if [[ -z ${XDG_RUNTIME_DIR:-} || ! -w ${XDG_RUNTIME_DIR:-/nonexistent} ]]; then
  XDG_RUNTIME_DIR=$(mktemp -d /tmp/vika-e2e-runtime.XXXXXX)
  export XDG_RUNTIME_DIR
  own_runtime=$XDG_RUNTIME_DIR
fi

# --- compile first ---------------------------------------------------------------
# wails dev compiles the app unoptimised (-gcflags all=-N -l, tag dev, and
# CGO_CXXFLAGS=-I<root>/build: wails' pkg/commands/build/base.go), so every
# package, the cgo ones included, compiles again; on a fresh, loaded 2-core
# machine that alone took more than the 240 s boot timeout. The same compile
# here, with those flags and that environment, leaves wails dev a build-cache
# hit: the timeout then measures the app's start, and a compile error is
# reported as one.
say "compiling the dev build (wails dev's flags) before starting it"
compile_started=$SECONDS
CGO_ENABLED=1 CGO_CXXFLAGS="${CGO_CXXFLAGS:+$CGO_CXXFLAGS }-I$root/build" \
  go build -buildvcs=false -gcflags "all=-N -l" -tags dev,webkit2_41 -o /dev/null . >>"$log" 2>&1 ||
  die "the dev build does not compile (log: $log)"
say "dev build compiled in $((SECONDS - compile_started)) s"

# setsid (without --fork: a background child of this shell is no group leader,
# so setsid execs in place) makes $! the id of a new session and process group.
setsid xvfb-run -a -s "-screen 0 1280x800x24" \
  go tool wails dev -tags webkit2_41 -m -nosyncgomod -noreload -nogorebuild -s \
  -devserver "localhost:$port" -nocolour -loglevel Info \
  </dev/null >>"$log" 2>&1 &
pgid=$!
started=$SECONDS

descendants() { # every process below pid $1
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
    echo "$child"
    descendants "$child"
  done
}

group_alive() { pgrep -g "$1" >/dev/null 2>&1; }

teardown() {
  local status=$? pids groups g i wails
  trap - EXIT INT TERM HUP
  set +e
  # wails dev puts Vite in a process group of its own: note every group first.
  pids=$(descendants "$pgid")
  groups=$(for p in $pgid $pids; do ps -o pgid= -p "$p" 2>/dev/null; done | tr -d ' ' | sort -u)
  # SIGTERM to the wails dev side only (`go tool` and the wails binary): wails
  # stops Vite and the app, then xvfb-run sees its command end, stops Xvfb and
  # removes its temporary Xauthority folder.
  wails=$(ps -o pid=,comm= --ppid "$pgid" 2>/dev/null | awk '$2 != "Xvfb" {print $1}')
  for p in $wails $(for w in $wails; do descendants "$w"; done); do
    [[ $(ps -o pgid= -p "$p" 2>/dev/null | tr -d ' ') == "$pgid" ]] && kill -TERM "$p" 2>/dev/null
  done
  for ((i = 0; i < 150; i++)); do
    kill -0 "$pgid" 2>/dev/null || break
    sleep 0.1
  done
  kill -TERM -- "-$pgid" 2>/dev/null
  for ((i = 0; i < 30; i++)); do
    group_alive "$pgid" || break
    sleep 0.1
  done
  for g in $pgid $groups; do
    if group_alive "$g"; then
      say "killing what is left of process group $g"
      kill -KILL -- "-$g" 2>/dev/null
    fi
  done
  daemons_check "VIKA_E2E_RUN=$VIKA_E2E_RUN" e2e || status=1
  say "D-Bus/keyring daemons on the machine: $daemons_before before, $(daemons_count) after"
  [[ -n ${own_runtime:-} ]] && rm -rf "$own_runtime"
  kill -TERM "$fake_pid" 2>/dev/null
  wait "$fake_pid" 2>/dev/null
  rm -rf "$config_home"
  if ((status != 0)); then
    say "failed (status $status); last lines of $log:"
    tail -n 60 "$log" | cut -c1-300 | sed 's/^/  | /' >&2
    # Wails v2.9.x's dev server reads each WebSocket frame as a whole message, so a
    # call larger than one frame (~128 KB from Chromium) is split and lost.
    if grep -qE 'Unknown message from front end: [^r]' "$log"; then
      say "hint: wails dev dropped a large IPC message (a PDF over ~100 KB sent by the file input):"
      say "      Wails v2.9.x splits fragmented WebSocket messages (wails#3714, fixed in v2.10.2 by #4215)."
    fi
  fi
  exit "$status"
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# --- wait until it serves the page and the bindings ------------------------------
say "starting wails dev on $url (log: ${log#"$root"/})"
until curl -fs -o /dev/null --max-time 5 "$url/" && curl -fs -o /dev/null --max-time 5 "$url/wails/ipc.js"; do
  if ! kill -0 "$pgid" 2>/dev/null; then
    say "wails dev exited before serving $url"
    exit 1
  fi
  # After a failed compile wails dev waits for a file change that -nogorebuild ignores.
  if grep -qE '^(Build error|No version running)' "$log"; then
    say "the Go build failed"
    exit 1
  fi
  if ((SECONDS - started >= boot_timeout)); then
    say "wails dev did not serve $url within ${boot_timeout}s"
    exit 1
  fi
  sleep 1
done
say "wails dev ready after $((SECONDS - started))s"

# --- run the test -----------------------------------------------------------------
test_start=$SECONDS
set +e
(cd frontend && VIKA_E2E_URL=$url VIKA_E2E_FAKE_LLM=$fake_url timeout -k 10 "$test_timeout" node --test --test-reporter=spec e2e/vika.e2e.mjs)
status=$?
set -e
if ((status == 124)); then
  say "the test did not finish within ${test_timeout}s"
fi
say "test took $((SECONDS - test_start))s, $((SECONDS - started))s in all"
exit "$status"
