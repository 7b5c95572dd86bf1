#!/usr/bin/env bash
# Regenerate the tiny CLIP fixtures of package clip:
#   1. tiny_clip.py write: tokenizer.json, preprocessor_config.json,
#      text_model.onnx, vision_model.onnx and the PNG figures
#   2. ids.mjs: golden token ids from npm @huggingface/tokenizers (pinned)
#   3. tiny_clip.py golden: preprocessed pixels (PIL) and embeddings (numpy)
# Needs /usr/bin/python3 with python3-onnx, python3-numpy and python3-pil
# (Debian), node and npm.
#
#   bash testdata/clip/gen.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
py=${PYTHON:-/usr/bin/python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/vika-clip.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
"$py" "$here/tiny_clip.py" write "$here"
(
  cd "$work"
  npm init -y >/dev/null
  npm install --silent --no-audit --no-fund --ignore-scripts @huggingface/tokenizers@0.2.0 </dev/null
)
cp "$here/ids.mjs" "$work/ids.mjs"
node "$work/ids.mjs" "$here"
"$py" "$here/tiny_clip.py" golden "$here"
