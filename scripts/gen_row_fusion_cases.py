#!/usr/bin/python3
"""NumPy's values for tests/run/row_fusion.cpp: row ops (softmax, reductions
over the last axis) with elementwise producers and consumers, which a call
runs row block by row block, and reductions over every axis of an expression,
reduced block by block as it is computed (run/detail/program.hpp: row chains).

    /usr/bin/python3 scripts/gen_row_fusion_cases.py           # writes tests/run/row_fusion_cases.inc
    /usr/bin/python3 scripts/gen_row_fusion_cases.py --check   # fails unless the file is what it writes

Inputs (float32): X (E...) with X.flat[i] = (i * 7 % 11 - 5) * 0.25, Y likewise
with (i * 5 % 9 - 4) * 0.5. Each case is VALUES(name, values...), computed in
float64 from the float32 inputs (the test allows float rounding)."""
import pathlib
import sys

import numpy as np


def x_of(*shape):
    return ((np.arange(int(np.prod(shape))) * 7 % 11 - 5) * 0.25).astype(np.float32).astype(np.float64).reshape(shape)


def y_of(*shape):
    return ((np.arange(int(np.prod(shape))) * 5 % 9 - 4) * 0.5).astype(np.float32).astype(np.float64).reshape(shape)


def softmax(a):
    e = np.exp(a - a.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def cases():
    X = x_of(6, 40)
    yield "issue", (softmax(X * 0.5 + 1) * 2 - 1).sum(axis=1)
    yield "softmax_of_expr", softmax(X * 0.5 + 1)
    yield "expr_of_softmax", softmax(X) * 2 - 1
    X3 = x_of(4, 3, 5)
    yield "logsumexp3", np.exp(X3 - X3.max(axis=-1, keepdims=True)).sum(axis=-1)
    Y = y_of(1, 40)
    yield "mean_keep", (X * 2 + Y).mean(axis=1, keepdims=True)
    yield "max_rows", (X * Y).max(axis=-1)
    yield "consumer_reads_x", softmax(X * 0.5) * X
    S = x_of(7, 7)
    yield "transposed", (S + S.T).sum(axis=1)
    L = x_of(3, 10000)
    yield "long_rows", (L * 2 - 1).sum(axis=1)
    yield "dynamic", (softmax(X * 0.5 + 1) * 2 - 1).sum(axis=1)
    yield "prod_rows", (1 + X * 0.1).prod(axis=1)
    yield "softmax_transposed", softmax(S + S.T)
    yield "softmax_twice", softmax(softmax(X) * 2 + 1)
    yield "any_rows", ((X * 4 - 1) > 0).any(axis=1)
    yield "broadcast_consumer", softmax(x_of(1, 40)) * y_of(6, 40)
    # reductions over every axis
    V = x_of(100003)
    yield "total_logsumexp", [np.exp(V - V.max()).sum()]
    yield "total_mean_rows", [(X * 2 + Y).mean()]
    yield "total_max3", [np.exp(X3 * 0.5).max()]
    yield "total_long_rows", [(L * 2 - 1).sum()]
    yield "total_min_vector", [(1 - V * 2).min()]
    yield "total_prod", [(1 + X * 0.01).prod()]
    yield "total_keep", (X * X).sum(keepdims=True)


def text():
    out = ["// Written by scripts/gen_row_fusion_cases.py (NumPy's values); do not edit."]
    for name, v in cases():
        vals = ", ".join(repr(float(f)) for f in np.asarray(v, dtype=np.float64).ravel())
        out.append(f"VALUES({name}, {vals})")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "run" / "row_fusion_cases.inc"
    if "--check" in sys.argv[1:]:
        sys.exit(0 if path.read_text() == text() else "tests/run/row_fusion_cases.inc is stale: rerun the script")
    path.write_text(text())
