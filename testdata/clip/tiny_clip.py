#!/usr/bin/env python3
"""Tiny CLIP-shaped test fixtures for package clip (text-to-image retrieval).

  tiny_clip.py write DIR    writes DIR/tokenizer.json (byte-level BPE laid out
                            like CLIP's: NFC, whitespace runs to one space,
                            lower case, CLIP's split regex, byte-level symbols,
                            `</w>` word ends, merges written by hand),
                            DIR/preprocessor_config.json (CLIP's values),
                            DIR/text_model.onnx and DIR/vision_model.onnx
                            (seeded random weights, the real export's input
                            and output names and shapes), three small PNG
                            figures (gray and RGB) and one of a real crop's
                            size (plot.png)
  tiny_clip.py golden DIR   reads DIR/ids_golden.json (token ids from npm
                            @huggingface/tokenizers, see gen.sh) and writes
                            DIR/clip_golden.json: the images preprocessed by
                            PIL (bicubic resize of the shortest side, centre
                            crop, RGB/255, CLIP's mean and std) at a small
                            size, plot.png's 224 x 224 crop (8-bit, as PIL
                            leaves it before normalising), and the
                            L2-normalised text and image
                            embeddings computed here with numpy, independently
                            of the Go code and of ONNX Runtime.

The graphs are small but shaped like Xenova/clip-vit-base-patch32's:
  text model:   inputs input_ids, attention_mask (int64 [b, s]),
                output text_embeds (float32 [b, DIM])
                text_embeds = masked_mean(tanh(word[ids] @ Wt)) @ Pt
  vision model: input pixel_values (float32 [b, 3, 224, 224]),
                output image_embeds (float32 [b, DIM])
                image_embeds = tanh(flatten(avgpool32(pixels)) @ Wv + bv) @ Pv
Needs python3-onnx, python3-numpy and python3-pil (Debian), at generation
time only.
"""
import base64
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from PIL import Image, ImageDraw

DIM = 16
HIDDEN = 8
SEED = 20261201
SIZE = 224
MEAN = [0.48145466, 0.4578275, 0.40821073]
STD = [0.26862954, 0.26130258, 0.27577711]
# The small preprocessing the golden pixels use (resize, crop).
SMALL = (24, 20)

SPLIT = r"<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+"

# Merges written by hand: each joins two existing symbols; rank is order.
MERGES = [
    "t h", "th e</w>", "o f</w>", "c a", "ca t</w>", "p h", "o t", "ph ot", "phot o</w>",
    "e r", "er r", "err o", "erro r</w>", "c h", "a r", "ch ar", "char t</w>",
    "d i", "a g", "di ag", "r a", "ra m</w>", "diag ram</w>", "p l", "o t</w>", "pl ot</w>",
    "a r</w>", "b ar</w>", "c u", "cu r", "v e</w>", "cur ve</w>", "i n", "in g</w>",
    "' s</w>", "n e", "t w", "o r", "ne tw", "netw or", "networ k</w>",
    "t e</w>", "ra te</w>", "pl ot", "plot t", "plott ing</w>", "b ar", "bar s</w>",
]


def bytes_to_unicode():
    # GPT-2's reversible map from bytes to printable characters.
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, [chr(c) for c in cs]))


def vocab_and_merges():
    base = list(bytes_to_unicode().values())
    toks = base + [c + "</w>" for c in base]
    vocab = {t: i for i, t in enumerate(toks)}
    merges = []
    for m in MERGES:
        a, b = m.split(" ")
        if a not in vocab or b not in vocab:
            continue  # a merge of symbols that never meet is dropped, as a real vocabulary would not have it
        if a + b in vocab:
            continue
        vocab[a + b] = len(vocab)
        merges.append(m)
    return vocab, merges


def tokenizer_json():
    vocab, merges = vocab_and_merges()
    start, end = len(vocab), len(vocab) + 1
    vocab["<|startoftext|>"], vocab["<|endoftext|>"] = start, end

    def added(i, content):
        return {"id": i, "content": content, "single_word": False, "lstrip": False, "rstrip": False,
                "normalized": True, "special": True}

    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [added(start, "<|startoftext|>"), added(end, "<|endoftext|>")],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "NFC"},
            {"type": "Replace", "pattern": {"Regex": r"\s+"}, "content": " "},
            {"type": "Lowercase"}]},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": SPLIT}, "behavior": "Removed", "invert": True},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}]},
        "post_processor": {"type": "RobertaProcessing", "sep": ["<|endoftext|>", end], "cls": ["<|startoftext|>", start],
                           "trim_offsets": False, "add_prefix_space": False},
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": "<|endoftext|>", "continuing_subword_prefix": "",
                  "end_of_word_suffix": "</w>", "fuse_unk": False, "vocab": vocab, "merges": merges},
    }


def preprocessor_config():
    return {"crop_size": SIZE, "do_center_crop": True, "do_normalize": True, "do_resize": True,
            "feature_extractor_type": "CLIPFeatureExtractor", "image_mean": MEAN, "image_std": STD,
            "resample": 3, "size": SIZE}


def weights(n_vocab):
    rng = np.random.default_rng(SEED)
    f = lambda *shape: rng.standard_normal(shape).astype(np.float32)
    return {"word": f(n_vocab, HIDDEN), "Wt": f(HIDDEN, HIDDEN) * np.float32(0.5), "Pt": f(HIDDEN, DIM),
            "Wv": f(3 * 7 * 7, DIM) * np.float32(0.3), "bv": f(DIM) * np.float32(0.1), "Pv": f(DIM, DIM)}


def text_graph(w):
    ints = lambda name: helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])
    inits = [numpy_helper.from_array(w[k], k) for k in ("word", "Wt", "Pt")]
    inits.append(numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1"))
    nodes = [
        helper.make_node("Gather", ["word", "input_ids"], ["emb"], axis=0),
        helper.make_node("MatMul", ["emb", "Wt"], ["lin"]),
        helper.make_node("Tanh", ["lin"], ["h"]),  # [b, s, H]
        helper.make_node("Cast", ["attention_mask"], ["maskf"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["maskf", "minus1"], ["mask3"]),  # [b, s, 1]
        helper.make_node("Mul", ["h", "mask3"], ["hm"]),
        helper.make_node("ReduceSum", ["hm", "axis1"], ["num"], keepdims=0),  # [b, H]
        helper.make_node("ReduceSum", ["mask3", "axis1"], ["den"], keepdims=0),  # [b, 1]
        helper.make_node("Div", ["num", "den"], ["pooled"]),
        helper.make_node("MatMul", ["pooled", "Pt"], ["text_embeds"]),
    ]
    inits.append(numpy_helper.from_array(np.array([-1], dtype=np.int64), "minus1"))
    out = helper.make_tensor_value_info("text_embeds", TensorProto.FLOAT, ["batch", DIM])
    g = helper.make_graph(nodes, "tiny_clip_text", [ints("input_ids"), ints("attention_mask")], [out], inits)
    return model(g)


def vision_graph(w):
    inp = helper.make_tensor_value_info("pixel_values", TensorProto.FLOAT, ["batch", 3, SIZE, SIZE])
    inits = [numpy_helper.from_array(w[k], k) for k in ("Wv", "bv", "Pv")]
    nodes = [
        helper.make_node("AveragePool", ["pixel_values"], ["pooled"], kernel_shape=[32, 32], strides=[32, 32]),
        helper.make_node("Flatten", ["pooled"], ["flat"], axis=1),  # [b, 147]
        helper.make_node("MatMul", ["flat", "Wv"], ["lin"]),
        helper.make_node("Add", ["lin", "bv"], ["pre"]),
        helper.make_node("Tanh", ["pre"], ["h"]),
        helper.make_node("MatMul", ["h", "Pv"], ["image_embeds"]),
    ]
    out = helper.make_tensor_value_info("image_embeds", TensorProto.FLOAT, ["batch", DIM])
    g = helper.make_graph(nodes, "tiny_clip_vision", [inp], [out], inits)
    return model(g)


def model(g):
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="vika-tiny-clip")
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def images(d):
    bars = Image.new("L", (300, 180), 255)
    dr = ImageDraw.Draw(bars)
    for i, h in enumerate([40, 120, 90, 150, 60]):
        dr.rectangle([20 + i * 55, 170 - h, 55 + i * 55, 170], fill=40 + 30 * i)
    dr.line([10, 170, 290, 170], fill=0, width=2)
    bars.save(os.path.join(d, "bars.png"))
    curve = Image.new("L", (200, 260), 250)
    dr = ImageDraw.Draw(curve)
    pts = [(x, int(130 + 90 * np.sin(x / 23.0))) for x in range(0, 200, 2)]
    dr.line(pts, fill=10, width=3)
    curve.save(os.path.join(d, "curve.png"))
    yy, xx = np.mgrid[0:131, 0:97]
    rgb = np.stack([(xx * 255 // 96), (yy * 255 // 130), ((xx + yy) * 7) % 256], axis=-1).astype(np.uint8)
    Image.fromarray(rgb, "RGB").save(os.path.join(d, "rgb.png"))
    # The size of a real crop (150 dpi): shrunk about 2.7 times to 224.
    plot = Image.new("L", (760, 610), 255)
    dr = ImageDraw.Draw(plot)
    dr.rectangle([60, 30, 740, 560], outline=0, width=3)
    for k in range(3):
        pts = [(x, int(300 + (120 - 40 * k) * np.cos(x / (40.0 + 15 * k)) + 50 * k)) for x in range(62, 738, 3)]
        dr.line(pts, fill=30 + 70 * k, width=2 + k)
    for x in range(100, 740, 80):
        dr.line([x, 560, x, 575], fill=0, width=2)
    plot.save(os.path.join(d, "plot.png"))


IMAGES = ["bars.png", "curve.png", "rgb.png"]
LARGE = "plot.png"


def write(d):
    with open(os.path.join(d, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_json(), f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(d, "preprocessor_config.json"), "w", encoding="utf-8") as f:
        json.dump(preprocessor_config(), f, indent=2)
        f.write("\n")
    w = weights(len(tokenizer_json()["model"]["vocab"]))
    onnx.save(text_graph(w), os.path.join(d, "text_model.onnx"))
    onnx.save(vision_graph(w), os.path.join(d, "vision_model.onnx"))
    images(d)


def resized(path, size, crop):
    # What transformers' CLIPImageProcessor does before normalising, with
    # PIL: the shortest side to size (bicubic; the other side truncated),
    # then the centre crop.
    im = Image.open(path).convert("RGB")
    w, h = im.size
    if w <= h:
        nw, nh = size, int(size * h / w)
    else:
        nw, nh = int(size * w / h), size
    im = im.resize((nw, nh), Image.BICUBIC)
    top, left = (nh - crop) // 2, (nw - crop) // 2
    return im.crop((left, top, left + crop, top + crop))


def preprocess(path, size, crop):
    # resized, then RGB / 255 and (x - mean) / std; channels first.
    im = resized(path, size, crop)
    x = np.asarray(im, dtype=np.float64) / 255.0
    x = (x - np.array(MEAN)) / np.array(STD)
    return x.transpose(2, 0, 1)  # [3, crop, crop]


def unit(v):
    return (v / np.linalg.norm(v)).tolist()


def golden(d):
    with open(os.path.join(d, "ids_golden.json"), encoding="utf-8") as f:
        g = json.load(f)
    w = {k: v.astype(np.float64) for k, v in weights(len(tokenizer_json()["model"]["vocab"])).items()}
    out = {"dim": DIM, "small": list(SMALL), "text": [], "image": []}
    for c in g["single"]:
        ids = c["ids"]
        h = np.tanh(w["word"][ids] @ w["Wt"])
        out["text"].append({"text": c["text"], "ids": ids, "vector": unit(h.mean(axis=0) @ w["Pt"])})
    for name in IMAGES:
        px = preprocess(os.path.join(d, name), SIZE, SIZE)
        pooled = px.reshape(3, 7, 32, 7, 32).mean(axis=(2, 4)).reshape(-1)
        emb = np.tanh(pooled @ w["Wv"] + w["bv"]) @ w["Pv"]
        small = preprocess(os.path.join(d, name), *SMALL)
        out["image"].append({"file": name, "channel_means": px.mean(axis=(1, 2)).tolist(),
                             "small_pixels": np.round(small.reshape(-1), 6).tolist(), "vector": unit(emb)})
    big = np.asarray(resized(os.path.join(d, LARGE), SIZE, SIZE))[:, :, 0]  # gray: one plane
    out["large"] = {"file": LARGE, "size": SIZE, "gray_b64": base64.b64encode(big.tobytes()).decode()}
    with open(os.path.join(d, "clip_golden.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=None, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("write", "golden"):
        sys.exit(__doc__)
    {"write": write, "golden": golden}[sys.argv[1]](sys.argv[2])
