
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

def subscripts(terms, out):
    # torch.einsum takes letters only: the label ids of one call are
    # renamed a, b, ..., Z.
    names = {}
    for ls in terms + [out]:
        for l in ls:
            names.setdefault(l, LETTERS[len(names)] if len(names) < 52 else None)
    if None in names.values():
        raise ValueError("a pairwise step has %d labels, more than torch.einsum's 52" % len(names))
    s = lambda ls: "".join(names[l] for l in ls)
    return ",".join(s(ls) for ls in terms) + "->" + s(out)

def pairwise(c):
    # The steps of the linear path (each pair removed, its result appended)
    # as (i, j, subscripts), the result keeping the labels that a later
    # operand or the output has; then the final map to the output (None:
    # the identity). Built once, outside the timed calls.
    ops, steps = [list(ls) for ls in c["inputs"]], []
    for i, j in c["path"]:
        a, b = ops[i], ops[j]
        for k in sorted((i, j), reverse=True):
            del ops[k]
        rest = set(c["output"]).union(*ops)
        keep = []
        for l in a + b:
            if l in rest and l not in keep:
                keep.append(l)
        steps.append((i, j, subscripts([a, b], keep)))
        ops.append(keep)
    final = None if ops[0] == c["output"] and len(set(ops[0])) == len(ops[0]) else subscripts(ops, c["output"])
    return steps, final

def contract(torch, xs, steps, final):
    ts = list(xs)
    for i, j, s in steps:
        a, b = ts[i], ts[j]
        for k in sorted((i, j), reverse=True):
            del ts[k]
        ts.append(torch.einsum(s, a, b))
    return torch.einsum(final, ts[0]) if final else ts[0]

np = torch = None
try:
    import numpy as np
    res["numpy_version"] = np.__version__
    import torch
    res["torch_version"] = torch.__version__
except Exception as e:
    notes.append("torch not available (%s; PYTHONPATH=%s): null torch times, checks by central differences" % (e, os.environ.get("PYTHONPATH", "")))
if torch is not None:
    record_openblas(res, notes)
    torch.set_num_threads(cfg["threads"])
    for n, c in enumerate(cases):
        try:
            steps, final = pairwise(c)
            xs = [torch.from_numpy(np.load(f)).requires_grad_(True) for f in c["files"]]
            cplx = c["dtype"].startswith("complex")
            def forward_backward():
                for x in xs:
                    x.grad = None
                out = contract(torch, xs, steps, final)
                (out.real if cplx else out).sum().backward()
            res["torch_ms"][n] = median_ms(forward_backward)
            for x, f in zip(xs, c["grads"]):
                np.save(f, np.ascontiguousarray(x.grad.numpy()))
        except Exception as e:
            res["torch_ms"][n] = None
            notes.append("torch %s: %s" % (c["name"], (str(e).strip() or type(e).__name__).split("\n")[0]))
        finally:
            xs = None
print(json.dumps(res))
