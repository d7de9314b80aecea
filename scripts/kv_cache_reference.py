#!/usr/bin/env python3
"""NumPy's values for examples/kv_cache.cpp: a key/value cache written one row
per step (K[t] = k, V[t] = v), then attention over the rows written so far,
softmax(K[:t+1] @ q / sqrt(width)) @ V[:t+1], in float32 as the example.

    scripts/kv_cache_reference.py           print what the example must print
    scripts/kv_cache_reference.py --write   write it to examples/kv_cache.expected
    scripts/kv_cache_reference.py --check   fail (exit 1) unless examples/kv_cache.expected is it"""
import numpy as np

from reference_output import emit

STEPS, WIDTH = 6, 4


def qkv(which, s, j):
    if which == 0:
        return ((s + 2 * j) % 5 - 2) * 0.5
    if which == 1:
        return ((3 * s + 5 * j) % 7 - 3) * 0.25
    return ((5 * s + 3 * j) % 11 - 5) * 0.125


K = np.zeros((STEPS, WIDTH), np.float32)
V = np.zeros((STEPS, WIDTH), np.float32)
lines = []
for s in range(STEPS):
    q = np.array([qkv(0, s, j) for j in range(WIDTH)], np.float32)
    K[s] = [qkv(1, s, j) for j in range(WIDTH)]
    V[s] = [qkv(2, s, j) for j in range(WIDTH)]
    scores = (K[: s + 1] @ q) * np.float32(1.0 / np.sqrt(np.float32(WIDTH)))
    w = np.exp(scores - scores.max())
    w = w / w.sum()
    out = w @ V[: s + 1]
    lines.append(f"step {s}:" + "".join(f" {x:8.5f}" for x in out))
lines.append("caches kept their storage at every step: yes")
lines.append("per step: 0 allocations, 0 copies, 2 updates in place")
text = "\n".join(lines) + "\n"

emit("kv_cache", text)
