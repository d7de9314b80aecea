#!/usr/bin/env python3
"""NumPy's values for examples/transformer_block.cpp: one pre-norm transformer
block (layer norm, single-head causal attention, softmax, an MLP with the exact
gelu, two residual connections) on 8 tokens of width 16, in float64.

    scripts/transformer_block_reference.py           print what the example must print
    scripts/transformer_block_reference.py --write   write it to examples/transformer_block.expected
    scripts/transformer_block_reference.py --check   fail (exit 1) unless examples/transformer_block.expected is it"""
import math

import numpy as np

from reference_output import emit

S, D, H = 8, 16, 32


def fill(shape, scale, seed):
    n = int(np.prod(shape))
    return (scale * np.sin(0.37 * np.arange(n) + seed)).reshape(shape)


def layer_norm(x):
    c = x - x.mean(axis=-1, keepdims=True)
    return c / np.sqrt((c * c).mean(axis=-1, keepdims=True) + 1e-5)


def gelu(x):
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x * 0.70710678118654752440))


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


x = fill((S, D), 1.0, 0)
wq, wk, wv, wo = (fill((D, D), 0.25, k) for k in (1, 2, 3, 4))
w1, w2 = fill((D, H), 0.25, 5), fill((H, D), 0.25, 6)
h = layer_norm(x)
scores = (h @ wq) @ (h @ wk).T * 0.25
causal = np.arange(S)[:, None] >= np.arange(S)[None, :]
attention = softmax(np.where(causal, scores, -1e30)) @ (h @ wv)
x1 = x + attention @ wo
y = x1 + gelu(layer_norm(x1) @ w1) @ w2
lines = [f"token {i}:" + "".join(f" {v:9.5f}" for v in y[i, :4]) for i in range(S)]
emit("transformer_block", "\n".join(lines) + "\n")
