
def each(f, *xs):
    # SciPy's per-matrix functions, called on every matrix of a stack.
    return f(*xs) if xs[0].ndim == 2 else [f(*z) for z in zip(*xs)]

def run(key, name, env, load):
    cache, group, failed = {}, None, set()
    for i, c in enumerate(cases):
        if group != c["files"]:
            group = c["files"]
            cache = {f: cache[f] for f in group if f in cache}
        if not c[key] or c["op"] + c["dtype"] in failed:
            continue
        if key == "np" and c["scipy"] and env.get("sl") is None:
            continue
        try:
            for f in c["files"]:
                if f not in cache:
                    cache[f] = load(f)
            loc = dict(env, a=cache[c["files"][0]], b=cache[c["files"][1]] if len(c["files"]) > 1 else None)
            code = compile(c[key], c["op"], "eval")
            res[name + "_ms"][i] = median_ms(lambda: eval(code, loc))
        except Exception as e:
            failed.add(c["op"] + c["dtype"])
            notes.append("%s %s %s: %s" % (name, c["op"], c["dtype"], (str(e).strip() or type(e).__name__).split("\n")[0]))

np = sl = torch = None
try:
    import numpy as np
    res["numpy_version"] = np.__version__
except Exception as e:
    notes.append("numpy not available (%s): null numpy and torch times" % e)
if np is not None:
    record_openblas(res, notes)
    try:
        import scipy, scipy.linalg as sl
        res["scipy_version"] = scipy.__version__
    except Exception as e:
        notes.append("scipy not available (%s): null numpy times for the scipy.linalg cases" % e)
    run("np", "numpy", {"np": np, "sl": sl, "each": each}, np.load)
    try:
        import torch
        res["torch_version"] = torch.__version__
    except Exception as e:
        notes.append("torch not available (%s; PYTHONPATH=%s): null torch times" % (e, os.environ.get("PYTHONPATH", "")))
if torch is not None:
    torch.set_num_threads(cfg["threads"])
    run("torch", "torch", {"torch": torch}, lambda f: torch.from_numpy(np.load(f)))
print(json.dumps(res))
