#!/usr/bin/python3
"""Time NumPy and PyTorch on the tenferro einsum suite, along the same paths.

The script runs (or reads) `tenferro suite --json`, then evaluates every
instance of it with NumPy and with PyTorch along the very path tenferro
evaluated, on inputs drawn and scaled the same way (uniform in [0, 1),
operand k scaled by c * prod over its summed labels l of extent(l)^(-1/m(l)),
m(l) the number of operands with l, c = 2, or sqrt(2) for complex), and
prints one table: instance, tenferro ms, numpy ms, torch ms, numpy/tenferro,
torch/tenferro (above 1: tenferro is faster), with geometric means.

NumPy: np.einsum(subscripts, *ops, optimize=['einsum_path', (i, j), ...])
with the row-major form of the instance (every operand's labels and extents
reversed) on C-ordered arrays, which has the same FLOPs. NumPy accepts only
52 letters as labels: instances with more distinct labels are evaluated
pairwise along the path, one two-operand np.einsum(..., optimize=True) per
step (what np.einsum does internally), and marked "*".
PyTorch: pairwise along the path, one torch.einsum per step, with
torch.set_num_threads(threads).

OpenBLAS reads its environment when it loads: the script removes
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE (an environment may set them to force a
kernel) and pins OPENBLAS_NUM_THREADS/OMP_NUM_THREADS to --threads before it
imports NumPy or PyTorch. It then asks which kernel OpenBLAS loaded
(threadpoolctl, or openblas_get_corename through ctypes; see
cmd/tenferro/peer_openblas.py, shared with the tenferro bench commands). On a
CPU it does not recognize OpenBLAS falls back to a generic pre-AVX kernel
(Prescott) that runs several times slower; when that happens on a CPU whose
/proc/cpuinfo flags show AVX-512 or AVX2, the script runs itself again with
OPENBLAS_CORETYPE set to the matching optimized kernel (Cooperlake with
AVX512_BF16, SkylakeX, Haswell; Sandybridge for AVX alone) and says so. The
header line before the table and every JSON row ("openblas_core", and
"openblas_chose": the kernel OpenBLAS picked itself when it was overridden,
else null) name the kernel that ran.

Usage (from the repository root):

    /usr/bin/python3 bench/peers/einsum_peers.py [--instances DIR]
        [--strategy opt_flops|opt_size|auto] [--threads N] [--runs N]
        [--suite-json FILE] [--markdown] [--json FILE] [NAME...]
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

sys.path.insert(0, os.path.join(ROOT, "cmd", "tenferro"))
sys.dont_write_bytecode = True  # keep the source tree clean
import peer_openblas  # noqa: E402

# Set, with OPENBLAS_CORETYPE, when the script runs itself again to force an
# OpenBLAS kernel: the kernel OpenBLAS had chosen on its own.
CHOSE_ENV = "TENFERRO_PEERS_OPENBLAS_CHOSE"


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--instances", help="instance directory (default: tenferro's built-in suite)")
    ap.add_argument("--strategy", default="", help="opt_flops, opt_size or auto (passed to tenferro suite)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5, help="timed runs per instance and library")
    ap.add_argument("--suite-json", help="read `tenferro suite --json` output from this file instead of running it")
    ap.add_argument("--tenferro", default="go run ./cmd/tenferro", help="command that runs the CLI (from the repository root)")
    ap.add_argument("--budget", type=float, default=20.0,
                    help="seconds: a library whose first run takes longer is timed once")
    ap.add_argument("--no-numpy", action="store_true")
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--json", dest="json_out", help="also write the rows as JSON to this file")
    ap.add_argument("names", nargs="*")
    return ap.parse_args()


def fix_blas_env(threads):
    """Clears OpenBLAS's kernel settings and pins the BLAS thread count.

    Returns the kernel OpenBLAS chose on its own when this process is the
    run that force_openblas started with OPENBLAS_CORETYPE set (which then
    stays), else None.
    """
    chose = os.environ.pop(CHOSE_ENV, None)
    for k in ("OPENBLAS_L2_SIZE",) if chose else ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        os.environ.pop(k, None)
    for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[k] = str(threads)
    return chose


def force_openblas(chose):
    """(kernel, note) of the OpenBLAS NumPy loaded; call after importing NumPy.

    When OpenBLAS chose a generic kernel that ignores this CPU's vector units
    (peer_openblas.coretype_for on the /proc/cpuinfo flags), the script runs
    itself again with OPENBLAS_CORETYPE set, since OpenBLAS reads it only when
    it loads; chose is fix_blas_env's answer in that second run.
    """
    cores = peer_openblas.openblas_cores()
    core = cores[0] if cores else None
    if chose:
        return core, "OPENBLAS_CORETYPE=%s set: OpenBLAS chose %s, which does not use this CPU's vector units" % (
            os.environ.get("OPENBLAS_CORETYPE", ""), chose)
    flags = peer_openblas.cpu_flags()
    for c in cores:
        ct = peer_openblas.coretype_for(c, flags)
        if ct:
            print("OpenBLAS chose %s on a CPU with AVX: running again with OPENBLAS_CORETYPE=%s" % (c, ct), file=sys.stderr)
            os.environ["OPENBLAS_CORETYPE"], os.environ[CHOSE_ENV] = ct, c
            sys.stdout.flush()
            sys.stderr.flush()
            os.execv(sys.executable, [sys.executable, os.path.abspath(__file__)] + sys.argv[1:])
    return core, ""


def run_suite(args):
    if args.suite_json:
        with open(args.suite_json) as f:
            return json.load(f)
    cmd = args.tenferro.split() + ["suite", "--json", "--threads", str(args.threads), "--runs", str(args.runs)]
    if args.instances:
        cmd += ["--instances", args.instances]
    if args.strategy:
        cmd += ["--strategy", args.strategy]
    cmd += args.names
    print("running:", " ".join(cmd), file=sys.stderr)
    res = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE)
    if res.returncode not in (0, 1):  # 1: some check failed; still report
        sys.exit("tenferro suite failed with exit status %d" % res.returncode)
    return json.loads(res.stdout)


def split_terms(subscripts):
    """Column-major subscripts -> (list of label lists, output label list)."""
    lhs, out = subscripts.split("->")
    terms = [[c for c in t if not c.isspace()] for t in lhs.split(",")]
    return terms, [c for c in out if not c.isspace()]


def operand_scales(terms, out, shapes, complex_):
    ext, count = {}, {}
    for t, s in zip(terms, shapes):
        for l, n in zip(t, s):
            if n != 1 or l not in ext:
                ext[l] = n
        for l in set(t):
            count[l] = count.get(l, 0) + 1
    c = math.sqrt(2) if complex_ else 2.0
    scales = []
    for t in terms:
        f = c
        for l in set(t):
            if l not in out and ext[l] > 0:
                f *= ext[l] ** (-1.0 / count[l])
        scales.append(f)
    return scales


def make_operands(np, row, seed=1):
    """Row-major (C-ordered) operands of the instance, scaled as the suite does."""
    terms, out = split_terms(row["subscripts"])
    dt = np.dtype(row["dtype"])
    cplx = dt.kind == "c"
    scales = operand_scales(terms, out, row["shapes"], cplx)
    rng = np.random.default_rng(seed)
    ops = []
    for shape, f in zip(row["shapes"], scales):
        rshape = tuple(reversed(shape))
        x = rng.random(rshape)
        if cplx:
            x = x + 1j * rng.random(rshape)
        ops.append(np.ascontiguousarray((x * f).astype(dt)))
    return ops


def row_major_terms(row):
    terms, out = split_terms(row["subscripts"])
    return [list(reversed(t)) for t in terms], list(reversed(out))


def letters_for(labels):
    uniq = list(dict.fromkeys(labels))
    if len(uniq) > len(LETTERS):
        return None
    return {l: LETTERS[i] for i, l in enumerate(uniq)}


def pairwise_steps(terms, out, path):
    """Per step: (i, j, two-operand subscripts in letters) along a linear path.

    An intermediate keeps the labels of its operands that a remaining operand
    or the output still needs, in order of appearance; the last step yields
    the output's labels in the output's order.
    """
    terms = [list(t) for t in terms]
    steps = []
    if not path:
        m = letters_for(terms[0] + out)
        return [(0, None, "".join(m[l] for l in terms[0]) + "->" + "".join(m[l] for l in out))]
    for k, (i, j) in enumerate(path):
        a, b = terms[i], terms[j]
        rest = [t for p, t in enumerate(terms) if p not in (i, j)]
        if k == len(path) - 1:
            res = list(out)
        else:
            need = set(out)
            for t in rest:
                need.update(t)
            res = [l for l in dict.fromkeys(a + b) if l in need]
        m = letters_for(a + b + res)
        if m is None:
            raise ValueError("a step has more than 52 labels")
        expr = "".join(m[l] for l in a) + "," + "".join(m[l] for l in b) + "->" + "".join(m[l] for l in res)
        steps.append((i, j, expr))
        terms = rest + [res]
    return steps


def run_pairwise(einsum, steps, ops, opt=None):
    ops = list(ops)
    for i, j, expr in steps:
        if j is None:
            return einsum(expr, ops[0])
        a, b = ops[i], ops[j]
        for p in sorted((i, j), reverse=True):
            del ops[p]
        ops.append(einsum(expr, a, b) if opt is None else einsum(expr, a, b, optimize=opt))
    return ops[0]


def timed(fn, runs, budget):
    t0 = time.perf_counter()
    res = fn()
    first = time.perf_counter() - t0
    if first > budget:
        return first * 1e3, res, 1
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2] * 1e3, res, runs


def numpy_callable(np, row, ops):
    terms, out = row_major_terms(row)
    path = [tuple(p) for p in row["path"]]
    m = letters_for([l for t in terms for l in t] + out)
    if m is not None:
        expr = ",".join("".join(m[l] for l in t) for t in terms) + "->" + "".join(m[l] for l in out)
        opt = ["einsum_path"] + path if path else False
        return (lambda: np.einsum(expr, *ops, optimize=opt)), ""
    steps = pairwise_steps(terms, out, path)
    return (lambda: run_pairwise(np.einsum, steps, ops, opt=True)), "*"


def torch_callable(torch, row, ops):
    terms, out = row_major_terms(row)
    steps = pairwise_steps(terms, out, [tuple(p) for p in row["path"]])
    tops = [torch.from_numpy(o) for o in ops]
    return lambda: run_pairwise(torch.einsum, steps, tops)


def agree(np, x, y, dtype):
    """Norm-wise agreement of two results of the same instance."""
    x, y = np.asarray(x, dtype=np.complex128), np.asarray(y, dtype=np.complex128)
    if x.shape != y.shape:
        return False
    eps = np.finfo(np.dtype(dtype)).eps
    return bool(np.linalg.norm(x - y) <= 1e4 * eps * max(np.linalg.norm(x), np.finfo(float).tiny))


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def fmt(x, nd=3):
    return "-" if x is None else ("%.*f" % (nd, x))


def main():
    args = parse_args()
    chose = fix_blas_env(args.threads)
    import numpy as np  # after fix_blas_env: OpenBLAS reads it on load
    core, note = force_openblas(chose)
    torch = None
    if not args.no_torch:
        try:
            import torch
            torch.set_num_threads(args.threads)
        except ImportError:
            print("PyTorch not available: skipping it", file=sys.stderr)
    header = "peers: numpy %s%s, torch %s, OpenBLAS core %s%s" % (
        np.__version__, " (not run)" if args.no_numpy else "", torch.__version__ if torch else "absent",
        core or "unknown", " (%s)" % note if note else "")
    rows = run_suite(args)
    out = []
    for k, row in enumerate(rows):
        print("peers [%d/%d] %s" % (k + 1, len(rows), row["name"]), file=sys.stderr)
        ops = make_operands(np, row)
        r = {"name": row["name"], "tenferro_ms": row["median_ms"], "check": row["check"],
             "numpy_ms": None, "torch_ms": None, "numpy_mode": "", "peers_agree": None,
             "openblas_core": core, "openblas_chose": chose}
        res_np = res_t = None
        if not args.no_numpy:
            fn, mode = numpy_callable(np, row, ops)
            r["numpy_ms"], res_np, _ = timed(fn, args.runs, args.budget)
            r["numpy_mode"] = mode
        if torch is not None:
            try:
                fn = torch_callable(torch, row, ops)
                r["torch_ms"], res_t, _ = timed(fn, args.runs, args.budget)
                res_t = res_t.numpy()
            except (RuntimeError, ValueError) as e:
                print("  torch: %s" % e, file=sys.stderr)
        if res_np is not None and res_t is not None:
            r["peers_agree"] = agree(np, res_np, res_t, row["dtype"])
        for peer in ("numpy", "torch"):
            t = r[peer + "_ms"]
            r[peer + "_ratio"] = t / r["tenferro_ms"] if t and r["tenferro_ms"] > 0 else None
        out.append(r)
    print_table(out, args, header)
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(out, f, indent=1)


def print_table(out, args, header):
    head = ["instance", "tenferro ms", "numpy ms", "torch ms", "numpy/tenferro", "torch/tenferro", "check"]
    lines = []
    for r in out:
        agree_mark = "" if r["peers_agree"] in (None, True) else " (peers disagree)"
        lines.append([r["name"], fmt(r["tenferro_ms"]), fmt(r["numpy_ms"]) + r["numpy_mode"], fmt(r["torch_ms"]),
                      fmt(r["numpy_ratio"], 2), fmt(r["torch_ratio"], 2), r["check"] + agree_mark])
    gm_np = geomean([r["numpy_ratio"] for r in out])
    gm_t = geomean([r["torch_ratio"] for r in out])
    lines.append(["geometric mean", "", "", "", fmt(gm_np, 2), fmt(gm_t, 2), ""])
    print(header + "\n")
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join(["---"] + ["---:"] * 5 + ["---"]) + "|")
        for l in lines:
            print("| " + " | ".join(l) + " |")
    else:
        w = [max(len(h), *(len(l[i]) for l in lines)) for i, h in enumerate(head)]
        print("  ".join(h.rjust(w[i]) if i else h.ljust(w[i]) for i, h in enumerate(head)))
        for l in lines:
            print("  ".join(c.rjust(w[i]) if i else c.ljust(w[i]) for i, c in enumerate(l)))
    print("threads: %d; ratios above 1: tenferro is faster; * NumPy ran pairwise (more than 52 labels)" % args.threads)


if __name__ == "__main__":
    main()
