#!/usr/bin/env python3
"""Tiny BERT-shaped test fixtures for package embed and package rerank.

  tiny_bert.py write DIR    writes DIR/tokenizer.json (WordPiece, BERT uncased,
                            a vocabulary written by hand), DIR/encoder.onnx,
                            DIR/cross_encoder.onnx and DIR/encoder_b.onnx
                            (deterministic random weights; encoder_b has its
                            own seed and HIDDEN_B dimensions: a second model,
                            for the tests that route languages to two models)
  tiny_bert.py golden DIR   reads DIR/ids_golden.json (token ids from npm
                            @huggingface/tokenizers, see gen.sh) and writes
                            DIR/bert_golden.json: the mean-pooled, L2-normalised
                            vectors and the cross-encoder logits, computed here
                            with numpy, independently of the Go code and of ONNX
                            Runtime.

The graphs are deliberately simple but shaped like the real exports:
  encoder:       inputs input_ids, attention_mask, token_type_ids (int64 [b, s])
                 output last_hidden_state (float32 [b, s, HIDDEN])
                 h = tanh((word[input_ids] + type[token_type_ids]) @ W + bias)
  cross encoder: same inputs, output logits (float32 [b, 1])
                 logits = mean(h @ W2 over the attended positions) + b2
                 (a real cross-encoder reads [CLS] after attention; without
                 attention the [CLS] state would be the same for every pair,
                 so the tiny model pools instead: its logit depends on the
                 text, and padding must not change it)
Padded positions produce non-zero states, so pooling that ignores the attention
mask gives the wrong answer. Needs python3-onnx and python3-numpy (Debian).
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HIDDEN = 8
SEED = 20261130
HIDDEN_B = 12
SEED_B = 20261201

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = [
    ".", ",", "!", "?", "-", "the", "a", "cat", "sat", "on", "mat", "is",
    "sitting", "rug", "enzyme", "kinetics", "protein", "fold", "##ing", "##s",
    "cafe", "eleve", "##s", "photo", "##synthesis", "light", "energy", "what",
    "how", "does", "work", "un", "##known", "water", "boil", "at", "100",
    "degrees", "celsius", "dna", "replication", "cell", "##ular", "resp",
    "##iration", "model", "learning", "deep", "neural", "network", "##work",
]


def vocab():
    seen, out = set(), []
    for t in SPECIAL + WORDS:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return {t: i for i, t in enumerate(out)}


def tokenizer_json(v):
    def special(name):
        return {"id": v[name], "content": name, "single_word": False, "lstrip": False,
                "rstrip": False, "normalized": False, "special": True}

    def tok(name, type_id):
        return {"SpecialToken": {"id": name, "type_id": type_id}}

    def seq(name, type_id):
        return {"Sequence": {"id": name, "type_id": type_id}}

    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [special(s) for s in SPECIAL],
        # strip_accents null, as in the real MiniLM files: the Rust crate then
        # follows lowercase (accents stripped); sugarme reads it as false.
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": None, "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [tok("[CLS]", 0), seq("A", 0), tok("[SEP]", 0)],
            "pair": [tok("[CLS]", 0), seq("A", 0), tok("[SEP]", 0), seq("B", 1), tok("[SEP]", 1)],
            "special_tokens": {s: {"id": s, "ids": [v[s]], "tokens": [s]} for s in ("[CLS]", "[SEP]")},
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": v},
    }


def weights(n_vocab, seed=SEED, hidden=HIDDEN):
    rng = np.random.default_rng(seed)
    f = lambda *shape: rng.standard_normal(shape).astype(np.float32)
    return {"word": f(n_vocab, hidden), "type": f(2, hidden), "W": f(hidden, hidden) * np.float32(0.5),
            "bias": f(hidden) * np.float32(0.1), "W2": f(hidden, 1), "b2": f(1)}


def graph(w, cross, hidden=HIDDEN):
    ints = lambda name: helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "seq"])
    inits = [numpy_helper.from_array(w[k], k) for k in ("word", "type", "W", "bias")]
    nodes = [
        helper.make_node("Gather", ["word", "input_ids"], ["we"], axis=0),
        helper.make_node("Gather", ["type", "token_type_ids"], ["te"], axis=0),
        helper.make_node("Add", ["we", "te"], ["emb"]),
        helper.make_node("MatMul", ["emb", "W"], ["lin"]),
        helper.make_node("Add", ["lin", "bias"], ["pre"]),
        helper.make_node("Tanh", ["pre"], ["last_hidden_state"]),
    ]
    if cross:
        inits += [numpy_helper.from_array(w["W2"][:, 0].copy(), "w2"), numpy_helper.from_array(w["b2"], "b2"),
                  numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1")]
        nodes += [
            helper.make_node("Cast", ["attention_mask"], ["maskf"], to=TensorProto.FLOAT),
            helper.make_node("MatMul", ["last_hidden_state", "w2"], ["hw"]),  # [b, s]
            helper.make_node("Mul", ["hw", "maskf"], ["hwm"]),
            helper.make_node("ReduceSum", ["hwm", "axis1"], ["num"], keepdims=1),  # [b, 1]
            helper.make_node("ReduceSum", ["maskf", "axis1"], ["den"], keepdims=1),
            helper.make_node("Div", ["num", "den"], ["l0"]),
            helper.make_node("Add", ["l0", "b2"], ["logits"]),
        ]
        out = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 1])
    else:
        out = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "seq", hidden])
    g = helper.make_graph(nodes, "tiny_cross_encoder" if cross else "tiny_bert",
                          [ints("input_ids"), ints("attention_mask"), ints("token_type_ids")], [out], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="vika-tiny-bert")
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def hidden(w, ids, types):
    return np.tanh((w["word"][ids] + w["type"][types]) @ w["W"] + w["bias"])


def write(d):
    v = vocab()
    with open(os.path.join(d, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_json(v), f, indent=1, ensure_ascii=False)
        f.write("\n")
    w = weights(len(v))
    onnx.save(graph(w, False), os.path.join(d, "encoder.onnx"))
    onnx.save(graph(w, True), os.path.join(d, "cross_encoder.onnx"))
    wb = weights(len(v), SEED_B, HIDDEN_B)
    onnx.save(graph(wb, False, HIDDEN_B), os.path.join(d, "encoder_b.onnx"))


def truncate_single(ids, max_len):
    # [CLS] ... [SEP]: keep the head of the text, always end with [SEP].
    return ids if len(ids) <= max_len else ids[: max_len - 1] + ids[-1:]


def truncate_pair(ids, types, max_len):
    # longest_first as in transformers' tokenizers: drop the last content token
    # of the longer part (of the passage on a tie) until the pair fits.
    a = [i for i, t in zip(ids[1:], types[1:]) if t == 0][:-1]
    b = [i for i, t in zip(ids, types) if t == 1][:-1]
    cls, sep = ids[0], ids[-1]
    while len(a) + len(b) + 3 > max_len:
        if len(a) > len(b):
            a.pop()
        else:
            b.pop()
    return [cls] + a + [sep] + b + [sep], [0] * (len(a) + 2) + [1] * (len(b) + 1)


def golden(d):
    with open(os.path.join(d, "ids_golden.json"), encoding="utf-8") as f:
        g = json.load(f)
    w = weights(len(vocab()))
    max_len = g["max_len"]
    out = {"max_len": max_len, "hidden": HIDDEN, "embed": [], "rerank": []}
    for c in g["single"]:
        ids = truncate_single(c["ids"], max_len)
        h = hidden(w, np.array(ids), np.zeros(len(ids), dtype=np.int64)).astype(np.float64)
        mean = h.mean(axis=0)  # every kept position is attended: the mask is all ones
        out["embed"].append({"text": c["text"], "ids": ids, "vector": (mean / np.linalg.norm(mean)).tolist()})
    for c in g["pair"]:
        ids, types = truncate_pair(c["ids"], c["type_ids"], max_len)
        h = hidden(w, np.array(ids), np.array(types)).astype(np.float64)
        logit = float((h @ w["W2"][:, 0].astype(np.float64)).mean() + float(w["b2"][0]))
        out["rerank"].append({"query": c["query"], "passage": c["passage"], "ids": ids,
                              "type_ids": types, "logit": logit})
    with open(os.path.join(d, "bert_golden.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("write", "golden"):
        sys.exit(__doc__)
    {"write": write, "golden": golden}[sys.argv[1]](sys.argv[2])
