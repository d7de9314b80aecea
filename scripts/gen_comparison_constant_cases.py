#!/usr/bin/python3
"""NumPy's values for tests/run/comparison_constants.cpp: the six comparisons
(< <= > >= == !=) of an array of every integer dtype (and bool) with weak
integer constants (Python ints; 5_c, -1_c in a graph, a C++ integer beside a
tensor) in its range, at its edges, just beyond them, negative and far out,
and of integer and float32 arrays with weak float constants.

    /usr/bin/python3 scripts/gen_comparison_constant_cases.py           # writes tests/run/comparison_constants_cases.inc
    /usr/bin/python3 scripts/gen_comparison_constant_cases.py --check   # fails unless the file is what it writes

NumPy 2 compares an integer array with a Python int by value, whatever its
range (uint8 > -1 is all true, int8 == 1000 all false). NumPy 1.24 does too,
by value-based casting, except where it then computes in float64 (int64 beside
2**63: int64's max < 2**63 is false there); an object array of the same values
gives the exact answer in both, which is the one kept (the script checks that
the two differ only there). Weak floats follow NEP 50 (NumPy 2's rule, NumPy
1.24's "weak" promotion state): beside integers in float64, beside float32 in
float32 (1e40 is inf there).

Each case is one line CASE(T, (values...), GRAPH_CONSTANT, RUN_TIME_VALUE,
(codes...)), checked on tensors: code k of element k has bit j set when
comparison j (in the order above) is true. A graph costs far more to compile,
so each dtype's constants at and beyond its edges (and the far ones) are one
graph, GRAPH(T, (values...), (ROW(op, constant, weight), ...), (codes...)),
summing weight * (x op constant) over its rows, the ops taken in turn; in
DEBUG_GRAPH lines the graph also runs in debug mode (every node alone)."""
import pathlib
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore", RuntimeWarning)  # float32(1e40) overflows to inf, as meant
warnings.simplefilter("ignore", DeprecationWarning)

OPS = [np.less, np.less_equal, np.greater, np.greater_equal, np.equal, np.not_equal]

INTS = [("bool", "bool", np.bool_), ("int8", "std::int8_t", np.int8), ("int16", "std::int16_t", np.int16),
        ("int32", "std::int32_t", np.int32), ("int64", "std::int64_t", np.int64), ("uint8", "std::uint8_t", np.uint8),
        ("uint16", "std::uint16_t", np.uint16), ("uint32", "std::uint32_t", np.uint32),
        ("uint64", "std::uint64_t", np.uint64)]


def values(dt):
    if dt == np.bool_:
        return [False, True]
    i = np.iinfo(dt)
    vs = [int(i.min), int(i.min) + 1, -1, 0, 1, 100, int(i.max) - 1, int(i.max)]
    return sorted({v for v in vs if i.min <= v <= i.max})


def constants(dt):
    if dt == np.bool_:
        return [-1, 0, 1, 2, 1000]
    i = np.iinfo(dt)
    lo, hi = int(i.min), int(i.max)
    cs = [lo - 1, lo, lo + 1, -1, 0, 1, 100, hi - 1, hi, hi + 1, -1000, 1000, -(2**63), 2**64 - 1, 2**63]
    return sorted({c for c in cs if -(2**63) <= c < 2**64})


def graph_literal(c):
    """c as a weak constant of a graph: -(2**63) needs a fold (2**63 is no int64 to negate)."""
    if c == -(2**63):
        return "(-9223372036854775807_c - 1_c)"
    return f"({c}_c)" if c >= 0 else f"(-{-c}_c)"


def cxx_literal(c):
    if c == -(2**63):
        return "(-9223372036854775807LL - 1)"
    if c >= 2**63:
        return f"{c}ULL"
    return f"{c}LL"


def codes(arr, c):
    bits = np.zeros(arr.shape, dtype=np.int64)
    for j, op in enumerate(OPS):
        bits |= op(arr, c).astype(np.int64) << j
    return [int(b) for b in bits]


def int_case(name, cxx, dt, c):
    vs = values(dt)
    exact = codes(np.array(vs, dtype=object), c)  # Python's comparison of the values
    legacy = codes(np.array(vs, dtype=dt), c)  # NumPy 1.24's own
    if exact != legacy:  # only where NumPy 1.24 compares in float64
        assert dt in (np.int64, np.uint64) and (c >= 2**63 or c < 0), (name, c)
    vals = c_values(cxx, vs)
    return f"CASE({cxx}, ({vals}), {graph_literal(c)}, {cxx_literal(c)}, ({', '.join(map(str, exact))}))"


FLOATS = [("std::uint8_t", np.uint8, [0, 1, 254, 255]), ("std::int8_t", np.int8, [-128, -1, 0, 127]),
          ("std::int64_t", np.int64, [-(2**63), 0, 2**53 + 1, 2**63 - 1]),
          ("float", np.float32, [-np.inf, 0.0, 3.4028234663852886e38, np.inf])]
FLOAT_CONSTANTS = [("0.5", 0.5), ("-0.5", -0.5), ("127.5", 127.5), ("255.0", 255.0), ("255.1", 255.1),
                   ("9007199254740992.0", 9007199254740992.0), ("1e40", 1e40)]


def float_case(cxx, dt, vs, text, c):
    weak = codes(np.array(vs, dtype=dt), c)  # NEP 50: the caller set NumPy 1.24's "weak" state
    lit = f"({text}_c)" if not text.startswith("-") else f"(-{text[1:]}_c)"
    vals = c_values(cxx, vs)
    return f"FLOAT_CASE({cxx}, ({vals}), {lit}, {text}, ({', '.join(map(str, weak))}))"


def cxx_value(v, cxx):
    if cxx == "float":
        if np.isinf(v):
            return "-INFINITY" if v < 0 else "INFINITY"
        return f"{float(v).hex()}f".replace("0x1.fffffe00000000p+127f", "0x1.fffffep+127f")
    return cxx_literal(int(v))


def edge_constants(dt):
    if dt == np.bool_:
        return [-1, 2, 1000]
    i = np.iinfo(dt)
    lo, hi = int(i.min), int(i.max)
    cs = [lo - 1, lo, hi, hi + 1, -1, -1000, 1000, -(2**63), 2**63, 2**64 - 1]
    return sorted({c for c in cs if -(2**63) <= c < 2**64})


def graph(macro, cxx, dt, vs, cs, first_op, lit):
    """One graph: sum over rows r of 2**r * (x op_r c_r), op_r the ops in turn from first_op."""
    total = np.zeros(len(vs), dtype=np.int64)
    rows = []
    for r, c in enumerate(cs):
        op = (first_op + r) % len(OPS)
        arr = np.array(vs, dtype=object) if dt is not None else None
        res = OPS[op](arr, c[1]) if dt is not None else c[2]
        total += np.array([int(bool(b)) for b in res], dtype=np.int64) << r
        rows.append(f"ROW({op}, {c[0]}, {1 << r}_c)")
    vals = c_values(cxx, vs)
    return f"{macro}({cxx}, ({vals}), ({', '.join(rows)}), ({', '.join(str(int(t)) for t in total)}))"


def c_values(cxx, vs):
    if cxx == "bool":
        return ", ".join("true" if v else "false" for v in vs)
    return ", ".join(cxx_value(v, cxx) for v in vs)


DEBUG = ("uint8", "int64", "uint64")


def text():
    lines = ["// Generated by scripts/gen_comparison_constant_cases.py from NumPy " + np.__version__ + ": do not edit."]
    for name, cxx, dt in INTS:
        lines += [int_case(name, cxx, dt, c) for c in constants(dt)]
    if int(np.__version__.split(".")[0]) < 2:
        np._set_promotion_state("weak")
    for cxx, dt, vs in FLOATS:
        lines += [float_case(cxx, dt, vs, t, c) for t, c in FLOAT_CONSTANTS]
    np._set_promotion_state("legacy") if int(np.__version__.split(".")[0]) < 2 else None
    for k, (name, cxx, dt) in enumerate(INTS):
        cs = [(graph_literal(c), c) for c in edge_constants(dt)]
        lines.append(graph("DEBUG_GRAPH" if name in DEBUG else "GRAPH", cxx, dt, values(dt), cs, k, None))
    if int(np.__version__.split(".")[0]) < 2:
        np._set_promotion_state("weak")
    for k, (cxx, dt, vs) in enumerate(FLOATS):
        total = np.zeros(len(vs), dtype=np.int64)
        rows = []
        for r, (t, c) in enumerate(FLOAT_CONSTANTS):
            op = (k + r) % len(OPS)
            total += OPS[op](np.array(vs, dtype=dt), c).astype(np.int64) << r
            lit = f"({t}_c)" if not t.startswith("-") else f"(-{t[1:]}_c)"
            rows.append(f"ROW({op}, {lit}, {1 << r}_c)")
        lines.append(f"GRAPH({cxx}, ({c_values(cxx, vs)}), ({', '.join(rows)}), ({', '.join(str(int(t)) for t in total)}))")
    if int(np.__version__.split(".")[0]) < 2:
        np._set_promotion_state("legacy")
    return "\n".join(lines) + "\n"


path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "run" / "comparison_constants_cases.inc"
if "--check" in sys.argv[1:]:
    sys.exit(0 if path.read_text() == text() else f"{path} is not what the script writes")
path.write_text(text())
