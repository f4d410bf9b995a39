package main

import (
	"fmt"
	"path/filepath"
	"testing"
)

// linalgNumPyScript writes the inputs of each case (mode "gen": NumPy
// random arrays, batch axes first, in the case's memory order) or checks
// the CLI's outputs against numpy.linalg (mode "check"): the dtype, the
// shape and C order of every file, and values within 100·n·eps of NumPy's
// (relative to the operands' scale) for the unique results, and by
// reconstruction (Q·R = A, L·Q = A, P·L·U = A) where the factors depend
// on a gauge. It prints {name: "ok" or a message}.
const linalgNumPyScript = `
import json, sys, glob, os
import numpy as np
cfg = json.load(sys.stdin)
rng = np.random.default_rng(3)
res = {}
def draw(shape, dt, kind):
    x = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    if kind == "hermitian":
        x = (x + np.conj(np.swapaxes(x, -1, -2))) / 2
    elif kind == "spd":
        x = x @ np.conj(np.swapaxes(x, -1, -2)) + shape[-1] * np.eye(shape[-1])
    elif kind == "general":
        x = x + np.sqrt(shape[-1]) * np.eye(shape[-2], shape[-1])
    return x.astype(dt)
for c in cfg["cases"]:
    base = os.path.join(cfg["dir"], c["name"])
    if cfg["mode"] == "gen":
        for k, i in enumerate(c["inputs"]):
            np.save("%s_in%d.npy" % (base, k), np.array(draw(tuple(i["shape"]), i["dtype"], i["kind"]), order=i["order"]))
        continue
    ins = [np.load("%s_in%d.npy" % (base, k)) for k in range(len(c["inputs"]))]
    out = {os.path.basename(f)[len(c["name"]) + 5:-4]: np.load(f) for f in glob.glob(base + "_out.*.npy")}
    a = ins[0]
    eps = np.finfo(np.result_type(*ins)).eps
    n = max(a.shape[-2:]) if a.ndim >= 2 else 1
    tol = 100 * (n + 1) * eps
    sc = lambda x: max(np.max(np.abs(x)), 1e-300) if x.size else 1
    def close(got, want, scale):
        if got.shape != want.shape:
            return "shape %s, want %s" % (got.shape, want.shape)
        if got.dtype != want.dtype:
            return "dtype %s, want %s" % (got.dtype, want.dtype)
        err = np.max(np.abs(got - want)) if got.size else 0
        return "ok" if err <= tol * scale else "error %g > %g" % (err, tol * scale)
    op, msgs, c["flags"] = c["op"], [], c["flags"] or []
    for k, v in out.items():
        if v.ndim >= 2 and not v.flags["C_CONTIGUOUS"]:
            msgs.append(k + " not C-contiguous")
    try:
        if op == "solve":
            # NumPy 2's rule (only a 1-D b is a vector), whatever NumPy runs.
            b = ins[1][:, None] if ins[1].ndim == 1 else ins[1]
            r = max(a.ndim, b.ndim)
            a2, b2 = a.reshape((1,) * (r - a.ndim) + a.shape), b.reshape((1,) * (r - b.ndim) + b.shape)
            want = np.linalg.solve(a2, b2)
            if ins[1].ndim == 1:
                want = want[..., 0]
            msgs.append(close(out["x"], want, sc(out["x"]) * sc(a) * n))
        elif op == "cholesky":
            msgs.append(close(out["l"], np.linalg.cholesky(a), sc(a) ** 0.5))
        elif op == "inv":
            msgs.append(close(out["inv"], np.linalg.inv(a), sc(out["inv"])))
        elif op == "det":
            d = np.linalg.det(a)
            msgs.append(close(out["det"], d, sc(d)))
        elif op == "slogdet":
            s, l = np.linalg.slogdet(a)
            msgs.append(close(out["sign"], s, 1))
            msgs.append(close(out["logabs"], l, sc(l)))
        elif op in ("qr", "lq"):
            mode = c["flags"][1] if c["flags"] else "reduced"
            x = a if op == "qr" else np.conj(np.swapaxes(a, -1, -2))
            want = np.linalg.qr(x, mode={"l": "r"}.get(mode, mode))
            wr = want if mode in ("r", "l") else want[1]
            tri = out["r" if op == "qr" else "l"]
            if op == "lq":
                tri = np.conj(np.swapaxes(tri, -1, -2))
            d = lambda r: np.abs(np.diagonal(r, axis1=-2, axis2=-1))
            msgs.append(close(d(tri).astype(wr.real.dtype), d(wr).astype(wr.real.dtype), sc(a)))
            if mode not in ("r", "l"):
                prod = out["q"] @ out["r"] if op == "qr" else out["l"] @ out["q"]
                msgs.append(close(prod, a, sc(a) * n))
                wq = want[0].shape if op == "qr" else want[0].shape[:-2] + want[0].shape[-2:][::-1]
                msgs.append("ok" if out["q"].shape == wq else "q shape %s, want %s" % (out["q"].shape, wq))
        elif op == "lu":
            msgs.append(close(out["p"] @ out["l"] @ out["u"], a, sc(a) * n))
        elif op == "svd":
            sv = np.linalg.svd(a, compute_uv=False)
            msgs.append(close(out["s"], sv, sc(sv)))
            if "u" in out:
                wu, _, wvh = np.linalg.svd(a, full_matrices="--full" in c["flags"])
                msgs.append("ok" if out["u"].shape == wu.shape and out["vh"].shape == wvh.shape else "shapes %s %s, want %s %s" % (out["u"].shape, out["vh"].shape, wu.shape, wvh.shape))
                kk = sv.shape[-1]
                msgs.append(close((out["u"][..., :kk] * out["s"][..., None, :]) @ out["vh"][..., :kk, :], a, sc(a) * n))
        elif op == "eigh":
            uplo = "U" if "--upper" in c["flags"] else "L"
            w = np.linalg.eigvalsh(a, UPLO=uplo)
            msgs.append(close(out["w"], w, sc(w)))
            if "v" in out:
                h = np.linalg.eigh(a, UPLO=uplo)[1]
                msgs.append(close(a @ out["v"], out["v"] * out["w"][..., None, :], sc(a) * n) if out["v"].shape == h.shape else "v shape %s" % (out["v"].shape,))
        elif op == "lstsq":
            xs = [np.linalg.lstsq(x, y, rcond=None) for x, y in zip(a.reshape((-1,) + a.shape[-2:]), ins[1].reshape((-1,) + ins[1].shape[-2:]))]
            want = np.stack([x[0] for x in xs]).reshape(out["x"].shape)
            msgs.append(close(out["x"], want, sc(want) * n))
            msgs.append("ok" if np.array_equal(out["rank"], np.array([x[2] for x in xs]).reshape(a.shape[:-2])) else "rank %s" % out["rank"])
            msgs.append(close(out["s"], np.linalg.svd(a, compute_uv=False), sc(a) * n))
        elif op == "expm":
            try:
                import scipy.linalg as sl
            except ImportError:
                sl = None
            if sl is not None:
                want = sl.expm(a)
                msgs.append(close(out["expm"], want, sc(want) * n))
        elif op == "norm":
            o = c["flags"][1]
            o = {"fro": "fro", "nuc": "nuc", "inf": np.inf, "-inf": -np.inf}.get(o) or int(o)
            want = np.linalg.norm(a, o, axis=(-2, -1))
            msgs.append(close(out["norm"], want.astype(out["norm"].dtype), sc(a) * n))
        elif op == "cond":
            want = np.linalg.cond(a)
            msgs.append(close(out["cond"], want.astype(out["cond"].dtype), sc(want) * 10))
        elif op == "matrix_rank":
            want = np.linalg.matrix_rank(a)
            msgs.append("ok" if np.array_equal(out["rank"], want) else "rank %s, want %s" % (out["rank"], want))
        elif op in ("cholesky_solve", "solve_triangular"):
            t = np.tril(a)
            want = np.linalg.solve(t @ np.conj(np.swapaxes(t, -1, -2)) if op == "cholesky_solve" else t, ins[1])
            msgs.append(close(out["x"], want, sc(want) * sc(a) * n))
        elif op == "pinv":
            msgs.append(close(out["pinv"], np.linalg.pinv(a), sc(out["pinv"]) * n))
    except Exception as e:
        msgs.append("%s: %s" % (type(e).__name__, e))
    bad = [m for m in msgs if m != "ok"]
    res[c["name"]] = "; ".join(bad) if bad else "ok"
print(json.dumps(res))
`

// linalgNumPyCase is one end-to-end case of TestLinalgCmdNumPy.
type linalgNumPyCase struct {
	Name   string   `json:"name"`
	Op     string   `json:"op"`
	Flags  []string `json:"flags"`
	Inputs []struct {
		Shape []int  `json:"shape"`
		DType string `json:"dtype"`
		Kind  string `json:"kind"`
		Order string `json:"order"`
	} `json:"inputs"`
}

// TestLinalgCmdNumPy runs every operation on files NumPy wrote (C and
// Fortran order, batch axes first) and checks the results with NumPy.
func TestLinalgCmdNumPy(t *testing.T) {
	if !numpyOK() {
		t.Skip(pythonPath + " lacks numpy")
	}
	type in = struct {
		Shape []int  `json:"shape"`
		DType string `json:"dtype"`
		Kind  string `json:"kind"`
		Order string `json:"order"`
	}
	var cases []linalgNumPyCase
	add := func(op string, flags []string, ins ...in) {
		cases = append(cases, linalgNumPyCase{Name: fmt.Sprintf("c%d_%s", len(cases), op), Op: op, Flags: flags, Inputs: ins})
	}
	for i, dt := range []string{"float32", "float64", "complex64", "complex128"} {
		order := []string{"C", "F"}[i%2]
		add("solve", nil, in{[]int{2, 3, 6, 6}, dt, "general", order}, in{[]int{3, 6, 2}, dt, "plain", "C"})
		add("solve", nil, in{[]int{5, 5}, dt, "general", "C"}, in{[]int{5}, dt, "plain", "C"})
		add("cholesky", nil, in{[]int{3, 7, 7}, dt, "spd", order})
		add("inv", nil, in{[]int{4, 9, 9}, dt, "general", order})
		add("det", nil, in{[]int{2, 2, 5, 5}, dt, "general", order})
		add("det", nil, in{[]int{6, 6}, dt, "general", "C"})
		add("slogdet", nil, in{[]int{3, 8, 8}, dt, "general", order})
		add("lu", nil, in{[]int{3, 6, 6}, dt, "general", order})
		for _, mode := range []string{"reduced", "complete", "r"} {
			add("qr", []string{"--mode", mode}, in{[]int{2, 9, 4}, dt, "plain", order})
			add("qr", []string{"--mode", mode}, in{[]int{4, 9}, dt, "plain", "C"})
			lm := map[string]string{"r": "l"}[mode]
			if lm == "" {
				lm = mode
			}
			add("lq", []string{"--mode", lm}, in{[]int{3, 4, 7}, dt, "plain", order})
		}
		for _, flags := range [][]string{nil, {"--full"}, {"--values-only"}} {
			add("svd", flags, in{[]int{2, 8, 5}, dt, "plain", order})
			add("svd", flags, in{[]int{5, 8}, dt, "plain", "C"})
		}
		for _, flags := range [][]string{nil, {"--upper"}, {"--values-only"}} {
			add("eigh", flags, in{[]int{3, 7, 7}, dt, "hermitian", order})
		}
		add("lstsq", nil, in{[]int{2, 9, 4}, dt, "plain", order}, in{[]int{2, 9, 3}, dt, "plain", "C"})
		add("lstsq", nil, in{[]int{4, 9}, dt, "plain", "C"}, in{[]int{4, 2}, dt, "plain", order})
		add("pinv", nil, in{[]int{2, 3, 6, 4}, dt, "plain", order})
		add("expm", nil, in{[]int{3, 6, 6}, dt, "plain", order})
		add("cholesky_solve", nil, in{[]int{2, 5, 5}, dt, "spd", order}, in{[]int{2, 5, 3}, dt, "plain", "C"})
		add("solve_triangular", nil, in{[]int{2, 5, 5}, dt, "spd", order}, in{[]int{2, 5, 3}, dt, "plain", "F"})
		for _, o := range []string{"fro", "nuc", "1", "-1", "2", "-2", "inf", "-inf"} {
			add("norm", []string{"--ord", o}, in{[]int{2, 7, 5}, dt, "plain", order})
		}
		add("cond", nil, in{[]int{2, 7, 5}, dt, "plain", order})
		add("matrix_rank", nil, in{[]int{3, 4, 6}, dt, "plain", order})
	}
	add("solve", nil, in{[]int{4, 4}, "float32", "general", "C"}, in{[]int{4, 2}, "complex128", "plain", "F"})
	dir := t.TempDir()
	runNumpyDir := func(mode string) map[string]string {
		return runNumpy(t, linalgNumPyScript, map[string]any{"mode": mode, "dir": dir, "cases": cases})
	}
	runNumpyDir("gen")
	for _, c := range cases {
		args := append([]string{c.Op, "-o", filepath.Join(dir, c.Name+"_out")}, c.Flags...)
		for k := range c.Inputs {
			args = append(args, filepath.Join(dir, fmt.Sprintf("%s_in%d.npy", c.Name, k)))
		}
		runLinalg(t, args...)
	}
	res := runNumpyDir("check")
	for _, c := range cases {
		if r := res[c.Name]; r != "ok" {
			t.Errorf("%s %v %v: %s", c.Op, c.Flags, c.Inputs, r)
		}
	}
}
