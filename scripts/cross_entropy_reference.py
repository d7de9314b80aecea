#!/usr/bin/env python3
"""NumPy's values for examples/cross_entropy.cpp: the cross-entropy of a batch
of logits (row 2 shifted by 700, where a naive exp overflows) against one-hot
labels, logsumexp computed from each row's max.

    scripts/cross_entropy_reference.py           print what the example must print
    scripts/cross_entropy_reference.py --write   write it to examples/cross_entropy.expected
    scripts/cross_entropy_reference.py --check   fail (exit 1) unless examples/cross_entropy.expected is it"""
import numpy as np

from reference_output import emit

B, C = 6, 5
i, j = np.meshgrid(np.arange(B), np.arange(C), indexing="ij")
x = ((i * 3 + j * 7) % 9).astype(np.float64) - 4.0 + np.where(i == 2, 700.0, 0.0)
y = np.zeros((B, C))
y[np.arange(B), (np.arange(B) * 2) % C] = 1.0
m = x.max(axis=1, keepdims=True)
lse = m + np.log(np.exp(x - m).sum(axis=1, keepdims=True))
losses = (lse - (x * y).sum(axis=1, keepdims=True))[:, 0]
lines = [f"mean loss: {losses.mean():.6f}"] + [f"row {r}: {losses[r]:.6f}" for r in range(B)]
text = "\n".join(lines) + "\n"
emit("cross_entropy", text)
