#!/usr/bin/python3
"""NumPy's values for tests/run/peer_elementwise.cpp: the elementwise
vocabulary at the edges the peers' test suites probe (JAX's
tests/lax_numpy_test.py and lax_test.py, PyTorch's test/test_unary_ufuncs.py
and test_binary_ufuncs.py, PyTensor's tests/tensor/test_math.py, Eigen's
test/array_cwise.cpp): round half to even (-0.5, 2.5, values past 2^52 and
2^23), sign of -0.0, NaN and unsigned integers, floor and ceil of -0.0 and of
integers, log1p and expm1 of tiny values, sin and cos of large arguments, pow
of zeros, infinities and NaN and of integers that wrap, clip with NaN and lo >
hi, the logical ops and casts on NaN and -0.0, casts in range.

    /usr/bin/python3 scripts/gen_peer_elementwise_cases.py           # writes tests/run/peer_elementwise_cases.inc
    /usr/bin/python3 scripts/gen_peer_elementwise_cases.py --check   # fails unless the file is what it writes

Each case is one line CASE(name, op, (input dtypes...), result dtype, tolerance,
{operand 0...}, {operand 1...}, ..., {result...}), the op a lambda. Every operand is cycled to 19
elements (two SIMD batches of 8 floats and a tail: each value runs in a batch
and in the scalar tail). The tolerance is in units of the result's epsilon,
relative (0: exact, the sign of a zero included)."""
import pathlib
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore", RuntimeWarning)  # pow(0, -1), log1p(-2), sin(inf) ...

CPP = {np.float32: "float", np.float64: "double", np.int8: "std::int8_t", np.uint8: "std::uint8_t",
       np.int16: "std::int16_t", np.uint16: "std::uint16_t", np.int32: "std::int32_t", np.uint32: "std::uint32_t",
       np.int64: "std::int64_t", np.bool_: "bool"}
N = 19
inf, nan = np.inf, np.nan

ROUNDING_F64 = [-0.5, 0.5, 1.5, 2.5, -2.5, -1.5, 3.5, -0.4, 0.49999999999999994, 4503599627370497.0,
                4503599627370495.5, -4503599627370495.5, 1e300, -0.0, 0.0, nan, inf, -inf, -1e-300]
ROUNDING_F32 = [-0.5, 0.5, 1.5, 2.5, -2.5, 4194304.5, 8388607.5, -8388607.5, 8388609.0, 16777215.0, 1e30, -0.0,
                0.49999997, -1e-30, nan, inf, -inf, 3.5, -3.5]
TINY = [1e-10, -1e-10, 1e-30, -1e-30, 0.0, -0.0, 1e-5, -1e-5, 0.5, 100.0, -0.999, nan, inf]
LARGE_F64 = [1e6, 1e10, 1e22, 1e300, 3.141592653589793, -0.0, 0.0, 1e5 + 0.5, -1e15, 2.0 ** 60, 123456789.0, inf,
             nan, 6.283185307179586, 1.5707963267948966, -1e22]
LARGE_F32 = [1e6, 1e10, 1e22, 3e38, 3.1415927, -0.0, 0.0, 100000.5, -1e15, 2.0 ** 60, 123456790.0, inf, nan,
             8192.0, 1.5707964, -1e22, 71.0, 105414.0]

# (name, op in C++ on x (and y, z), NumPy's function, [(input dtypes, operands, tolerance)])
UNARY = [
    ("round", "ip::round(x)", np.round, [((np.float64,), [ROUNDING_F64], 0), ((np.float32,), [ROUNDING_F32], 0),
                                           ((np.int32,), [[-3, 7, 0, -2147483648, 2147483647]], 0),
                                           ((np.uint8,), [[0, 255, 128]], 0)]),
    ("sign", "ip::sign(x)", np.sign, [((np.float64,), [[-0.0, nan, 0.0, -2.5, inf, -inf, 1e-300, -5e-324, 3.0]], 0),
                                        ((np.float32,), [[-0.0, nan, 0.0, -2.5, inf, -inf, 1e-40, -1e-45]], 0),
                                        ((np.int8,), [[-128, -1, 0, 1, 127]], 0),
                                        ((np.uint8,), [[0, 1, 255]], 0), ((np.uint32,), [[0, 1, 4294967295]], 0)]),
    ("floor", "ip::floor(x)", np.floor, [((np.float64,), [[-0.0, -0.5, 0.5, -1e-300, 2.5, -2.5, nan, inf, -inf,
                                                             4503599627370495.5, -4503599627370495.5]], 0),
                                           ((np.float32,), [[-0.0, -0.5, 0.5, -1e-30, 2.5, -2.5, nan, inf,
                                                             8388607.5, -8388607.5, 1e30]], 0),
                                           ((np.int32,), [[-3, 7, 0, -2147483648, 2147483647]], 0)]),
    ("ceil", "ip::ceil(x)", np.ceil, [((np.float64,), [[-0.0, -0.5, 0.5, -1e-300, 2.5, -2.5, nan, inf, -inf,
                                                          4503599627370495.5, -4503599627370495.5]], 0),
                                        ((np.float32,), [[-0.0, -0.5, 0.5, -1e-30, 2.5, -2.5, nan, inf,
                                                          8388607.5, -8388607.5, 1e30]], 0),
                                        ((np.int64,), [[-3, 7, 0, 4503599627370496]], 0)]),
    ("log1p", "ip::log1p(x)", np.log1p, [((np.float64,), [TINY + [-1.0, -2.0, 1e300]], 4),
                                           ((np.float32,), [TINY + [-1.0, -2.0, 3e38]], 4)]),
    ("expm1", "ip::expm1(x)", np.expm1, [((np.float64,), [TINY + [700.0, 710.0, -inf, -50.0]], 4),
                                           ((np.float32,), [TINY + [88.0, 89.0, -inf, -20.0]], 4)]),
    # sin(pi) in double on SIMD batches is 8 ulps from libm's (an absolute error of 2e-31)
    ("sin", "ip::sin(x)", np.sin, [((np.float64,), [LARGE_F64], 8), ((np.float32,), [LARGE_F32], 4)]),
    ("cos", "ip::cos(x)", np.cos, [((np.float64,), [LARGE_F64], 8), ((np.float32,), [LARGE_F32], 4)]),
    ("isfinite", "ip::isfinite(x)", np.isfinite, [((np.int32,), [[1, -2147483648, 0]], 0),
                                                    ((np.uint8,), [[0, 255]], 0),
                                                    ((np.float32,), [[1.0, inf, -inf, nan, -0.0, 3e38]], 0)]),
    ("isnan", "ip::isnan(x)", np.isnan, [((np.int64,), [[1, -5, 0]], 0),
                                           ((np.float64,), [[1.0, inf, -inf, nan, -0.0, 5e-324]], 0)]),
    ("logical_not", "ip::logical_not(x)", np.logical_not, [((np.float64,), [[nan, 0.0, -0.0, 5e-324, -inf]], 0),
                                                             ((np.int8,), [[0, -128, 1]], 0)]),
    ("square", "ip::square(x)", np.square, [((np.int8,), [[16, -12, 127, -128, 11, 3]], 0),
                                              ((np.uint8,), [[16, 255, 17, 3]], 0),
                                              ((np.float32,), [[-0.0, 2e19, nan, -3.0, 1e-30]], 0)]),
    # astype: in range (float to int truncates toward zero), int to float
    # (rounding to nearest even), bool of NaN and -0.0, integers wrapping
    ("cast_bool", "ip::cast<bool>(x)", lambda x: x.astype(np.bool_),
     [((np.float64,), [[nan, 0.0, -0.0, 0.1, inf, -inf, 5e-324]], 0), ((np.float32,), [[nan, -0.0, 1e-45]], 0),
      ((np.int32,), [[0, 2, -1]], 0)]),
    ("cast_int32", "ip::cast<std::int32_t>(x)", lambda x: x.astype(np.int32),
     [((np.float64,), [[-2.7, 2.7, -0.5, 0.5, -0.0, 2147483647.0, -2147483648.0, 1e9 + 0.9, -1e9 - 0.9,
                        2147483647.9, -2147483648.9]], 0),
      ((np.float32,), [[-2.7, 2.7, 16777217.0, -0.99, 2147483520.0]], 0),
      ((np.int64,), [[4294967297, -4294967297, 2147483648, 7]], 0), ((np.bool_,), [[True, False]], 0)]),
    ("cast_uint8", "ip::cast<std::uint8_t>(x)", lambda x: x.astype(np.uint8),
     [((np.float32,), [[255.9, 0.5, 0.0, 128.5, -0.9]], 0), ((np.int32,), [[-1, 256, 300, -129]], 0),
      ((np.int8,), [[-1, -128, 127]], 0)]),
    ("cast_int8", "ip::cast<std::int8_t>(x)", lambda x: x.astype(np.int8),
     [((np.uint8,), [[255, 128, 127]], 0), ((np.int32,), [[300, -129, 128]], 0), ((np.float64,), [[-128.9, 127.9, -0.5]], 0)]),
    ("cast_float", "ip::cast<float>(x)", lambda x: x.astype(np.float32),
     [((np.int32,), [[16777217, -16777219, 2147483647]], 0), ((np.int64,), [[9007199254740993, -(2 ** 62) - 1]], 0),
      ((np.float64,), [[0.1, 1.00000005960464477539, 3.4028235677973366e38, 1e-46, -0.0, nan, inf, 1e-300]], 0),
      ((np.bool_,), [[True, False]], 0), ((np.uint32,), [[4294967295, 16777217]], 0)]),
    ("cast_double", "ip::cast<double>(x)", lambda x: x.astype(np.float64),
     [((np.int64,), [[9007199254740993, -9223372036854775807 - 1, 9223372036854775807]], 0),
      ((np.uint8,), [[255, 0]], 0), ((np.float32,), [[0.1, nan, -0.0, 3e38]], 0)]),
]

POW_F = [(0.0, -1.0), (-0.0, -1.0), (-0.0, -2.0), (nan, 0.0), (1.0, nan), (-8.0, 1 / 3), (-2.0, 3.0), (0.0, 0.0),
         (inf, -1.0), (-inf, 3.0), (-inf, 2.0), (2.0, 1024.0), (-1.0, inf), (0.5, -inf), (0.0, inf), (-0.0, 3.0),
         (-1.0, -inf), (2.0, -1075.0), (-2.0, 0.5)]
POW_F32 = [(a, b) for a, b in POW_F if b not in (1024.0, -1075.0)] + [(2.0, 128.0), (2.0, -150.0)]
POW_I8 = [(3, 5), (2, 7), (-2, 7), (-2, 8), (0, 0), (-128, 2), (-1, 127), (127, 1), (0, 3), (5, 0), (-3, 3)]
POW_U8 = [(3, 5), (2, 8), (255, 2), (0, 0), (16, 2), (1, 255), (7, 3)]
# (pow(2, 30) once squared 65536 after its last bit, a signed overflow; results
# beyond int32 wrap, as NumPy's)
POW_I32 = [(3, 0), (0, 0), (-1, 7), (-1, 8), (0, 5), (-3, 3), (7, 1), (-7, 5), (12, 6), (2, 15), (-2, 13),
           (2, 30), (10, 9), (46340, 2), (-2, 31), (3, 40), (-3, 41), (2, 32), (65536, 2)]
POW_I64 = [(2, 62), (-2, 63), (3, 39), (3, 41), (10, 18), (-7, 23), (2, 64)]


def cols(pairs):
    return [[p[0] for p in pairs], [p[1] for p in pairs]]


BINARY = [
    ("pow", "ip::pow(x, y)", np.power, [((np.float64, np.float64), cols(POW_F), 0),
                                          ((np.float32, np.float32), cols(POW_F32), 0),
                                          ((np.int8, np.int8), cols(POW_I8), 0),
                                          ((np.uint8, np.uint8), cols(POW_U8), 0),
                                          ((np.int32, np.int32), cols(POW_I32), 0),
                                          ((np.int64, np.int64), cols(POW_I64), 0),
                                          ((np.int8, np.uint8), [[-2, 3, 2, -1], [7, 4, 9, 255]], 0),
                                          ((np.uint8, np.float32), [[0, 2, 3, 255], [-1.0, 0.5, -2.0, 0.0]], 0)]),
    ("logical_and", "ip::logical_and(x, y)", np.logical_and,
     [((np.float64, np.float64), [[nan, nan, 0.0, -0.0, 1.0, 5e-324], [1.0, 0.0, nan, 2.0, -0.0, 5e-324]], 0),
      ((np.float32, np.int8), [[nan, -0.0, 0.5], [1, 1, 0]], 0)]),
    ("logical_or", "ip::logical_or(x, y)", np.logical_or,
     [((np.float64, np.float64), [[nan, 0.0, -0.0, 0.0], [0.0, -0.0, 0.0, 5e-324]], 0),
      ((np.uint8, np.float32), [[0, 0, 255], [-0.0, nan, 0.0]], 0)]),
    ("minimum", "ip::min(x, y)", np.minimum,
     [((np.float64, np.float64), [[nan, 1.0, -0.0, inf, -inf], [1.0, nan, 0.0, nan, 2.0]], 0),
      ((np.int8, np.uint8), [[-1, 127, -128], [255, 128, 0]], 0)]),
    ("maximum", "ip::max(x, y)", np.maximum,
     [((np.float32, np.float32), [[nan, 1.0, inf, -inf], [1.0, nan, nan, 2.0]], 0),
      ((np.int32, np.uint32), [[-1, 5, -2147483648], [4294967295, 0, 1]], 0)]),
]

TERNARY = [
    ("clip", "ip::clip(x, y, z)", np.clip,
     [((np.float64, np.float64, np.float64),
       [[nan, 0.5, 0.5, 0.5, 5.0, -5.0, -0.0, 2.0, inf, -inf], [0.0, nan, 0.0, 3.0, 0.0, 0.0, 0.0, -inf, 0.0, 0.0],
        [1.0, 1.0, nan, 1.0, 1.0, 1.0, 1.0, inf, 1.0, 1.0]], 0),
      ((np.float32, np.float32, np.float32), [[nan, 0.5, 2.0, 0.5], [0.0, 1.0, 3.0, nan], [1.0, 0.0, 1.0, 1.0]], 0),
      ((np.int8, np.int8, np.int8), [[-128, 127, 0, 5], [-5, -5, 3, 3], [5, 5, 1, 1]], 0),
      ((np.uint8, np.int8, np.uint8), [[0, 255, 100, 7], [-1, 0, 50, 10], [200, 254, 60, 5]], 0),
      ((np.int32, np.float32, np.float32), [[-3, 0, 3, 2], [0.5, 0.5, 0.5, nan], [2.5, 2.5, 2.5, 2.5]], 0)]),
    ("where", "ip::where(x, y, z)", np.where,
     [((np.float64, np.int8, np.uint8), [[nan, 0.0, -0.0, 1.0], [-1, -2, -3, -4], [255, 254, 253, 252]], 0),
      ((np.int32, np.bool_, np.float32), [[0, 1, -1, 0], [True, False, True, False], [0.5, 1.5, 2.5, nan]], 0),
      ((np.bool_, np.int64, np.float64), [[True, False, True], [9007199254740993, 1, -1], [0.5, 0.25, 0.0]], 0)]),
]


def literal(dtype, v):
    if dtype == np.bool_:
        return "1" if v else "0"
    if np.issubdtype(dtype, np.integer):
        return str(int(v)) if int(v) > -2 ** 63 else "(-9223372036854775807 - 1)"
    v = float(v)
    if np.isnan(v):
        return "NAN"
    if np.isinf(v):
        return "INFINITY" if v > 0 else "-INFINITY"
    if v == 0:
        return "-0.0" if np.signbit(v) else "0.0"
    return v.hex()


def lines():
    out = ["// Generated by scripts/gen_peer_elementwise_cases.py from NumPy " + np.__version__ + ": do not edit."]
    for name, cpp, fn, variants in UNARY + BINARY + TERNARY:
        for dtypes, operands, tol in variants:
            arrays = []
            for t, vals in zip(dtypes, operands):
                arrays.append(np.array([vals[i % len(vals)] for i in range(N)], dtype=t))
            r = np.asarray(fn(*arrays))
            ins = ", ".join(CPP[t] for t in dtypes)
            params = ", ".join("auto " + "xyz"[i] for i in range(len(dtypes)))
            body = ", ".join("{" + ", ".join(literal(t, v) for v in a) + "}" for t, a in zip(dtypes, arrays))
            res = "{" + ", ".join(literal(r.dtype.type, v) for v in r) + "}"
            out.append(f'CASE("{name} {ins}", [] ({params}) {{ return {cpp}; }}, ({ins}), {CPP[r.dtype.type]}, {tol}, {body}, {res})')
    return "\n".join(out) + "\n"


path = pathlib.Path(__file__).resolve().parent.parent / "tests/run/peer_elementwise_cases.inc"
if "--check" in sys.argv[1:]:
    if path.read_text() != lines():
        sys.exit(f"{path} is not what {pathlib.Path(__file__).name} writes: run it")
else:
    path.write_text(lines())
