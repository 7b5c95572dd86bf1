#!/usr/bin/env bash
# Installs what Vika needs to build and test and is not there yet: Debian
# packages (scripts/setup/apt-packages.txt), the Go modules, and the frontend's npm
# packages. A second run finds everything present and takes a second or two.
set -euo pipefail
cd "$(dirname "$0")/../.."

missing=()
while read -r pkg; do
  [ -z "$pkg" ] && continue
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done < scripts/setup/apt-packages.txt

if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

go mod download

# npm ci only when package-lock.json changed since the last install.
stamp=frontend/node_modules/.vika-installed
if [ ! -f "$stamp" ] || [ frontend/package-lock.json -nt "$stamp" ]; then
  echo "deps: installing frontend packages (npm ci)"
  (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
  touch "$stamp"
fi
