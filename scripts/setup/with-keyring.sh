#!/usr/bin/env bash
# Runs a command with a real Secret Service: a private D-Bus session and a
# gnome-keyring-daemon unlocked with a throwaway password, in fresh
# HOME/XDG_* directories, so go-keyring works headless (CI, ssh) and the
# user's own keyring is never touched. Sets VIKA_KEYRING_TESTS=1, which
# enables the real keyring tests of backend/secrets.
#
#   scripts/setup/with-keyring.sh go test -race ./backend/secrets/
#
# Needs dbus-run-session (Debian: dbus-daemon) and gnome-keyring-daemon
# (gnome-keyring); secret-tool (libsecret-tools) is used by a test when
# present. Exits with the command's status; the D-Bus and keyring daemons
# it started are stopped, whatever happens, and counted before and after:
# if one is left running, the script fails.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 command [args...]" >&2
  exit 2
fi
for tool in dbus-run-session gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null; then
    echo "with-keyring: $tool is missing (apt-get install dbus-daemon gnome-keyring)" >&2
    exit 1
  fi
done

# Keep Go's caches where they are: HOME changes below.
if command -v go >/dev/null; then
  GOPATH="$(go env GOPATH)"; GOCACHE="$(go env GOCACHE)"; GOMODCACHE="$(go env GOMODCACHE)"
  export GOPATH GOCACHE GOMODCACHE
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/vika-keyring.XXXXXX")"
run="$tmp/run"

# shellcheck source=scripts/window/daemons.sh
. "$(dirname "$0")/../window/daemons.sh"
# Every daemon of this run holds our private XDG_RUNTIME_DIR in its environment.
mark="XDG_RUNTIME_DIR=$run"
before=$(daemons_count)
cleanup() {
  local status=$?
  trap - EXIT
  daemons_check "$mark" with-keyring || status=1
  echo "with-keyring: D-Bus/keyring daemons on the machine: $before before, $(daemons_count) after" >&2
  rm -rf "$tmp"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$tmp/home" "$run" "$tmp/data" "$tmp/config" "$tmp/cache"
chmod 700 "$run"
export HOME="$tmp/home" XDG_RUNTIME_DIR="$run" XDG_DATA_HOME="$tmp/data" \
  XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache"
export VIKA_KEYRING_TESTS=1
unset DBUS_SESSION_BUS_ADDRESS GNOME_KEYRING_CONTROL

status=0
dbus-run-session -- bash -c '
  set -e
  # --unlock reads the new login keyring password from stdin, creates and
  # unlocks the keyring, and prints the variables to export.
  eval "$(printf %s throwaway-test-password | gnome-keyring-daemon --unlock --components=secrets)"
  export GNOME_KEYRING_CONTROL
  set +e
  "$@"
' with-keyring "$@" || status=$?
exit "$status"
