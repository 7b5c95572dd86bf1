# Sourced by the test scripts: find, stop and count the D-Bus and keyring
# daemons a run started. A run exports a mark (VAR=value) that every
# process it starts inherits, daemons included (dbus-launch and
# dbus-run-session pass their environment to dbus-daemon, which passes it
# to the gnome-keyring-daemon it activates), so other users' and other
# runs' daemons are never touched.
#
#   daemons_marked MARK     pids of the daemons carrying MARK
#   daemons_count           how many such daemons run on the machine
#   daemons_stop MARK       TERM, then KILL after 2 s, the daemons carrying MARK
#   daemons_check MARK WHO  stop them, then fail (status 1) naming any left

daemon_names='^(dbus-daemon|dbus-launch|gnome-keyring-d)$'

daemons_count() {
  local p n=0
  for p in /proc/[0-9]*; do
    [[ $(cat "$p/comm" 2>/dev/null) =~ $daemon_names ]] && [[ $(awk '{print $3}' "$p/stat" 2>/dev/null) != Z ]] && n=$((n + 1))
  done
  echo "$n"
}

daemons_marked() {
  local p
  for p in /proc/[0-9]*; do
    [[ $(cat "$p/comm" 2>/dev/null) =~ $daemon_names ]] || continue
    if (tr '\0' '\n' <"$p/environ") 2>/dev/null | grep -qxF "$1"; then
      echo "${p#/proc/}"
    fi
  done
}

daemons_stop() {
  local pids i
  pids=$(daemons_marked "$1")
  [[ -z $pids ]] && return 0
  echo "stopping the D-Bus/keyring daemons the run left: $(ps -o pid=,comm= -p "${pids//$'\n'/,}" | tr -s ' \n' ' ')" >&2
  # shellcheck disable=SC2086
  kill -TERM $pids 2>/dev/null
  for ((i = 0; i < 20; i++)); do
    [[ -z $(daemons_marked "$1") ]] && return 0
    sleep 0.1
  done
  # shellcheck disable=SC2086
  kill -KILL $(daemons_marked "$1") 2>/dev/null
  sleep 0.2
}

daemons_check() {
  local left
  daemons_stop "$1"
  left=$(daemons_marked "$1")
  if [[ -n $left ]]; then
    echo "$2: D-Bus or keyring daemons it started are still running: $(ps -o pid=,comm= -p "${left//$'\n'/,}" | tr '\n' ' ')" >&2
    return 1
  fi
}
