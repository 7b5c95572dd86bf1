#!/usr/bin/env bash
# Install build/package/Vika-Setup-*-x64.exe into a fresh 64-bit Wine prefix the way a
# student would (silently, per user, no administrator), run the installed vika.exe headless
# with an empty environment (no TESSDATA_PREFIX, no VIKA_*), then uninstall it:
#   installer /S                   exit 0; files only in %LOCALAPPDATA%\Programs\Vika plus
#                                  the Start-menu shortcut; HKCU "Open with Vika" and
#                                  uninstall entries written
#   vika.exe version               the assets found intact beside vika.exe
#   vika.exe ingest/search --json  the checks of packaging/scripts/headless-checks.sh (shared with the
#                                  Debian package test): OCR with the bundled Tesseract and
#                                  tessdata, French detected, dense/bm25/hybrid search with
#                                  the bundled ONNX Runtime DLL and USE-lite model
#                                  ... writing nothing outside %LOCALAPPDATA%\Vika
#   uninstall.exe /S               the prefix's files back to what they were before the
#                                  install, and no Vika key left in the user's registry
#
# Wine is told it is Windows 10 (the installer refuses older versions) and does not mirror
# Start-menu shortcuts into the Linux desktop (winemenubuilder off); Wine 8.0 lacks Windows
# 10's bcryptprimitives.dll, which Go's runtime needs, so packaging/scripts/wine-bcryptprimitives.c
# stands in for it. NSIS's uninstaller runs
# from a copy in %TEMP% that Windows deletes at the next restart; the test restarts the
# prefix (wineboot -r) before its final comparison, as that restart would.
#
# Run by `make test-windows` after `make package-windows`.
set -euo pipefail
shopt -s inherit_errexit

start=$SECONDS
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
say() { printf 'test-windows: %s\n' "$*" >&2; }
die() { printf 'test-windows: FAIL: %s\n' "$*" >&2; exit 1; }
source "$repo/packaging/scripts/headless-checks.sh"

wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver)
[[ -x $wine && -x $wineserver ]] || die "wine64 is missing (packaging/scripts/windows-deps.sh installs it)"

work=$(mktemp -d "${TMPDIR:-/var/tmp}/vika-windows-test.XXXXXX")
export WINEPREFIX=$work/prefix WINEARCH=win64 WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
cleanup() {
  local status=$?
  "$wineserver" -k 2>/dev/null || true
  rm -rf -- "$work"
  say "$( ((status == 0)) && echo PASS || echo "FAILED (status $status)"): $((SECONDS - start)) s in all"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# w CMD...: run a Windows program in the prefix with an empty environment, then wait for
# every process of the prefix to end.
w() {
  local rc=0
  env -i HOME="$HOME" PATH=/usr/bin:/bin LANG=C.UTF-8 WINEPREFIX="$WINEPREFIX" WINEARCH=win64 \
    WINEDEBUG=-all WINEDLLOVERRIDES="$WINEDLLOVERRIDES" timeout 900 "$wine" "$@" || rc=$?
  "$wineserver" -w
  return "$rc"
}

# snapshot: one line per file and directory of drive C: type, path, and for files size
# and modification time (directories' times change with their contents and are left out).
snapshot() {
  (cd "$WINEPREFIX/drive_c" && find . \( -type d -printf 'd %P\n' \) -o -printf 'f %P %s %T@\n' | sort)
}

# changes_outside BEFORE AFTER ALLOWED_REGEX: the lines of the diff not matching ALLOWED.
changes_outside() {
  diff <(printf '%s\n' "$1") <(printf '%s\n' "$2") | grep -E '^[<>] ' | grep -vE "$3" || true
}

main() {
  local setups=("$repo"/build/package/Vika-Setup-*-x64.exe)
  [[ ${#setups[@]} -eq 1 && -f ${setups[0]} ]] ||
    die "want exactly one build/package/Vika-Setup-*-x64.exe: run make package-windows"
  local setup=${setups[0]} t=$SECONDS
  say "testing $(basename "$setup") ($(du -m "$setup" | cut -f1) MB) under $("$wine" --version)"

  w wineboot --init >"$work/wineboot.log" 2>&1 || die "wineboot failed: $(tail "$work/wineboot.log")"
  w winecfg -v win10
  # Wine 8.0 has no bcryptprimitives.dll, which Go programs load at start (ProcessPrng);
  # Windows 10 and 11 do. A stand-in goes into system32 before the first snapshot.
  if [[ ! -e $WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll ]]; then
    x86_64-w64-mingw32-gcc -O2 -shared -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
      "$repo/packaging/scripts/wine-bcryptprimitives.c" -lbcrypt || die "cannot build the bcryptprimitives.dll stand-in"
  fi
  local user
  user=$(cd "$WINEPREFIX/drive_c/users" && ls | grep -vx Public | head -n 1)
  local home_rel="users/$user" appdata="users/$user/AppData"
  local instdir=$WINEPREFIX/drive_c/$appdata/Local/Programs/Vika
  local winst="C:\\users\\$user\\AppData\\Local\\Programs\\Vika"
  say "fresh prefix (Windows 10, user $user) in $((SECONDS - t)) s"

  local before after installed used
  before=$(snapshot)
  t=$SECONDS
  w "$setup" /S || die "the installer exited with status $?"
  say "silent install in $((SECONDS - t)) s"
  [[ -f $instdir/vika.exe && -f $instdir/uninstall.exe ]] || die "vika.exe or uninstall.exe not in $instdir"
  installed=$(snapshot)
  local outside
  outside=$(changes_outside "$before" "$installed" \
    "^> [df] ($appdata/Local/Programs(/Vika(/| |\$)| |\$)|$appdata/Roaming/Microsoft/Windows/Start Menu/Programs/Vika\\.lnk )")
  [[ -z $outside ]] || die "the installer wrote outside the install folder: $outside"
  say "ok: installed $(du -sm "$instdir" | cut -f1) MB into %LOCALAPPDATA%\\Programs\\Vika, plus the Start-menu shortcut"
  local reg
  reg=$(tr -d '\r' <"$WINEPREFIX/user.reg")
  for key in 'Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\Vika' \
    'Software\\Classes\\Vika.PDF\\shell\\open\\command' \
    'Software\\Classes\\SystemFileAssociations\\.pdf\\shell\\Vika\\command'; do
    grep -qF "[$key]" <<<"$reg" || die "HKCU\\$key not written"
  done
  grep -qF '"Vika.PDF"=""' <<<"$reg" || die ".pdf OpenWithProgids lacks Vika.PDF"
  # The default PDF program stays the user's: no default value on HKCU\Software\Classes\.pdf.
  awk '/^\[/ {sec = $1} sec == "[Software\\\\Classes\\\\.pdf]" && /^@=/ {found = 1} END {exit !found}' \
    <<<"$reg" && die "the installer took over the default PDF program"
  # .vika course files: Vika's own type, opened by a double-click with "vika.exe" "%1".
  awk '/^\[/ {sec = $1} sec == "[Software\\\\Classes\\\\.vika]" && $0 == "@=\"Vika.Course\"" {found = 1} END {exit !found}' \
    <<<"$reg" || die "HKCU\\Software\\Classes\\.vika is not Vika.Course"
  awk '/^\[/ {sec = $1} sec == "[Software\\\\Classes\\\\Vika.Course\\\\shell\\\\open\\\\command]" && /^@=/ && /vika\.exe\\" \\"%1\\"/ {found = 1} END {exit !found}' \
    <<<"$reg" || die "Vika.Course's open command is not \"vika.exe\" \"%1\""
  grep -qi vika "$WINEPREFIX/system.reg" && die "the installer wrote machine-wide (HKLM) registry keys"
  say "ok: HKCU uninstall entry and \"Open with Vika\" for .pdf, .vika opened by Vika; nothing machine-wide"

  local docs=$work/docs out=$work/out
  mkdir -p "$docs" "$out"
  (cd "$repo" && go run ./packaging/scripts/package-pdf "$docs/sample.pdf" "$docs/cours.pdf" &&
    go run ./packaging/scripts/package-pdf --formats "$docs")
  office_files "$docs"
  # Started by its Windows path, as the Start menu and Explorer start it.
  vika() { (cd "$docs" && w "$winst\\vika.exe" "$@"); }

  vika version >"$out/version" 2>&1 || die "vika.exe version: $(cat "$out/version")"
  tr -d '\r' <"$out/version" | sed 's/^/  /' >&2
  grep -q '^vika ' "$out/version" || die "vika.exe version does not print the version"
  local k
  for k in onnxruntime use-lite-model use-lite-vocab; do
    grep -qiF "$winst\\" <<<"$(grep -E "^$k " "$out/version")" ||
      die "vika.exe version: $k not found intact beside vika.exe ($winst)"
  done
  say "ok: vika.exe version (assets beside vika.exe, sha256 verified)"

  t=$SECONDS
  headless_checks "$out" vika
  # Without LibreOffice (the installer does not bring it): an EPUB, a photo of a page and a
  # pptx read by MuPDF's own handlers, an odp refused with its message.
  format_checks "$out" "$docs" vika
  say "headless checks in $((SECONDS - t)) s"

  # API keys: backend/secrets' real-keyring tests, built for Windows, store, read, replace and
  # delete keys through go-keyring's Windows backend (Credential Manager: CredWrite/CredRead,
  # which Wine implements); they use their own service name, which contains "vika", so the
  # registry check after the uninstall also proves they left nothing behind.
  t=$SECONDS
  (cd "$repo" && GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc-posix \
    CXX=x86_64-w64-mingw32-g++-posix go test -c -trimpath -o "$work/secrets.test.exe" ./backend/secrets/) ||
    die "cannot build backend/secrets' tests for Windows"
  (cd "$work" && env -i HOME="$HOME" PATH=/usr/bin:/bin WINEPREFIX="$WINEPREFIX" WINEDEBUG=-all \
    WINEDLLOVERRIDES="$WINEDLLOVERRIDES" VIKA_KEYRING_TESTS=1 timeout 300 "$wine" secrets.test.exe \
    -test.run '^TestRealKeyring' -test.v) >"$out/keyring" 2>&1 || die "keyring tests: $(cat "$out/keyring")"
  "$wineserver" -w
  grep -q -- '--- PASS: TestRealKeyringRoundTrip' "$out/keyring" && ! grep -q -- '--- SKIP' "$out/keyring" ||
    die "keyring tests did not run: $(cat "$out/keyring")"
  say "ok: API keys stored, read and deleted in the Credential Manager (Wine's) ($((SECONDS - t)) s)"
  used=$(snapshot)
  outside=$(changes_outside "$installed" "$used" "^> [df] $appdata/Local/Vika(/| |\$)")
  [[ -z $outside ]] || die "the headless commands wrote outside %LOCALAPPDATA%\\Vika: $outside"
  say "ok: nothing written outside %LOCALAPPDATA%\\Vika"

  t=$SECONDS
  w "$winst\\uninstall.exe" /S || die "the uninstaller exited with status $?"
  w wineboot -r # a restart: Windows deletes the uninstaller's copy in %TEMP% then
  after=$(snapshot)
  # Left alone: the Temp folder's own entry, and the empty folder NSIS's uninstaller copy
  # ran from (Windows deletes the copy at the restart, not its folder); a file left there
  # would still fail.
  outside=$(changes_outside "$before" "$after" "^(. d $home_rel/Temp|> d $home_rel/Temp/~nsu[0-9]*\.tmp)$")
  [[ -z $outside ]] || die "the uninstaller left these behind: $outside"
  if grep -i 'vika' "$WINEPREFIX/user.reg"; then
    die "the uninstaller left registry entries (above)"
  fi
  say "ok: uninstalled in $((SECONDS - t)) s: drive C as before the install, no Vika registry key left"
}

main "$@"
