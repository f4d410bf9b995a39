# The body of bench ops' peer script (after peer_prelude.py): the cases
# are timed with one sizing call and one warm-up, then 5 to 500 calls.
peers = cfg.get("peers", ["numpy", "torch"])

def median_ms(fn):
    t0 = time.perf_counter(); fn(); one = max(time.perf_counter() - t0, 1e-6)
    fn(); ts = []
    for _ in range(min(max(int(budget / one), 5), 500)):
        t0 = time.perf_counter(); fn(); ts.append(time.perf_counter() - t0)
    ts.sort(); m = len(ts) // 2
    return (ts[m] + ts[~m]) / 2 * 1e3

def run(key, name, mod, draw, empty):
    cache, group, failed = {}, None, set()
    def inp(c, r, slot):
        if (r[0], r[1], slot) not in cache:
            cache[(r[0], r[1], slot)] = draw(c, r)
        return cache[(r[0], r[1], slot)]
    for i, c in enumerate(cases):
        if group != (c["dtype"], c["size"]):
            cache, group = {}, (c["dtype"], c["size"])
        if not c[key] or c["op"] + c["dtype"] in failed:
            continue
        try:
            env = {key: mod, "a": inp(c, c["a"], 0), "b": inp(c, c["b"], 1) if c["binary"] else None,
                   "out": empty(c), "alpha": c["alpha"], "beta": c["beta"]}
            code = compile(c[key], c["op"], "eval")
            res[name + "_ms"][i] = median_ms(lambda: eval(code, env))
        except Exception as e:
            failed.add(c["op"] + c["dtype"])
            notes.append("%s %s %s: %s" % (name, c["op"], c["dtype"], (str(e).strip() or type(e).__name__).split("\n")[0]))

np = torch = None
if "numpy" in peers:
    try:
        import numpy as np
        res["numpy_version"] = np.__version__
    except Exception as e:
        notes.append("numpy not available (%s): null numpy times" % e)
if np is not None:
    record_openblas(res, notes)
    np.seterr(all="ignore")
    rng = np.random.default_rng(1)
    def np_draw(c, r):
        u = lambda: rng.random(c["size"]) * (r[1] - r[0]) + r[0]
        return (u() + 1j * u() if c["dtype"].startswith("complex") else u()).astype(c["dtype"])
    run("np", "numpy", np, np_draw, lambda c: np.empty(() if c["reduce"] else c["size"], c["dtype"]))
if "torch" in peers:
    try:
        import torch
        res["torch_version"] = torch.__version__
    except Exception as e:
        notes.append("torch not available (%s): null torch times" % e)
if torch is not None:
    torch.set_num_threads(cfg["threads"])
    gen = torch.Generator().manual_seed(1)
    def t_draw(c, r):
        u = lambda: torch.rand(c["size"], generator=gen, dtype=torch.float64) * (r[1] - r[0]) + r[0]
        return (torch.complex(u(), u()) if c["dtype"].startswith("complex") else u()).to(getattr(torch, c["dtype"]))
    run("torch", "torch", torch, t_draw, lambda c: torch.empty(() if c["reduce"] else c["size"], dtype=getattr(torch, c["dtype"])))
print(json.dumps(res))
