#!/usr/bin/env python3
"""NumPy's values for examples/red_black.cpp: three red-black Gauss-Seidel sweeps
for -Laplace(u) = f on a 7 x 7 grid padded by a ghost ring to 9 x 9, red points
(i + j even: the even elements of the flattened grid) from their black
neighbours, then the black points of rows 2 .. 6 from the new red values, each
update written as the example writes it (u += inside * ((w + e + n + s + f h^2) / 4 - u),
in the same order of operations).

    scripts/red_black_reference.py           print what the example must print
    scripts/red_black_reference.py --write   write it to examples/red_black.expected
    scripts/red_black_reference.py --check   fail (exit 1) unless examples/red_black.expected is it"""
import numpy as np

from reference_output import emit

W = ROWS = 9
h = 1.0 / 6.0
u = np.zeros((ROWS, W))
f = np.zeros((ROWS, W))
inside = np.zeros((ROWS, W))
for i in range(1, 8):
    for j in range(1, 8):
        x, y = (j - 1) * h, (i - 1) * h
        edge = i in (1, 7) or j in (1, 7)
        u[i, j] = x * x - y * y if edge else 0.0
        f[i, j] = 1.0 * h * h
        inside[i, j] = 0.0 if edge else 1.0

flat, fl, il = u.reshape(-1), f.reshape(-1), inside.reshape(-1)
SWEEPS = 3
for _ in range(SWEEPS):
    for first, stop in ((W + 1, (ROWS - 1) * W), (2 * W + 1, (ROWS - 2) * W)):  # red, then black
        k = np.arange(first, stop, 2)
        flat[k] = flat[k] + il[k] * ((((((flat[k - 1] + flat[k + 1]) + flat[k - W]) + flat[k + W]) + fl[k]) * 0.25) - flat[k])

lines = [f"{SWEEPS} sweeps in the grid's storage: yes; per sweep 0 allocations, 2 loops"]
lines += ["".join(f" {v:9.6f}" for v in u[i, 1:8]) for i in range(1, 8)]
text = "\n".join(lines) + "\n"
emit("red_black", text)
