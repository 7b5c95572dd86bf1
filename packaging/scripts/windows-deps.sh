#!/usr/bin/env bash
# Installs what the Windows build and its Wine test need and is not there yet
# (packaging/scripts/apt-packages-windows.txt: mingw-w64, cmake, NSIS, wine64), and adds
# a deb-src entry mirroring debian.sources so `apt-get source` can fetch
# Leptonica and Tesseract. Kept apart from scripts/setup/deps.sh so `make test` on
# Linux does not install Wine.
set -euo pipefail
cd "$(dirname "$0")/../.."

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
updated=""

src=/etc/apt/sources.list.d/vika-src.sources
if [ ! -f "$src" ]; then
  echo "windows-deps: adding $src (Debian source packages)"
  # The same URIs, suites and key as the binary entry, with Types: deb-src.
  awk 'BEGIN{RS=""; ORS="\n\n"} /URIs: http:\/\/deb.debian.org\/debian\n/ || /URIs: http:\/\/deb.debian.org\/debian$/ {sub(/Types: deb/, "Types: deb-src"); print}' \
    /etc/apt/sources.list.d/debian.sources | $sudo tee "$src" >/dev/null
  if ! grep -q 'deb-src' "$src"; then
    echo "windows-deps: no deb.debian.org entry in debian.sources to mirror" >&2
    exit 1
  fi
  $sudo apt-get update -qq
  updated=1
fi

missing=()
while read -r pkg; do
  [ -z "$pkg" ] && continue
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done < packaging/scripts/apt-packages-windows.txt
if [ ${#missing[@]} -gt 0 ]; then
  echo "windows-deps: installing Debian packages: ${missing[*]}"
  [ -n "$updated" ] || $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
