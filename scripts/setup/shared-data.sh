#!/usr/bin/env bash
# Checks that ../shared/data beside the repository holds every file the tests
# use (testdata/shared-data.txt, with their sha256), and stops make test
# naming what is missing. The quality tests (SciFact, page hits, abstention,
# real-PDF classification, OCR of the scans) need it; under make test they
# fail rather than skip without it (VIKA_REQUIRE_SHARED_DATA=1).
#
# VIKA_NO_SHARED_DATA=1 runs the tests without it: they are then skipped, and
# this script says so loudly.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(cd "$root/.." && pwd)/shared/data
list=$root/testdata/shared-data.txt

if [[ ${VIKA_NO_SHARED_DATA:-} == 1 ]]; then
  cat >&2 <<MSG
################################################################################
# VIKA_NO_SHARED_DATA=1: the tests that need $dir
# (SciFact, page hits, abstention, real-PDF classification, OCR of real scans)
# are SKIPPED. The quality figures of docs/measurements.md are NOT checked by this run.
################################################################################
MSG
  exit 0
fi

missing=()
while read -r sum path; do
  [[ -z $sum || $sum == \#* ]] && continue
  f=$dir/$path
  if [[ ! -f $f ]]; then
    missing+=("$f (absent)")
  elif [[ $(sha256sum "$f" | cut -d' ' -f1) != "$sum" ]]; then
    missing+=("$f (sha256 differs from testdata/shared-data.txt)")
  fi
done <"$list"

if ((${#missing[@]})); then
  {
    echo "make test: the shared test data is missing or incomplete in $dir:"
    printf '  %s\n' "${missing[@]}"
    echo "The quality tests (SciFact, page hits, abstention, real-PDF classification, OCR of"
    echo "real scans) need these files, which are not part of the repository. Put them there"
    echo "(see testdata/shared-data.txt), or run without those tests, which are then skipped:"
    echo "  VIKA_NO_SHARED_DATA=1 make test"
  } >&2
  exit 1
fi
echo "shared data: $(grep -cv '^#' "$list") files checked in $dir"
