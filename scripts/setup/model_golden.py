#!/usr/bin/env python3
"""Reference outputs of the real model files, for the Go tests that check Vika
against them (backend/embed, backend/rerank: TestRealModels).

  model_golden.py NAME MODEL_DIR OUT.json

NAME is a model of backend/models/registry.json, MODEL_DIR the folder it is
installed in (<data dir>/models/NAME, where scripts/setup/assets.sh puts the
models of the box). It writes, for a fixed sample (French accents and
ligatures, PDF ligature characters, mathematics, runs of spaces, other
scripts, inputs longer than the model takes):
  - the token ids of the reference tokenizer (PyPI `tokenizers`, the Rust
    crate Hugging Face ships), truncated to the registry's max_tokens as
    Vika truncates (the head kept; longest_first for pairs);
  - for an embedder, the vectors that ONNX Runtime's Python package gives
    on the same ONNX file, pooled and normalised as the model's card says
    (the registry's pooling; prefixes "query: "/"passage: " where it has
    them);
  - for a cross-encoder, the logits of (query, passage) pairs;
  - the ids of 400 short random strings of characters normalisers treat
    specially (FUZZ_POOL), without prefixes.
The files' sha256 are written too: the Go test refuses a golden made from
other bytes. Needs the tools of scripts/setup/requirements-ref.txt.
"""
import hashlib
import json
import os
import sys

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
REGISTRY = os.path.join(HERE, "..", "..", "backend", "models", "registry.json")

LONG = ("La statistique inférentielle cherche à tirer des conclusions sur une population à partir "
        "d'un échantillon ; l'estimateur sans biais de la variance divise par n − 1. ") * 14

TEXTS = [
    "The cat sat on the mat.",
    "L'élève a révisé la thermodynamique : œuvre, cœur, naïveté, façade, Noël, garçon.",
    "The ﬁrst eﬀect of the ﬂux: eﬃcient ﬀ ligatures as PDF text layers give them.",
    "∑_{i=1}^{n} x_i ≤ 10, ∫₀¹ f(x) dx = α·β² + √2 and e^{iπ} = −1 (Théorème 3.2).",
    "Quelle est la   p-valeur du test de Student   ?  Plusieurs    espaces.",
    "数据结构 🙂 naïve café — «guillemets» et l’apostrophe typographique.",
    "ÉCOLE NORMALE SUPÉRIEURE, Über, Ångström, İstanbul",
    "De\u0301composition : e\u0301le\u0300ve, nai\u0308f (accents as combining marks, as some PDFs give them)",
    LONG,
]

QUERIES = [
    "what does an unbiased estimator of the variance divide by?",
    "Comment calcule-t-on la variance sans biais ?",
]

PAIRS = [
    ("what does an unbiased estimator of the variance divide by?", LONG),
    ("Comment calcule-t-on la variance sans biais ?", TEXTS[1]),
    ("how do ligatures appear in PDF text?", TEXTS[2]),
    ("What is the integral of f from 0 to 1?", TEXTS[3]),
    ("where did the cat sit?", TEXTS[0]),
    ("where did the cat sit?", TEXTS[6]),
]


# Characters PDF text layers hand over that normalisers treat specially:
# combining marks, ligatures, superscripts, compatibility forms, Hangul jamo,
# zero-width and control characters, odd spaces, emoji sequences.
FUZZ_POOL = ("ae\u0301\u0300\u0308\u0327i\u0307\u01c5\ufb01\ufb00\u2460\u00b2\uff21\uff22\uac00\uac01"
             "\u200d\U0001f642\u00a0\t \u3000\ufeff\u1100\u1161\u11a8\u00df\u00ad\u2212\u03b1\u2264"
             "\u00e9\u0153\u00ab\u00bb\u2019\u2026\u00b7x1.-")


def fuzz_texts(n=400, seed=20261206):
    import random
    r = random.Random(seed)
    return ["".join(r.choice(FUZZ_POOL) for _ in range(r.randint(1, 14))) for _ in range(n)]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def model_file(entry, model_dir):
    onnx_files = [f["path"] for f in entry["files"] if f["path"].endswith(".onnx")]
    for v in entry.get("variants", []):
        onnx_files.append(v["file"]["path"])
    found = [p for p in onnx_files if os.path.exists(os.path.join(model_dir, p))]
    if len(found) != 1:
        sys.exit(f"model_golden: want exactly one installed ONNX file of {entry['name']} in {model_dir}, found {found}")
    return os.path.join(model_dir, found[0])


def run(sess, ids_list, type_ids_list=None):
    names = {i.name for i in sess.get_inputs()}
    out = []
    for n, ids in enumerate(ids_list):
        a = np.array([ids], dtype=np.int64)
        feed = {"input_ids": a, "attention_mask": np.ones_like(a)}
        if "token_type_ids" in names:
            t = type_ids_list[n] if type_ids_list else [0] * len(ids)
            feed["token_type_ids"] = np.array([t], dtype=np.int64)
        out.append(sess.run(None, feed)[0][0])
    return out


def pool(states, how):
    v = states[0] if how == "cls" else states.mean(axis=0)  # one unpadded text: every position attended
    v = v.astype(np.float64)
    return (v / np.linalg.norm(v)).tolist()


def dumps(doc):
    """JSON with one line per key and per case (the ids and vectors of a
    case stay on its line), so that a diff shows which case changed."""
    lines = []
    for k, v in doc.items():
        if isinstance(v, list):
            items = ",\n  ".join(json.dumps(c, ensure_ascii=False) for c in v)
            lines.append(f" {json.dumps(k)}: [\n  {items}\n ]")
        else:
            lines.append(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main(name, model_dir, out_path):
    with open(REGISTRY, encoding="utf-8") as f:
        entry = next(m for m in json.load(f)["models"] if m["name"] == name)
    onnx_path = model_file(entry, model_dir)
    tok_path = os.path.join(model_dir, "tokenizer.json")
    tok = Tokenizer.from_file(tok_path)
    tok.no_padding()
    tok.enable_truncation(max_length=entry["max_tokens"])
    sess = ort.InferenceSession(onnx_path, providers=["CPUExecutionProvider"])
    doc = {"model": name, "onnx": os.path.relpath(onnx_path, model_dir), "onnx_sha256": sha256(onnx_path),
           "tokenizer_sha256": sha256(tok_path), "max_tokens": entry["max_tokens"],
           "reference": f"tokenizers {__import__('tokenizers').__version__}, onnxruntime {ort.__version__}"}
    doc["fuzz"] = [{"text": t, "ids": tok.encode(t).ids} for t in fuzz_texts()]
    if entry["role"] == "embedder":
        cases = [(t, "passage", entry.get("passage_prefix", "")) for t in TEXTS]
        cases += [(q, "query", entry.get("query_prefix", "")) for q in QUERIES]
        encs = [tok.encode(prefix + text).ids for text, _, prefix in cases]
        states = run(sess, encs)
        doc["embed"] = [{"text": text, "kind": kind, "ids": ids, "vector": [round(x, 7) for x in pool(s, entry["pooling"])]}
                        for (text, kind, _), ids, s in zip(cases, encs, states)]
    elif entry["role"] == "reranker":
        encs = [tok.encode(q, p) for q, p in PAIRS]
        logits = run(sess, [e.ids for e in encs], [e.type_ids for e in encs])
        doc["rerank"] = [{"query": q, "passage": p, "ids": e.ids, "type_ids": e.type_ids, "logit": float(l[0])}
                         for (q, p), e, l in zip(PAIRS, encs, logits)]
    else:
        sys.exit(f"model_golden: {name} is a {entry['role']}")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(dumps(doc))
    print(f"model_golden: wrote {out_path}")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
