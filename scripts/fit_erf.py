#!/usr/bin/env python3
"""Fits the coefficients of include/inplace/ops/detail/gelu.hpp (float batches).

gelu(x) = x * Phi(x), Phi the standard normal CDF. With a = |x| and
q = Phi(-a) = erfc(a / sqrt 2) / 2 (so gelu = x q for x <= 0 and x - x q for
x > 0: no cancellation on either side), q is written as

    q = exp(-a^2 / 2) * S(a),    S(a) = P(a) / Q(a)  on [0, A],

S smooth and slowly varying (1/2 at 0, about 1 / (a sqrt(2 pi)) far out), and
exp(-a^2 / 2) as 2^-n e^r with our own polynomial e^r on |r| <= ln2 / 2 + 0.03.
Both are fitted for the least maximum relative error: linear least squares
reweighted towards the largest errors each round (Lawson's iteration); the
rational form linearised as P - S Q = 0 with Q(0) = 1 and reweighted by 1 / Q
(Loeb's, or Sanathanan and Koerner's, iteration). Reference values: Python's
math.erfc and math.exp in double precision, about 1e-14 relative here (a
million times finer than float's 6e-8). The coefficients are then rounded to
float one at a time, the others refitted around each rounded one, and the
error re-measured with the float values.
Run: /usr/bin/python3 scripts/fit_erf.py (NumPy only); prints the constants.
"""
import math

import numpy as np

A = 14.5  # |x| beyond 14.4: gelu(x) is x for x > 0 and rounds to -0 for x < 0
P_DEG, Q_DEG = 4, 5  # S = P / Q
EXP_DEG = 6  # e^(s/2) = 1 + s/2 + d2 s^2 + ... + d6 s^6 on |s| <= ln2 + 0.06


def lawson(m, rhs, scale, fixed, rounds=60):
    """Coefficients c minimising max |(m c - rhs) / scale|; fixed: {index: value}."""
    free = [j for j in range(m.shape[1]) if j not in fixed]
    b = rhs - sum(m[:, j] * v for j, v in fixed.items())
    w = np.ones(len(rhs))
    for _ in range(rounds):
        row = w / scale
        c_free, *_ = np.linalg.lstsq(m[:, free] * row[:, None], b * row, rcond=None)
        err = (m[:, free] @ c_free - b) / scale
        w = w * np.abs(err) ** 0.3 + 1e-300
        w /= w.max()
    c = np.zeros(m.shape[1])
    c[free] = c_free
    for j, v in fixed.items():
        c[j] = v
    return c


def rounded_one_by_one(solve, n):
    """Rounds coefficient 0, refits the rest, rounds coefficient 1, ..."""
    fixed = {}
    for j in range(n):
        fixed[j] = float(np.float32(solve(fixed)[j]))
    return np.array([fixed[j] for j in range(n)])


def fit_s():
    a = np.linspace(0.0, A, 40001)
    s = np.array([0.5 * math.erfc(v / math.sqrt(2.0)) * math.exp(v * v / 2.0) for v in a])
    poly = np.polynomial.polynomial.polyval
    m = np.hstack([np.vander(a, P_DEG + 1, increasing=True), -s[:, None] * np.vander(a, Q_DEG + 1, increasing=True)[:, 1:]])

    def solve(fixed):
        qv = np.ones_like(a)
        for _ in range(8):  # Loeb: the relative error of P / Q is (P - S Q) / (S Q)
            c = lawson(m, s, s * qv, fixed, rounds=25)
            qv = poly(a, np.concatenate([[1.0], c[P_DEG + 1:]]))
        return c

    def err(c):
        return np.abs(poly(a, c[: P_DEG + 1]) / poly(a, np.concatenate([[1.0], c[P_DEG + 1:]])) / s - 1).max()

    exact = solve({})
    c = rounded_one_by_one(solve, P_DEG + Q_DEG + 1)
    return c[: P_DEG + 1], np.concatenate([[1.0], c[P_DEG + 1:]]), err(exact), err(c)


def fit_exp():
    # The kernel works with s = 2r = 2n ln2 - a^2 (its a^2 is exact, a^2 / 2
    # would cost a product): e^r = e^(s/2) = 1 + s/2 + d2 s^2 + ... + d6 s^6.
    # n is rounded from a^2's high part alone, so s also carries the low part
    # (a - ah)(a + ah), |.| <= 2^-9 * 2 * 14.4 (ah: a rounded to a multiple of 2^-8).
    h = math.log(2.0) + 2.0**-9 * 2 * 14.4
    x = np.linspace(-h * 1.01, h * 1.01, 20001)
    e = np.exp(x / 2.0)
    v = np.vander(x, EXP_DEG + 1, increasing=True)[:, 2:]  # 1 + s/2 exactly

    def solve(fixed):
        return lawson(v, e - 1.0 - x / 2.0, e, fixed)

    def err(c):
        return np.abs((1.0 + x / 2.0 + v @ c) / e - 1.0).max()

    exact = solve({})
    c = rounded_one_by_one(solve, EXP_DEG - 1)
    return c, err(exact), err(c)


def main():
    p, q, e, e32 = fit_s()
    print(f"S = P / Q on [0, {A}]: max relative error {e:.3g}; with the float coefficients {e32:.3g}")
    print("P (a^0 first):", ", ".join(f"{x:.9g}f" for x in p))
    print("Q (a^0 first):", ", ".join(f"{x:.9g}f" for x in q))
    c, e, e32 = fit_exp()
    print(f"e^(s/2) on |s| <= ln2 + 0.06: max relative error {e:.3g}; with the float coefficients {e32:.3g}")
    print("d2..d6:", ", ".join(f"{x:.9g}f" for x in c))


if __name__ == "__main__":
    main()
