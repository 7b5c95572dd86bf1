#!/usr/bin/env bash
# Regenerate the tiny BERT fixtures of packages embed and rerank:
#   1. tiny_bert.py write: tokenizer.json, encoder.onnx, cross_encoder.onnx, encoder_b.onnx
#   2. ids.mjs: golden token ids from npm @huggingface/tokenizers (pinned)
#   3. tiny_bert.py golden: expected vectors and logits computed with numpy
# Needs /usr/bin/python3 with python3-onnx and python3-numpy (Debian), node and npm.
#
#   bash testdata/bert/gen.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
py=${PYTHON:-/usr/bin/python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/vika-bert.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
"$py" "$here/tiny_bert.py" write "$here"
(
  cd "$work"
  npm init -y >/dev/null
  npm install --silent --no-audit --no-fund --ignore-scripts @huggingface/tokenizers@0.2.0 </dev/null
)
cp "$here/ids.mjs" "$work/ids.mjs"
node "$work/ids.mjs" "$here"
"$py" "$here/tiny_bert.py" golden "$here"
