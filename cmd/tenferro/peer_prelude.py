# The start of the peer scripts of bench gemm, ops, linalg and grad (after
# peer_openblas.py): the configuration from stdin, OPENBLAS_CORETYPE when
# the caller found that OpenBLAS does not recognize this CPU, the result
# record and the median timer. The Go side prepends it to each script.
import json, os, sys, time
cfg = json.load(sys.stdin)
if cfg.get("coretype"):
    os.environ["OPENBLAS_CORETYPE"] = cfg["coretype"]
cases, budget, notes = cfg["cases"], cfg["budget"], []
res = {"openblas_core": None, "numpy_version": None, "scipy_version": None, "torch_version": None,
       "notes": notes, "numpy_ms": [None] * len(cases), "torch_ms": [None] * len(cases)}

def median_ms(fn):
    # The first call is the warm-up and sizes the run: 3 to 500 timed calls.
    t0 = time.perf_counter(); fn(); one = max(time.perf_counter() - t0, 1e-6)
    ts = []
    for _ in range(min(max(int(budget / one), 3), 500)):
        t0 = time.perf_counter(); fn(); ts.append(time.perf_counter() - t0)
    ts.sort(); m = len(ts) // 2
    return (ts[m] + ts[~m]) / 2 * 1e3
