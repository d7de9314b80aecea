#!/usr/bin/env python3
"""Writes tests/run/numpy_elementwise.cpp: every elementwise op of the vocabulary
(comparisons, logical ops, pow, square, clip, log1p, expm1, sin, cos, floor,
ceil, round, sign, isnan, isfinite, cast) on graphs and on tensors, and its
*_inplace form where it has one, against NumPy's values and dtypes, on inputs
with NaN, infinities, -0.0, rounding ties and integers.

    /usr/bin/python3 scripts/gen_numpy_elementwise.py          rewrite the test
    /usr/bin/python3 scripts/gen_numpy_elementwise.py --check  fail if it differs"""
import math
import pathlib
import sys

import numpy as np

root = pathlib.Path(__file__).resolve().parent.parent
out_path = root / "tests/run/numpy_elementwise.cpp"

nan, inf = float("nan"), float("inf")
# Floating inputs: ties for round, signed zeros, NaN, infinities, small and large values.
F = [-2.5, -1.5, -0.5, -0.0, 0.0, 0.5, 1.5, 2.5, 3.7, -3.7, nan, inf, -inf, 1e-7, 0.75, -20.25]
G = [1.0, -1.5, 2.0, 0.0, -0.0, 0.5, 1.5, -2.5, 3.7, 2.0, 1.0, inf, 2.0, -1e-7, nan, 3.0]
P = [2.0, 0.5, 3.0, -1.0, 0.0, 2.0, -2.0, 1.5, 0.25, 2.0, 1.0, -1.0, 3.0, 2.0, 0.0, 1.0]  # exponents
L = [-1.0, -1.0, 0.0, -1.0, -1.0, 1.0, 0.0, -1.0, 0.0, -5.0, 0.0, 0.0, 0.0, 0.0, nan, -1.0]  # clip bounds
H = [1.0, 2.0, 0.5, 1.0, 1.0, 2.0, 1.0, 2.0, 1.0, 5.0, 1.0, 9.0, 1.0, 1.0, 1.0, 1.0]
I = [-7, -2, -1, 0, 1, 2, 3, 7, 100, -100, 5, 11]
J = [2, 3, 0, 5, 1, 1, 2, 0, 2, 3, 3, 2]  # non-negative: NumPy refuses negative integer powers
U8 = [0, 1, 2, 200, 255, 17, 128, 16, 3, 250, 99, 7]
# Casts: truncation toward zero, values within every target's range.
C = [-2.7, -1.5, -0.5, -0.0, 0.0, 0.4, 1.5, 2.9, 100.99, -100.99, 3.0, 126.5]

CPP = {"float32": "float", "float64": "double", "int32": "std::int32_t", "int8": "std::int8_t",
       "uint8": "std::uint8_t", "bool": "bool", "int64": "std::int64_t"}
NP = {v: getattr(np, k if k != "bool" else "bool_") for k, v in CPP.items()}


def lit(v, dtype):
    if dtype == "bool":
        return "true" if v else "false"
    if dtype.startswith("float"):
        f = "f" if dtype == "float32" else ""
        if math.isnan(v):
            return f"nan{f}_v"
        if math.isinf(v):
            return f"inf{f}_v" if v > 0 else f"-inf{f}_v"
        s = repr(float(v))
        return s if dtype == "float64" else s + "f"
    return str(int(v))


def arr(values, dtype):
    return "{" + ", ".join(lit(v, dtype) for v in values) + "}"


# (label, C++ lambda body over operands a, b, c; its *_inplace body or None;
#  NumPy function; operand dtypes; operand values)
cases = []


def case(label, cpp, cpp_inplace, fn, dtypes, values):
    cases.append((label, cpp, cpp_inplace, fn, dtypes, values))


for name, op in [("less", "<"), ("less_equal", "<="), ("greater", ">"), ("greater_equal", ">="), ("equal", "=="),
                 ("not_equal", "!=")]:
    fn = getattr(np, name)
    case(f"{name} double", f"ip::{name}(a, b)", None, fn, ["float64", "float64"], [F, G])
    case(f"a {op} b float", f"a {op} b", None, fn, ["float32", "float32"], [F, G])
    case(f"a {op} b int32 float", f"a {op} b", None, fn, ["int32", "float32"], [I, [float(v) + 0.5 * (k % 2) for k, v in enumerate(J)]])
    case(f"{name} int8 uint8", f"ip::{name}(a, b)", None, fn, ["int8", "uint8"], [[v % 100 for v in I], U8])
for name in ["logical_and", "logical_or"]:
    fn = getattr(np, name)
    case(f"{name} double", f"ip::{name}(a, b)", None, fn, ["float64", "float64"], [F, G])
    case(f"{name} int32 bool", f"ip::{name}(a, b)", None, fn, ["int32", "bool"], [I, [bool(v % 2) for v in J]])
case("logical_not double", "ip::logical_not(a)", None, np.logical_not, ["float64"], [F])
case("logical_not int32", "ip::logical_not(a)", None, np.logical_not, ["int32"], [I])
case("pow double", "ip::pow(a, b)", "ip::pow_inplace(a, b)", np.power, ["float64", "float64"], [[abs(v) for v in F], P])
case("pow float", "ip::pow(a, b)", "ip::pow_inplace(a, b)", np.power, ["float32", "float32"], [F, [float(round(v)) for v in P]])
case("pow int32", "ip::pow(a, b)", "ip::pow_inplace(a, b)", np.power, ["int32", "int32"], [I, J])
case("square double", "ip::square(a)", "ip::square_inplace(a)", np.square, ["float64"], [F])
case("square float", "ip::square(a)", "ip::square_inplace(a)", np.square, ["float32"], [F])
case("square int8 wraps", "ip::square(a)", "ip::square_inplace(a)", np.square, ["int8"], [[v % 100 for v in I]])
case("square uint8 wraps", "ip::square(a)", "ip::square_inplace(a)", np.square, ["uint8"], [U8])
case("clip double", "ip::clip(a, b, c)", "ip::clip_inplace(a, b, c)", np.clip, ["float64"] * 3, [F, L, H])
case("clip float", "ip::clip(a, b, c)", "ip::clip_inplace(a, b, c)", np.clip, ["float32"] * 3, [F, L, H])
case("clip int32", "ip::clip(a, b, c)", "ip::clip_inplace(a, b, c)", np.clip, ["int32"] * 3,
     [I, [-3] * len(I), [4] * len(I)])
for name in ["log1p", "expm1", "sin", "cos", "floor", "ceil", "round", "sign"]:
    fn = {"round": np.round}.get(name, getattr(np, name))
    for dt in ["float64", "float32"]:
        vals = [v for v in F] if name != "log1p" else [abs(v) if not math.isinf(v) else v for v in F]
        case(f"{name} {'double' if dt == 'float64' else 'float'}", f"ip::{name}(a)", f"ip::{name}_inplace(a)", fn, [dt], [vals])
case("sign int32", "ip::sign(a)", "ip::sign_inplace(a)", np.sign, ["int32"], [I])
case("sign uint8", "ip::sign(a)", "ip::sign_inplace(a)", np.sign, ["uint8"], [U8])
case("round int32", "ip::round(a)", "ip::round_inplace(a)", np.round, ["int32"], [I])
case("floor int32", "ip::floor(a)", None, np.floor, ["int32"], [I])
case("sin int32", "ip::sin(a)", None, np.sin, ["int32"], [I])
for name in ["isnan", "isfinite"]:
    fn = getattr(np, name)
    case(f"{name} double", f"ip::{name}(a)", None, fn, ["float64"], [F])
    case(f"{name} float", f"ip::{name}(a)", None, fn, ["float32"], [F])
    case(f"{name} int32", f"ip::{name}(a)", None, fn, ["int32"], [I])
for dt in ["int32", "int8", "uint8", "bool", "float32", "int64"]:
    case(f"cast<{CPP[dt]}> double", f"ip::cast<{CPP[dt]}>(a)", None,
         (lambda d: lambda a: a.astype(NP[CPP[d]]))(dt), ["float64"], [C if dt != "uint8" else [abs(v) for v in C]])
case("cast<double> int32", "ip::cast<double>(a)", None, lambda a: a.astype(np.float64), ["int32"], [I])
case("cast<std::uint8_t> int32 wraps", "ip::cast<std::uint8_t>(a)", None, lambda a: a.astype(np.uint8), ["int32"], [I])


def emit():
    lines = [
        "// GENERATED by scripts/gen_numpy_elementwise.py (NumPy %s): do not edit; regenerate with" % np.__version__,
        "//   /usr/bin/python3 scripts/gen_numpy_elementwise.py",
        "// Each elementwise op of the vocabulary on graphs and on tensors, and its *_inplace",
        "// form on both where it has one, against NumPy's values and dtypes.",
        '#include "numpy_elementwise.hpp"',
        "",
        "namespace {",
        "constexpr double nan_v = std::numeric_limits<double>::quiet_NaN();",
        "constexpr double inf_v = std::numeric_limits<double>::infinity();",
        "constexpr float nanf_v = std::numeric_limits<float>::quiet_NaN();",
        "constexpr float inff_v = std::numeric_limits<float>::infinity();",
        "}  // namespace",
        "",
    ]
    for label, cpp, cpp_inplace, fn, dtypes, values in cases:
        n = len(values)
        operands = [np.array(v, dtype=NP[CPP[d]]) for v, d in zip(values, dtypes)]
        with np.errstate(all="ignore"):
            want = fn(*operands)
        rdt = str(want.dtype)
        params = ", ".join(f"auto&& {p}" for p in "abc"[:n])
        lam = lambda body: f"[]({params}) {{ return {body}; }}"
        inplace = lam(cpp_inplace) if cpp_inplace else "nullptr"
        lines.append(f'TEST_CASE("{label}: {cpp}", "[numpy][elementwise]") {{')
        lines.append(f"  ne::check<{', '.join(CPP[d] for d in dtypes)}>(")
        lines.append(f"      {lam(cpp)}, {inplace},")
        lines.append(f"      std::vector<{CPP[rdt]}>{arr(want.tolist(), rdt)},")
        lines.append("      " + ", ".join(f"std::vector<{CPP[d]}>{arr(o.tolist(), d)}" for o, d in zip(operands, dtypes)) + ");")
        lines.append("}")
        lines.append("")
    return "\n".join(lines)


text = emit()
if "--check" in sys.argv:
    if out_path.read_text() != text:
        print(f"{out_path} is not what scripts/gen_numpy_elementwise.py writes")
        sys.exit(1)
else:
    out_path.write_text(text)
