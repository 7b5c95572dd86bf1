#!/usr/bin/env python3
"""Write a BERT-family model's weights (safetensors) as an ONNX graph, with the
`onnx` package alone (no PyTorch), and check it against a NumPy forward pass.

  bert_to_onnx.py SRC_DIR OUT.onnx
      SRC_DIR holds config.json and model.safetensors, as Hugging Face
      stores a BertModel (a sentence encoder: output last_hidden_state) or a
      BertForSequenceClassification (a cross-encoder: output logits).
  bert_to_onnx.py --check SRC_DIR OUT.onnx IDS.json
      runs OUT.onnx in ONNX Runtime (Python) and the NumPy forward pass below
      on the token ids of IDS.json ({"ids": [[...], ...]}, no padding) and
      fails unless they agree (max abs difference 1e-4 on every output).

The graph's interface is the one Vika's package onnx opens and the one of the
Hugging Face ONNX exports: inputs input_ids, attention_mask, token_type_ids
(int64 [batch, seq]); output last_hidden_state (float32 [batch, seq, hidden])
or logits (float32 [batch, labels]). Ops: opset 17 (LayerNormalization), GELU
written exactly as erf (BERT's "gelu"), the attention mask added to the scores
as HF does (float32 min where the mask is 0).

The bytes are deterministic for one onnx version (no timestamps; initialisers
in the order of the layers): scripts/setup/assets.sh pins their sha256.
"""
import json
import struct
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64}


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        base = 8 + n
        out = {}
        for name, meta in header.items():
            if name == "__metadata__":
                continue
            start, end = meta["data_offsets"]
            f.seek(base + start)
            a = np.frombuffer(f.read(end - start), dtype=DTYPES[meta["dtype"]]).reshape(meta["shape"])
            out[name] = a.astype(np.float32) if a.dtype == np.float16 else a
    return out


def load(src):
    with open(f"{src}/config.json", encoding="utf-8") as f:
        cfg = json.load(f)
    if cfg.get("model_type") not in ("bert", None) or cfg.get("position_embedding_type", "absolute") != "absolute":
        sys.exit(f"bert_to_onnx: unsupported model_type {cfg.get('model_type')!r}")
    if cfg.get("hidden_act", "gelu") != "gelu":
        sys.exit(f"bert_to_onnx: unsupported activation {cfg.get('hidden_act')!r}")
    w = read_safetensors(f"{src}/model.safetensors")
    # BertForSequenceClassification prefixes the encoder with "bert.".
    cross = "classifier.weight" in w
    w = {k[len("bert."):] if k.startswith("bert.") else k: v for k, v in w.items()}
    return cfg, w, cross


class Graph:
    def __init__(self, int8=False):
        self.nodes, self.inits, self.n = [], [], 0
        self.int8 = int8  # linear layers as 8-bit integer matrix products (linear_int8)

    def const(self, name, a):
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(a), name))
        return name

    def op(self, kind, inputs, **attrs):
        self.n += 1
        out = f"{kind.lower()}_{self.n}"
        self.nodes.append(helper.make_node(kind, inputs, [out], **attrs))
        return out

    def ops(self, kind, inputs, outputs, **attrs):
        self.n += 1
        outs = [f"{kind.lower()}_{self.n}_{i}" for i in range(outputs)]
        self.nodes.append(helper.make_node(kind, inputs, outs, **attrs))
        return outs

    def linear(self, x, w, prefix):
        # PyTorch stores Linear weights as [out, in]: y = x W^T + b.
        if self.int8:
            return self.linear_int8(x, w, prefix)
        wt = self.const(prefix + ".weight_t", w[prefix + ".weight"].T)
        return self.op("Add", [self.op("MatMul", [x, wt]), self.const(prefix + ".bias", w[prefix + ".bias"])])

    def linear_int8(self, x, w, prefix):
        """y = x W^T + b with W^T as int8, one scale per output column
        (symmetric: round(W / s), s = max |column| / 127), and x quantized to
        uint8 as it comes (DynamicQuantizeLinear): the dynamic quantization of
        ONNX Runtime's quantize_dynamic, per channel, written out. ONNX Runtime
        fuses it into one integer product with the scales applied after."""
        wt = w[prefix + ".weight"].T.astype(np.float32)  # [in, out]
        scale = np.abs(wt).max(axis=0) / np.float32(127)
        scale[scale == 0] = np.float32(1)
        q = np.clip(np.rint(wt / scale), -127, 127).astype(np.int8)
        xq, xs, xz = self.ops("DynamicQuantizeLinear", [x], 3)
        y = self.op("Cast", [self.op("MatMulInteger", [xq, self.const(prefix + ".weight_q", q), xz])], to=TensorProto.FLOAT)
        y = self.op("Mul", [y, self.op("Mul", [xs, self.const(prefix + ".weight_scale", scale.astype(np.float32))])])
        return self.op("Add", [y, self.const(prefix + ".bias", w[prefix + ".bias"])])

    def layer_norm(self, x, w, prefix, eps):
        return self.op("LayerNormalization", [x, self.const(prefix + ".weight", w[prefix + ".weight"]),
                                              self.const(prefix + ".bias", w[prefix + ".bias"])],
                       axis=-1, epsilon=eps)


def build(cfg, w, cross, embed_words=None, producer="vika-bert-to-onnx", int8=False):
    """The graph of a BertModel from its weights w (Hugging Face names, without
    "bert."). embed_words(g, ids), when given, writes the word-embedding lookup
    itself (e.g. a quantized table dequantized in the graph) and returns its
    output; by default it is a Gather from w["embeddings.word_embeddings.weight"].
    int8 writes the linear layers as 8-bit integer products (Graph.linear_int8)."""
    hidden, heads = cfg["hidden_size"], cfg["num_attention_heads"]
    dh, eps = hidden // heads, cfg.get("layer_norm_eps", 1e-12)
    g = Graph(int8)
    i64 = lambda name, v: g.const(name, np.array(v, dtype=np.int64))
    # Embeddings: word + position (0..seq-1) + token type, then LayerNorm.
    seq = g.op("Shape", ["input_ids"], start=1, end=2)  # [seq], 1-D
    positions = g.op("Slice", [g.const("embeddings.position", w["embeddings.position_embeddings.weight"]),
                               i64("zero_1d", [0]), seq, i64("axis0", [0])])
    if embed_words is None:
        words = g.op("Gather", [g.const("embeddings.word", w["embeddings.word_embeddings.weight"]), "input_ids"])
    else:
        words = embed_words(g, "input_ids")
    emb = g.op("Add", [words, positions])
    emb = g.op("Add", [emb, g.op("Gather", [g.const("embeddings.type", w["embeddings.token_type_embeddings.weight"]),
                                            "token_type_ids"])])
    x = g.layer_norm(emb, w, "embeddings.LayerNorm", eps)
    # Mask: 0 where attended, float32 min elsewhere, shaped [b, 1, 1, s].
    m = g.op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    m = g.op("Unsqueeze", [m, i64("axes12", [1, 2])])
    m = g.op("Mul", [g.op("Sub", [g.const("f_one", np.array(1, np.float32)), m]),
                     g.const("f_min", np.array(np.finfo(np.float32).min, np.float32))])
    split = i64("split_heads", [0, 0, heads, dh])
    merge = i64("merge_heads", [0, 0, hidden])
    scale = g.const("scale", np.array(1 / np.sqrt(dh), np.float32))
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        q, k, v = (g.op("Transpose", [g.op("Reshape", [g.linear(x, w, p + "attention.self." + n), split])],
                        perm=[0, 2, 1, 3]) for n in ("query", "key", "value"))
        kt = g.op("Transpose", [k], perm=[0, 1, 3, 2])
        scores = g.op("Add", [g.op("Mul", [g.op("MatMul", [q, kt]), scale]), m])
        ctx = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), v])
        ctx = g.op("Reshape", [g.op("Transpose", [ctx], perm=[0, 2, 1, 3]), merge])
        x = g.layer_norm(g.op("Add", [g.linear(ctx, w, p + "attention.output.dense"), x]), w,
                         p + "attention.output.LayerNorm", eps)
        h = g.linear(x, w, p + "intermediate.dense")
        # gelu(h) = 0.5 h (1 + erf(h / sqrt 2))
        h = g.op("Mul", [g.op("Mul", [h, g.const(f"half_{i}", np.array(0.5, np.float32))]),
                         g.op("Add", [g.op("Erf", [g.op("Div", [h, g.const(f"sqrt2_{i}", np.array(np.sqrt(2), np.float32))])]),
                                      g.const(f"one_{i}", np.array(1, np.float32))])])
        x = g.layer_norm(g.op("Add", [g.linear(h, w, p + "output.dense"), x]), w, p + "output.LayerNorm", eps)
    ints = lambda name: helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "seq"])
    if cross:
        cls = g.op("Gather", [x, i64("zero_idx", 0)], axis=1)
        pooled = g.op("Tanh", [g.linear(cls, w, "pooler.dense")])
        labels = w["classifier.weight"].shape[0]
        g.nodes.append(helper.make_node("Identity", [g.linear(pooled, w, "classifier")], ["logits"]))
        out = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", labels])
    else:
        g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
        out = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "seq", hidden])
    graph = helper.make_graph(g.nodes, "bert", [ints("input_ids"), ints("attention_mask"), ints("token_type_ids")],
                              [out], g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name=producer)
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    return model


# NumPy forward pass, written from the BERT paper and Hugging Face's BertModel,
# independently of the graph above: the check's reference.
def forward(cfg, w, cross, ids):
    hidden, heads = cfg["hidden_size"], cfg["num_attention_heads"]
    dh, eps = hidden // heads, cfg.get("layer_norm_eps", 1e-12)

    def ln(x, p):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + eps) * w[p + ".weight"] + w[p + ".bias"]

    def lin(x, p):
        return x @ w[p + ".weight"].T.astype(np.float64) + w[p + ".bias"]

    from math import erf
    gelu = np.vectorize(lambda v: 0.5 * v * (1 + erf(v / np.sqrt(2))))
    ids = np.asarray(ids)
    x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][: len(ids)]
         + w["embeddings.token_type_embeddings.weight"][0]).astype(np.float64)
    x = ln(x, "embeddings.LayerNorm")
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        q, k, v = (lin(x, p + "attention.self." + n).reshape(len(ids), heads, dh).transpose(1, 0, 2)
                   for n in ("query", "key", "value"))
        s = q @ k.transpose(0, 2, 1) / np.sqrt(dh)
        s = np.exp(s - s.max(-1, keepdims=True))
        ctx = ((s / s.sum(-1, keepdims=True)) @ v).transpose(1, 0, 2).reshape(len(ids), hidden)
        x = ln(lin(ctx, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
        x = ln(lin(gelu(lin(x, p + "intermediate.dense")), p + "output.dense") + x, p + "output.LayerNorm")
    if cross:
        return lin(np.tanh(lin(x[0], "pooler.dense")), "classifier")
    return x


def convert(src, out):
    cfg, w, cross = load(src)
    onnx.save(build(cfg, w, cross), out)


def check(src, model_path, ids_path):
    import onnxruntime as ort
    cfg, w, cross = load(src)
    with open(ids_path, encoding="utf-8") as f:
        cases = json.load(f)["ids"]
    sess = ort.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    worst = 0.0
    for ids in cases:
        a = np.array([ids], dtype=np.int64)
        got = sess.run(None, {"input_ids": a, "attention_mask": np.ones_like(a), "token_type_ids": np.zeros_like(a)})[0][0]
        want = forward(cfg, w, cross, ids)
        worst = max(worst, float(np.abs(got - want).max()))
    print(f"bert_to_onnx: {len(cases)} inputs, max abs difference {worst:.2e} against the NumPy forward pass")
    if worst > 1e-4:
        sys.exit("bert_to_onnx: the graph disagrees with the NumPy reference")


if __name__ == "__main__":
    if len(sys.argv) == 3 and not sys.argv[1].startswith("-"):
        convert(sys.argv[1], sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == "--check":
        check(*sys.argv[2:])
    else:
        sys.exit(__doc__)
