# The body of bench gemm's peer script (after peer_prelude.py): the cases
# are square sizes n; numpy_ms[i] is the median time of numpy.matmul on
# C-ordered n×n operands of cfg["dtype"], into a preallocated result,
# timed as the library's MatmulInto.
np = None
try:
    import numpy as np
    res["numpy_version"] = np.__version__
except Exception as e:
    notes.append("numpy not available (%s): null numpy times" % e)
if np is not None:
    record_openblas(res, notes)
    dt = np.dtype(cfg["dtype"])
    cplx = dt.kind == "c"
    rng = np.random.default_rng(1)
    for i, n in enumerate(cases):
        def mk():
            x = rng.random((n, n))
            if cplx:
                x = x + 1j * rng.random((n, n))
            return np.ascontiguousarray(x.astype(dt))
        a, b = mk(), mk()
        c = np.empty((n, n), dtype=dt)
        # As the library is timed (timeMatmul): a warm-up, one call that
        # sizes samples of about 1 ms, then 5 to 200 samples within the
        # budget.
        np.matmul(a, b, out=c)
        t0 = time.perf_counter(); np.matmul(a, b, out=c); one = max(time.perf_counter() - t0, 1e-6)
        inner = max(1, int(1e-3 / one))
        times = []
        for _ in range(max(5, min(200, int(budget / (one * inner))))):
            t0 = time.perf_counter()
            for _ in range(inner):
                np.matmul(a, b, out=c)
            times.append((time.perf_counter() - t0) / inner)
        times.sort(); m = len(times) // 2
        res["numpy_ms"][i] = (times[m] + times[~m]) / 2 * 1e3
print(json.dumps(res))
