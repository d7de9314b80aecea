#!/usr/bin/env python3
"""NumPy's values for examples/adam.cpp: 100 Adam steps on a 64 x 32 float32
parameter matrix toward target[i, j] = sin(i + j), in float32 as the example
computes them (the bias corrections folded into the step's rate).

    scripts/adam_reference.py           print what the example must print
    scripts/adam_reference.py --write   write it to examples/adam.expected
    scripts/adam_reference.py --check   fail (exit 1) unless examples/adam.expected is it"""
import numpy as np

from reference_output import emit

ROWS, COLS, STEPS = 64, 32, 100
f32 = np.float32
i, j = np.meshgrid(np.arange(ROWS), np.arange(COLS), indexing="ij")
p = (((i * 7 + j * 3) % 11).astype(f32) * f32(0.1) - f32(0.5)).astype(f32)
m = np.zeros((ROWS, COLS), f32)
v = np.zeros((ROWS, COLS), f32)
target = np.sin((i + j).astype(f32))
lr, b1, b2, eps = f32(1e-2), f32(0.9), f32(0.999), f32(1e-8)
for t in range(1, STEPS + 1):
    g = (p - target + f32(0.01) * ((t + i) % 3 - 1).astype(f32)).astype(f32)
    rate = lr * np.sqrt(f32(1) - b2 ** f32(t)) / (f32(1) - b1 ** f32(t))
    m = b1 * m + f32(1 - 0.9) * g
    v = b2 * v + f32(1 - 0.999) * g * g
    p = p - rate * m / (np.sqrt(v) + eps)
lines = [f"{STEPS} steps in the storage of p, m and v: yes; per step 0 allocations, 1 loops"]
lines.append(f"mean |p - target| after {STEPS} steps: {np.abs(p - target).astype(np.float64).mean():.4f}")
for r in (0, 17, 63):
    lines.append(f"p[{r}, 0:4] = " + " ".join(f"{x:8.4f}" for x in p[r, :4]))
text = "\n".join(lines) + "\n"
emit("adam", text)
