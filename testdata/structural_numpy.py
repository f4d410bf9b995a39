# Computes the NumPy results of the cases of TestStructuralNumPy
# (structural_numpy_test.go): argv[1] is the cases' JSON, argv[2] the
# results' JSON to write. Arrays travel as a shape and row-major data.
import json
import sys

import numpy as np


def run(c):
    xs = [np.array(a["data"], dtype=np.float64).reshape(a["shape"]) for a in c["inputs"]]
    x, op = xs[0], c["op"]
    if op == "concatenate":
        return [np.concatenate(xs, axis=c["axis"])]
    if op == "stack":
        return [np.stack(xs, axis=c["axis"])]
    if op == "split":
        return np.split(x, c["n"], axis=c["axis"])
    if op == "split_at":
        return np.split(x, c["ints"], axis=c["axis"])
    if op == "tile":
        return [np.tile(x, c["ints"])]
    if op == "repeat":
        reps = c["ints"]
        return [np.repeat(x, reps[0] if len(reps) == 1 else reps, axis=c["axis"])]
    if op == "pad":
        kw = {"constant_values": c["value"]} if c["mode"] == "constant" else {}
        return [np.pad(x, c["widths"], mode=c["mode"], **kw)]
    if op == "roll":
        return [np.roll(x, c["ints"], axis=tuple(c["axes"]))]
    if op == "take":
        return [np.take(x, xs[1].astype(np.int64), axis=c["axis"])]
    if op == "gather":
        return [np.take_along_axis(x, xs[1].astype(np.int64), axis=c["axis"])]
    if op == "masked_select":
        # The library lists the selection in column-major order: NumPy's
        # row-major order of the arrays with their axes reversed.
        a, m = np.broadcast_arrays(x, xs[1] > 0)
        return [a.T[m.T]]
    if op == "diag":
        return [np.diag(x, c["k"])]
    if op in ("tril", "triu"):
        # The library's matrices are the first two axes, NumPy's the last.
        f = np.tril if op == "tril" else np.triu
        y = np.moveaxis(x, [0, 1], [-2, -1])
        return [np.moveaxis(f(y, c["k"]), [-2, -1], [0, 1])]
    raise ValueError("unknown op " + op)


out = []
for c in json.load(open(sys.argv[1])):
    try:
        r = run(c)
        out.append({"ok": True, "arrays": [{"shape": list(a.shape), "data": a.ravel().tolist()} for a in r]})
    except Exception as e:  # the library must fail too
        out.append({"ok": False, "err": str(e)})
json.dump(out, open(sys.argv[2], "w"))
