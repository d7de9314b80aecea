"""The block of bench/transformer_block.hpp in NumPy (float32, the same
inputs), for bench/memory/run.py: plain NumPy, a new array per step.
Prints: variant, the call's peak RSS above the process before the inputs
existed (MiB), the inputs (MiB), seconds, y[0, 0]: the peak is reset once the
inputs exist, so that the temporaries that filled them do not count."""
import math
import time

import numpy as np

S, D, H = 256, 512, 2048


def status_mib(key):  # VmHWM (the peak) or VmRSS (now)
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def reset_peak():  # the peak from here on (Linux: 5 > clear_refs resets VmHWM)
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def fill(shape, scale, seed):  # scale * sin(0.37 i + seed), computed in double, rounded once
    i = np.arange(math.prod(shape), dtype=np.float64)
    return (np.float32(scale) * np.sin(0.37 * i + seed).astype(np.float32)).reshape(shape)


def layer_norm(x):
    c = x - x.mean(axis=-1, keepdims=True)
    return c / np.sqrt((c * c).mean(axis=-1, keepdims=True) + np.float32(1e-5))


def erf(x):  # NumPy has none: math.erf elementwise, in double, rounded to float32
    return np.vectorize(math.erf, otypes=[np.float64])(x.astype(np.float64)).astype(np.float32)


def block(x, wq, wk, wv, wo, w1, w2):
    h = layer_norm(x)
    scores = (h @ wq) @ (h @ wk).T * np.float32(1 / math.sqrt(D))
    causal = np.arange(S)[:, None] >= np.arange(S)[None, :]
    s = np.where(causal, scores, np.float32(-1e30))
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    x1 = x + ((e / e.sum(axis=-1, keepdims=True)) @ (h @ wv)) @ wo
    u = layer_norm(x1) @ w1
    return x1 + (np.float32(0.5) * u * (np.float32(1) + erf(u * np.float32(1 / math.sqrt(2))))) @ w2


if __name__ == "__main__":
    before = status_mib("VmRSS")
    s = np.float32(1 / math.sqrt(D))
    x = fill((S, D), 1.0, 0)
    w = [fill((D, D), s, 1), fill((D, D), s, 2), fill((D, D), s, 3), fill((D, D), s, 4), fill((D, H), s, 5),
         fill((H, D), np.float32(1 / math.sqrt(H)), 6)]
    inputs = status_mib("VmRSS") - before
    reset_peak()
    t0 = time.perf_counter()
    y = block(x, *w)
    seconds = time.perf_counter() - t0
    print(f"numpy {status_mib('VmHWM') - before:.1f} {inputs:.1f} {seconds:.3f} {float(y[0, 0]):.6g}")
