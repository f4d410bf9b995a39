# Which OpenBLAS kernel a peer process runs, and which one this CPU should
# run. The Go side prepends this file to every peer script (the decision for
# those is openblasCoreType in Go); bench/peers/einsum_peers.py imports it
# and decides with coretype_for. TestPeerOpenBLASDecision keeps the two
# decisions equal.
import os


def openblas_cores():
    # The kernels (openblas_get_corename, e.g. "SkylakeX") of the OpenBLAS
    # libraries this process has loaded, in load order without repeats:
    # threadpoolctl's "architecture" where threadpoolctl is installed, else
    # the name each mapped shared library with "blas" in its file name
    # (/proc/self/maps) that exports openblas_get_corename returns. Empty
    # when no OpenBLAS is loaded: import numpy (or torch) first.
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        threadpool_info = None
    if threadpool_info is not None:
        names = [i.get("architecture") for i in threadpool_info() if i.get("internal_api") == "openblas"]
    else:
        names = _corenames_from_maps()
    return [n for n in dict.fromkeys(names) if n]


def _corenames_from_maps():
    import ctypes
    try:
        with open("/proc/self/maps") as f:
            paths = [p[5].strip() for p in (l.split(None, 5) for l in f) if len(p) == 6]
    except OSError:
        return []
    names = []
    for p in dict.fromkeys(paths):
        if ".so" not in p or "blas" not in os.path.basename(p).lower():
            continue
        try:
            get = ctypes.CDLL(p).openblas_get_corename
        except (OSError, AttributeError):
            continue
        get.restype = ctypes.c_char_p
        names.append(get().decode(errors="replace").strip())
    return names


def record_openblas(res, notes):
    # Sets res["openblas_core"] to the first loaded OpenBLAS kernel (None:
    # no OpenBLAS, or the probe failed, which notes says).
    try:
        cores = openblas_cores()
    except Exception as e:
        notes.append("OpenBLAS kernel not found (%s): null openblas_core" % e)
        return
    res["openblas_core"] = cores[0] if cores else None


# OpenBLAS's x86 kernels without AVX: the ones it falls back to for a CPU it
# does not recognize (the Go twin is openblasPreAVX).
PRE_AVX = {"unknown", "prescott", "katmai", "coppermine", "northwood", "banias", "atom", "core2", "penryn",
           "dunnington", "nehalem", "athlon", "opteron", "opteron_sse3", "barcelona", "nano", "bobcat"}

AVX512 = {"avx512f", "avx512dq", "avx512bw", "avx512vl"}


def cpu_flags():
    # The x86 feature flags of the first CPU in /proc/cpuinfo (empty where
    # there is none: not Linux, or not x86).
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _, v = line.partition(":")
                if k.strip() == "flags":
                    return set(v.split())
    except OSError:
        pass
    return set()


def coretype_for(chosen, flags):
    # The OPENBLAS_CORETYPE a process needs when OpenBLAS chose the kernel
    # chosen on a CPU with the feature flags flags: the fastest kernel the
    # CPU runs when chosen is a pre-AVX fallback on a CPU with AVX or better,
    # and "" (keep OpenBLAS's choice) otherwise.
    if chosen.lower() not in PRE_AVX:
        return ""
    if AVX512 <= flags:
        return "Cooperlake" if "avx512_bf16" in flags else "SkylakeX"
    if {"avx2", "fma"} <= flags:
        return "Haswell"
    if "avx" in flags:
        return "Sandybridge"
    return ""
