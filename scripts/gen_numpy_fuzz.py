#!/usr/bin/python3
"""Generates random legal graphs whose expected outputs NumPy computes.

    /usr/bin/python3 scripts/gen_numpy_fuzz.py          # from the repository root
    /usr/bin/python3 scripts/gen_numpy_fuzz.py --seed 5 --candidates 400 --files 40 --out /tmp/fuzz

writes tests/run/random_numpy_<k>.cpp (k = --first .. --first + --files - 1).
random_numpy_1..5 come from the first line with --candidates 60, random_numpy_6
and _7 from --profile vocab --seed 20261126 --candidates 40 --files 2 --first 6,
random_numpy_8 from --profile ints --seed 20261368 --candidates 10 --files 1 --first 8.
Run by hand (the generated files are committed); needs NumPy 2 (or 1.24-1.26,
switched to NEP 50's promotion) and g++ (or --cxx) for the legality probe. The
same options and library give the same files.

How it works
  1. Candidates. Each graph draws, from random.Random("<seed>-<index>"), 1 to 4
     inputs among
         x: float (7,)           y: double (7,)          s: float extents<7>
         c: double rank 2, run-time (7, 1)               r: float extents<1, dynamic>, (1, 7)
         A: float (5, 7)         B: double extents<5, 7> i: int (7,)
         a: ip::scalar<"a", double>                      b: ip::scalar<"b", float>
     then 4 to 10 nodes reading earlier values (shared subexpressions): + - * /
     (division by a constant), ip::min/max, neg/exp/tanh/sigmoid/relu/abs,
     ip::where (its condition exact: an input, a view of one, relu of one),
     ip::sum, weak constants (2_c, 3_c, 0.5_c, 0.25_c, 1.5_c), the in-place ops
     add/sub/mul_inplace, ip::apply(ip::ops::inplace_op<ip::ops::sub, 1>{}, o, d),
     sum_inplace, exp/tanh/neg/relu/softmax_inplace, ip::dot, ip::reduce_sum
     (all axes or one, negative axes too), ip::softmax, and the views ip::view
     (ranges with negative steps, ip::all, ip::at, ip::new_axis on leading axes),
     ip::transpose, ip::expand_dims, ip::row, ip::col, ip::diagonal, ip::reverse
     and now and then ip::flatten (never the flatten of an input, or a view of it, as
     an output: with a strided argument the call throws, docs/running.md). Dtypes mix: float beside double tensors, a
     double scalar beside floats, int inputs with int operands and weak
     constants (not int beside float tensors, a documented deviation from NumPy
     in docs/tensors.md, nor an int divided by an int constant, which C++
     truncates; no reduce_sum of ints, which NumPy widens to int64).
     Every value is computed with NumPy at once (NEP 50: constants are Python
     numbers, weak; scalar inputs are 0-d arrays of their dtype, strong); an
     in-place op computes like np.op(d, o, out=d) (the destination's dtype).
     Values stay below 30 in magnitude (tanh or sigmoid squash operands when
     needed), so float results are well conditioned. Beside each value the
     generator carries a bound on its rounding error: each op adds its own
     rounding in its dtype to the errors of its operands, scaled by the
     magnitude of the terms (dot and reduce_sum: sum of |terms| times their
     count); the tolerance of an output element is 4 times that bound (NumPy
     and the library may each be off by the bound, plus slack for transcendental
     kernels). 1 to 3 outputs: the last node and other sinks, now and then an
     input, a view or a value of another extent that broadcasts (a (7, 1)
     beside a (1, 7) value of one loop).
  2. Legality. A value is destroyed at most once and a destroyed value is never
     an output; the rest (ordering cycles ...) is settled by compiling probes
     that print ip::check(...).ok; only accepted graphs are written. In the
     test each graph is also guarded by ip::check: one the library rejects
     later is skipped and counted (nf::run), not a compile error.
  --inplace-math (with --profile vocab) draws a math function now and then in
     its in-place form on a floating destination (sin_inplace, clip_inplace,
     pow_inplace, round_inplace ...: np.sin(d, out=d)), for local runs.
  --nodes N draws up to N nodes a graph instead of 10 (for local runs: longer
     chains of in-place ops, views and row ops; 10 gives the committed files).
  --profile inplace draws mostly in-place ops and views (for local runs).
  --profile vocab also draws the newer vocabulary: comparisons (bool; a where
     condition), logical_and/or/not, isnan, isfinite, pow (exponents 2, 3),
     square, clip, log1p, expm1, sin, cos, floor, ceil, round, sign, cast<T>
     (float, double, int), reduce_max/min/mean/prod/any/all and argmax/argmin
     (int64) over all axes, one or several (negative ones too), with
     ip::keepdims and then broadcast back (x - reduce_mean<-1, ip::keepdims>(x)),
     matmul (rank 3 from stack, broadcast batch, 1-D operands) and dot with
     transposed operands (and the transpose of a dot), concatenate/stack of
     values of static extents, zeros/ones/full/arange, and rarely ip::set, inc,
     update<ip::ops::max> on a slice of a value that is not a view (the update
     returns the bottom of the chain of views; scripts/gen_update_fuzz.py
     fuzzes updates in depth). Ops whose result jumps (comparisons, floor,
     ceil, round, sign, cast to int, argmax) are drawn only where the operand is
     exact or farther than 8 x its error bound from the jump.
  --profile ints draws integers as users write them, with its own inputs:
         p: int8 (7,)   q: uint8 (7,)   h: int16 (7,)   w: uint16 (7,)
         u: uint32 (7,) U: uint64 (7,)  l: long (7,)    i: int (7,)
         M: int8 (5, 7)                 N: uint8 extents<5, 7>
         k: uint16 (7, 1)  z: bool (7,) x: float (7,)
         e: ip::scalar<"e", std::int8_t>  m: ip::scalar<"m", std::uint32_t>
     (small values and the dtypes' edges, where wrapping shows), beside each
     other, bool and weak ints: + - * / ip::min/max (NEP 50's dtype: int8 +
     uint8 is int16, uint64 + int64 double, a weak int takes the other's
     dtype; integers wrap; integer division truncates toward zero and x / 0 is
     0, the library's deviation; a weak int out of range, now and then,
     converts modulo 2^n, another), neg/abs/square/pow/relu/sign/clip (wrapping:
     abs and neg of the minimum are the minimum), comparisons with weak ints in
     and out of range (u8 > -1_c, i64 < 2^63: integers compare by value),
     ip::where with branches of different dtypes, reduce_sum/prod/max/min/mean/
     any/all and argmax/argmin over axes with ip::keepdims and broadcast back
     (sums and products of integers and bool in int64 or uint64, wrapping
     there, as np.sum(a); means double), cast<T> between every
     integer dtype (wraps), bool and float (float to integer only in range),
     dot of integers (wrapping), ip::sum (only where NumPy's left-to-right a + b
     + ... has one dtype throughout: the library adds in the common dtype of
     all operands), and the integer in-place ops add/sub/mul/sum_inplace,
     apply(inplace_op<sub, 1>), neg/abs/square_inplace, also through views
     (a transposed or sliced int8 view), with a partner that keeps the
     destination's dtype. The values are computed on explicit dtypes (not left
     to NumPy 1.x's promotion); integer outputs are exact (long double
     literals: every 64-bit integer).
  3. Tests: each graph's namespace gN holds the graph, f, fn (ip::no_rewrite)
     and NumPy's outputs; its TEST_CASE calls nf::run (tests/run/random_numpy.hpp)
     with the inputs' values.
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

import numpy as np

# NumPy 2's dtype rules (NEP 50: Python numbers are weak, 0-d arrays strong).
# NumPy 1.24-1.26 have them behind a switch; np.where is done by hand below
# (its weak scalars follow NEP 50 only from NumPy 2).
if int(np.__version__.split('.')[0]) < 2:
    np._set_promotion_state('weak')

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOUND = 30.0

CXX_DTYPE = {np.dtype('float32'): 'float', np.dtype('float64'): 'double', np.dtype('int32'): 'int',
             np.dtype('int64'): 'long', np.dtype('bool'): 'bool'}
UNIT = {np.dtype('float32'): 2.0 ** -24, np.dtype('float64'): 2.0 ** -53, np.dtype('int32'): 0.0,
        np.dtype('int64'): 0.0, np.dtype('bool'): 0.0}
# --profile ints: the other integer dtypes (ip::cast<T> names them too)
INT_CXX = {'std::int8_t': np.dtype('int8'), 'std::uint8_t': np.dtype('uint8'), 'std::int16_t': np.dtype('int16'),
           'std::uint16_t': np.dtype('uint16'), 'int': np.dtype('int32'), 'std::uint32_t': np.dtype('uint32'),
           'long': np.dtype('int64'), 'std::uint64_t': np.dtype('uint64'), 'float': np.dtype('float32'),
           'double': np.dtype('float64'), 'bool': np.dtype('bool')}
DTYPES = [set(CXX_DTYPE)]  # the dtypes a value may have (the profile's)
STATIC = {'s', 'B', 'a', 'b'}  # inputs of static extents (ip::concatenate needs them)

# name: (declaration, run-time shape, dtype, tensor type made by the test or None for a scalar)
INPUTS = {
    'x': ('ip::input<"x", float>', (7,), 'float32', 'ip::tensor<float>(std::size_t{7})'),
    'y': ('ip::input<"y", double>', (7,), 'float64', 'ip::tensor<double>(std::size_t{7})'),
    's': ('ip::input<"s", float, ip::extents<7>>', (7,), 'float32', 'ip::tensor<float, ip::extents<7>>(std::size_t{7})'),
    'c': ('ip::input<"c", double, 2>', (7, 1), 'float64', 'ip::tensor<double, 2>(std::size_t{7}, std::size_t{1})'),
    'r': ('ip::input<"r", float, ip::extents<1, ip::dynamic>>', (1, 7), 'float32',
          'ip::tensor<float, ip::extents<1, ip::dynamic>>(std::size_t{1}, std::size_t{7})'),
    'A': ('ip::input<"A", float, 2>', (5, 7), 'float32', 'ip::tensor<float, 2>(std::size_t{5}, std::size_t{7})'),
    'B': ('ip::input<"B", double, ip::extents<5, 7>>', (5, 7), 'float64',
          'ip::tensor<double, ip::extents<5, 7>>(std::size_t{5}, std::size_t{7})'),
    'i': ('ip::input<"i", int>', (7,), 'int32', 'ip::tensor<int>(std::size_t{7})'),
    'a': ('ip::scalar<"a", double>', (), 'float64', None),
    'b': ('ip::scalar<"b", float>', (), 'float32', None),
}
INPUT_ORDER = ['x', 'y', 's', 'c', 'r', 'A', 'B', 'i', 'a', 'b']

# --profile ints: its own inputs (small and unsigned integers, bool, one float)
INPUTS_INTS = {
    'p': ('ip::input<"p", std::int8_t>', (7,), 'int8', 'ip::tensor<std::int8_t>(std::size_t{7})'),
    'q': ('ip::input<"q", std::uint8_t>', (7,), 'uint8', 'ip::tensor<std::uint8_t>(std::size_t{7})'),
    'h': ('ip::input<"h", std::int16_t>', (7,), 'int16', 'ip::tensor<std::int16_t>(std::size_t{7})'),
    'w': ('ip::input<"w", std::uint16_t>', (7,), 'uint16', 'ip::tensor<std::uint16_t>(std::size_t{7})'),
    'u': ('ip::input<"u", std::uint32_t>', (7,), 'uint32', 'ip::tensor<std::uint32_t>(std::size_t{7})'),
    'U': ('ip::input<"U", std::uint64_t>', (7,), 'uint64', 'ip::tensor<std::uint64_t>(std::size_t{7})'),
    'l': ('ip::input<"l", long>', (7,), 'int64', 'ip::tensor<long>(std::size_t{7})'),
    'i': ('ip::input<"i", int>', (7,), 'int32', 'ip::tensor<int>(std::size_t{7})'),
    'M': ('ip::input<"M", std::int8_t, 2>', (5, 7), 'int8', 'ip::tensor<std::int8_t, 2>(std::size_t{5}, std::size_t{7})'),
    'N': ('ip::input<"N", std::uint8_t, ip::extents<5, 7>>', (5, 7), 'uint8',
          'ip::tensor<std::uint8_t, ip::extents<5, 7>>(std::size_t{5}, std::size_t{7})'),
    'k': ('ip::input<"k", std::uint16_t, 2>', (7, 1), 'uint16',
          'ip::tensor<std::uint16_t, 2>(std::size_t{7}, std::size_t{1})'),
    'z': ('ip::input<"z", bool>', (7,), 'bool', 'ip::tensor<bool>(std::size_t{7})'),
    'x': ('ip::input<"x", float>', (7,), 'float32', 'ip::tensor<float>(std::size_t{7})'),
    'e': ('ip::scalar<"e", std::int8_t>', (), 'int8', None),
    'm': ('ip::scalar<"m", std::uint32_t>', (), 'uint32', None),
}
INPUT_ORDER_INTS = ['p', 'q', 'h', 'w', 'u', 'U', 'l', 'i', 'M', 'N', 'k', 'z', 'x', 'e', 'm']
STATIC_INTS = {'N', 'e', 'm'}
INTS = [False]  # --profile ints


def wrap_int(c, dt):
    """The Python int c modulo 2^n in the integer dtype dt (two's complement)."""
    dt = np.dtype(dt)
    if dt.kind == 'b':
        return int(c != 0)
    bits = 8 * dt.itemsize
    m = int(c) % (1 << bits)
    return m - (1 << bits) if dt.kind == 'i' and m >= 1 << (bits - 1) else m


def int_datum(dt, rng):
    """Small values, and now and then the dtype's edges (wrapping shows there)."""
    dt = np.dtype(dt)
    if dt.kind == 'b':
        return rng.random() < 0.5
    if dt.kind == 'f':
        return rng.randint(-64, 64) / 8
    info = np.iinfo(dt)
    if rng.random() < 0.6:
        return rng.choice([0, 1, 2, 3, 5]) if dt.kind == 'u' else rng.choice([-3, -2, -1, 0, 1, 2, 3, 5])
    edges = [info.max, info.max - 1, info.min, info.min + 1, info.max // 2 + 1, 100]
    if dt.kind == 'i':
        edges += [-100, info.min // 2]
    return rng.choice(edges)

# weak constants: (C++, Python value); all exact in float
CONSTANTS = [('2_c', 2), ('3_c', 3), ('0.5_c', 0.5), ('0.25_c', 0.25), ('1.5_c', 1.5)]


def is_int(dt):
    return np.dtype(dt).kind in 'iub'


def is_bool(dt):
    return dt is not None and np.dtype(dt).kind == 'b'


def unit(dt):
    return UNIT.get(np.dtype(dt), 0.0)


def input_data(name, rng):
    _, shape, dt, _ = INPUTS[name]
    if INTS[0]:
        if not shape:
            return np.array(int_datum(dt, rng), dtype=dt)
        return np.array([int_datum(dt, rng) for _ in range(int(np.prod(shape)))], dtype=dt).reshape(shape)
    n = int(np.prod(shape)) if shape else 1
    vals = []
    for _ in range(n):
        if rng.random() < 1 / 7:
            vals.append(0)
            continue
        if dt == 'int32':
            vals.append(rng.choice([-4, -3, -2, -1, 1, 2, 3, 4]))
            continue
        k = rng.randint(-64, 64)
        if dt == 'float64':  # not representable in float: a double narrowed to float shows
            vals.append((k + 1 / 3) / 64)
        else:
            vals.append(k / 64)
    if not shape:
        if dt == 'float64':
            return np.array(rng.choice([1 / 3, 0.1, -0.7, 1.1]), dtype=dt)
        return np.array(rng.choice([0.3, -0.6, 1.2]), dtype=dt)  # rounded to float
    return np.array(vals, dtype=dt).reshape(shape)


class Value:
    def __init__(self, cpp, val, err, kind, exact=False, root=None):
        self.cpp = cpp      # C++ name or constant
        self.val = val      # NumPy array (0-d for scalars) or a Python number (weak constant)
        self.err = err      # float64 array: bound on |val - exact value|
        self.kind = kind    # 'input', 'scalar', 'const', 'node'
        self.exact = exact  # the same in every precision (a where condition)
        self.root = root    # storage: (root id, version); None for constants
        self.shape = np.shape(val)
        self.static = kind == 'const'  # extents known at compile time
        self.readonly = False          # a constant array (ip::zeros ...): never destroyed
        self.view = False              # a view (ip::set peels it: the update returns its base)

    @property
    def dtype(self):
        return None if self.kind == 'const' else self.val.dtype

    @property
    def mag(self):
        return np.abs(np.asarray(self.val, dtype=np.float64))

    def maxabs(self):
        return float(np.max(self.mag)) if np.size(self.val) else 0.0


def broadcast(a, b):
    try:
        return np.broadcast_shapes(a, b)
    except ValueError:
        return None


class Graph:
    def __init__(self, rng):
        self.rng = rng
        self.inputs = []
        self.pool = []
        self.lines = []
        self.n = 0
        self.outputs = []
        self.version = {}   # root -> current version (bumped by each destroyer)
        self.uses = {}

    def add(self, cpp, val, err, reads, exact=False, root=None, static=None, readonly=False):
        val = np.asarray(val)
        if val.dtype not in DTYPES[0] or val.ndim > 3 or val.size > 64:
            return None
        bound = 1e30 if INTS[0] else 4 * BOUND  # ints: floats hold integers up to 2^64
        if not is_int(val.dtype) and (not np.all(np.isfinite(val)) or np.max(np.abs(val), initial=0) > bound):
            return None
        name = 'n%d' % self.n
        self.n += 1
        self.lines.append('constexpr auto %s = %s;' % (name, cpp))
        self.uses[name] = {r.cpp for r in reads if r.kind != 'const'}
        if root is None:
            root = (name, 0)
            self.version[name] = 0
        v = Value(name, val, np.broadcast_to(np.asarray(err, dtype=np.float64), val.shape).copy(), 'node', exact, root)
        v.static = all(r.static for r in reads) if static is None else static
        v.readonly = readonly or any(r.readonly for r in reads if root is not None and r.root == root)
        self.pool.append(v)
        return v

    def constant(self):
        cpp, py = self.rng.choice(CONSTANTS)
        return Value(cpp, py, np.zeros(()), 'const', exact=True)

    def pick(self, pred=lambda v: True, recent=True, bools=False):
        cands = [v for v in self.pool if pred(v) and (bools or not is_bool(v.dtype))]
        if not cands:
            return None
        if recent and self.rng.random() < 0.6:
            cands = cands[-3:]
        return self.rng.choice(cands)

    def stale(self, v):
        return v.root is not None and self.version[v.root[0]] != v.root[1]

    # -- rounding rules -------------------------------------------------------------
    def rounding(self, val):
        return unit(val.dtype) * np.abs(np.asarray(val, dtype=np.float64))

    def squash(self, v):
        if v is None or v.kind == 'const' or is_int(v.dtype) or v.kind == 'scalar':
            return v
        if self.rng.random() < 0.5:
            r = np.tanh(v.val)
            return self.add('ip::tanh(%s)' % v.cpp, r, v.err + 8 * self.rounding(r), [v])
        r = 1 / (1 + np.exp(-v.val))
        return self.add('ip::sigmoid(%s)' % v.cpp, r, v.err / 4 + 8 * self.rounding(r), [v])

    def limit(self, v, bound):
        if v is None or v.kind == 'const' or v.maxabs() <= bound:
            return v
        if v.kind == 'scalar' or is_int(v.dtype):
            return None
        return self.squash(v)

    def mixable(self, a, b):
        """NumPy and the library agree on the dtype (no int beside a float tensor or
        scalar, unless --int-float: a library whose rule is NumPy's there too)."""
        if a.kind == 'const' or b.kind == 'const' or INT_FLOAT[0]:
            return True
        return is_int(a.dtype) == is_int(b.dtype)

    def partner(self, a, into=False):
        if self.rng.random() < 0.25:
            return self.constant()

        def ok(v):
            s = broadcast(a.shape, v.shape)
            return s is not None and (not into or s == a.shape) and self.mixable(a, v)
        if self.rng.random() < 0.6:  # mix the inputs: a value of other storage
            other = self.pick(lambda v: ok(v) and v.root[0] != a.root[0], recent=False)
            if other is not None:
                return other
        return self.pick(ok) or self.constant()

    # -- ops ------------------------------------------------------------------------
    def op_binary(self):
        a = self.pick()
        b = self.partner(a)
        if self.rng.random() < 0.3 and b.kind != 'const':
            a, b = b, a
        op = self.rng.choice(['+', '-', '*', '*', 'min', 'max', '/'])
        if op == '/':
            b = self.constant()
            if a.kind == 'const':
                return None
            if is_int(a.dtype) and isinstance(b.val, int):  # C++ truncates (docs/tensors.md), NumPy does not
                return None
        if a.kind == 'const' and b.kind == 'const':
            return None
        if op == '*' and a.maxabs() * b.maxabs() > BOUND:
            a, b = self.limit(a, 1.0), self.limit(b, 1.0)
        if op in '+-' and a.maxabs() + b.maxabs() > BOUND:
            a, b = self.limit(a, 1.0), self.limit(b, 1.0)
        if a is None or b is None:
            return None
        fn = {'+': np.add, '-': np.subtract, '*': np.multiply, '/': np.divide, 'min': np.minimum,
              'max': np.maximum}[op]
        r = fn(a.val, b.val)
        ea, eb = a.err, b.err
        if op in '+-':
            err = ea + eb + self.rounding(r)
        elif op == '*':
            err = a.mag * eb + b.mag * ea + ea * eb + self.rounding(r)
        elif op == '/':
            err = ea / abs(b.val) + self.rounding(r)
        else:
            err = np.maximum(ea, eb)
        names = {'+': 'add', '-': 'sub', '*': 'mul', '/': 'div', 'min': 'min', 'max': 'max'}
        if op in '+-*/' and self.rng.random() < 0.7:
            cpp = '(%s %s %s)' % (a.cpp, op, b.cpp)
        else:
            cpp = 'ip::%s(%s, %s)' % (names[op], a.cpp, b.cpp)
        exact = op in ('min', 'max') and a.exact and b.exact
        return self.add(cpp, r, err, [a, b], exact)

    def op_unary(self):
        a = self.pick(lambda v: v.kind != 'const')
        if a is None:
            return None
        op = self.rng.choice(['neg', 'exp', 'tanh', 'sigmoid', 'relu', 'abs', 'exp'])
        if is_int(a.dtype) and op == 'sigmoid':
            return None
        if op == 'exp':
            if a.maxabs() > 2.5:
                a = self.squash(a) if not is_int(a.dtype) and a.kind != 'scalar' else None
                if a is None:
                    return None
            r = np.exp(a.val)
            err = np.abs(r) * (1.01 * a.err + 8 * unit(r.dtype))
        elif op == 'tanh':
            r = np.tanh(a.val)
            err = a.err + 8 * self.rounding(r)
        elif op == 'sigmoid':
            r = 1 / (1 + np.exp(-a.val))
            err = a.err / 4 + 8 * self.rounding(r)
        elif op == 'neg':
            r, err = np.negative(a.val), a.err
        elif op == 'abs':
            r, err = np.abs(a.val), a.err
        else:
            r, err = np.maximum(a.val, 0), a.err
        cpp = '(-%s)' % a.cpp if op == 'neg' and self.rng.random() < 0.5 else 'ip::%s(%s)' % (op, a.cpp)
        exact = op in ('relu', 'neg', 'abs') and a.exact
        return self.add(cpp, r, err, [a], exact)

    def destination(self):
        return self.pick(lambda v: v.kind in ('input', 'node') and not self.stale(v) and not v.readonly
                         and not is_bool(v.dtype))

    def destroyed(self, d):
        """The root of d gets a new version: d and its views are stale."""
        root = d.root[0]
        self.version[root] += 1
        return (root, self.version[root])

    def inplace_result(self, d, r):
        """np.op(d, o, out=d): computed in r's dtype, stored in d's."""
        if np.can_cast(r.dtype, d.dtype, 'same_kind'):
            return np.asarray(r).astype(d.dtype)
        return None

    def op_inplace_binary(self):
        d = self.destination()
        if d is None:
            return None
        o = self.partner(d, into=True)
        op = self.rng.choice(['add', 'sub', 'mul', 'sub1'])
        if (op == 'mul' and d.maxabs() * o.maxabs() > BOUND) or d.maxabs() + o.maxabs() > BOUND:
            return None
        fn = {'add': np.add, 'sub': np.subtract, 'mul': np.multiply}
        if op == 'sub1':
            r = np.subtract(o.val, d.val)
        else:
            r = fn[op](d.val, o.val)
        res = self.inplace_result(d, r)
        if res is None or res.shape != d.shape:
            return None
        if op == 'mul':
            err = d.mag * o.err + o.mag * d.err + d.err * o.err
        else:
            err = d.err + o.err
        err = err + self.rounding(np.asarray(r)) + self.rounding(res)
        if op == 'sub1':
            if o.kind == 'const' and self.rng.random() < 0.5:
                cpp = 'ip::apply(ip::inplace<1>(ip::ops::sub{}), %s, %s)' % (o.cpp, d.cpp)
            else:
                cpp = 'ip::apply(ip::ops::inplace_op<ip::ops::sub, 1>{}, %s, %s)' % (o.cpp, d.cpp)
        else:
            cpp = 'ip::%s_inplace(%s, %s)' % (op, d.cpp, o.cpp)
        root = self.destroyed(d)
        return self.add(cpp, res, err, [d, o], root=root)

    def op_inplace_unary(self):
        d = self.destination()
        if d is None or is_int(d.dtype):
            return None
        op = self.rng.choice(['exp', 'tanh', 'neg', 'relu', 'softmax'])
        if op == 'exp':
            if d.maxabs() > 2.5:
                return None
            r = np.exp(d.val)
            err = np.abs(r) * (1.01 * d.err + 8 * unit(r.dtype))
        elif op == 'tanh':
            r = np.tanh(d.val)
            err = d.err + 8 * self.rounding(r)
        elif op == 'neg':
            r, err = np.negative(d.val), d.err
        elif op == 'relu':
            r, err = np.maximum(d.val, 0), d.err
        else:
            if d.val.ndim == 0:
                return None
            r, err = self.softmax_of(d)
        root = self.destroyed(d)
        return self.add('ip::%s_inplace(%s)' % (op, d.cpp), r, err, [d], root=root)

    def op_sum(self):
        inplace = self.rng.random() < 0.35
        a = self.destination() if inplace else self.pick(lambda v: v.kind != 'const')
        if a is None:
            return None
        args = [a]
        shape = a.shape
        for _ in range(self.rng.randint(1, 3)):
            b = self.partner(a, into=inplace)
            s = broadcast(shape, b.shape)
            if s is None or (inplace and s != a.shape):
                continue
            shape = s
            args.append(b)
        if len(args) < 2 or sum(v.maxabs() for v in args) > BOUND:
            return None
        r = args[0].val
        for v in args[1:]:
            r = np.add(r, v.val)
        r = np.asarray(r)
        terms = sum(v.mag for v in args)
        err = sum(v.err for v in args) + len(args) * unit(r.dtype) * terms
        if inplace:
            res = self.inplace_result(a, r)
            if res is None:
                return None
            err = err + self.rounding(res)
            root = self.destroyed(a)
            return self.add('ip::sum_inplace(%s)' % ', '.join(v.cpp for v in args), res, err, args, root=root)
        return self.add('ip::sum(%s)' % ', '.join(v.cpp for v in args), r, err, args)

    def op_where(self):
        c = self.pick(lambda v: v.exact and v.kind != 'const', recent=False)
        if c is None:
            return None
        a = self.partner(c)
        b = self.partner(c)
        if not self.mixable(a, b) or (a.kind == 'const' and b.kind == 'const'):
            return None
        s = broadcast(c.shape, a.shape)
        s = None if s is None else broadcast(s, b.shape)
        if s is None:
            return None
        cond = np.asarray(c.val) != 0
        zero = lambda v: v.val if v.kind == 'const' else np.zeros((), v.dtype)
        dt = np.add(zero(a), zero(b)).dtype  # NEP 50's result type of the branches
        r = np.where(cond, np.asarray(a.val).astype(dt), np.asarray(b.val).astype(dt))
        err = np.where(cond, np.broadcast_to(a.err, s), np.broadcast_to(b.err, s))
        return self.add('ip::where(%s, %s, %s)' % (c.cpp, a.cpp, b.cpp), r, err, [c, a, b], a.exact and b.exact)

    def view_node(self, cpp, a, fn):
        """A view of a: the same storage (root and version), fn applied to values and errors."""
        if self.rng.random() < 0.5 and a.kind == 'scalar':
            return None
        v = self.add(cpp, np.array(fn(a.val)), np.array(fn(a.err)), [a], a.exact, root=a.root)
        if v is not None:
            v.view = True
            v.flat_input = getattr(a, 'flat_input', False)
        return v

    def op_view(self):
        a = self.pick(lambda v: v.kind in ('input', 'node') and v.val.ndim >= 1)
        if a is None:
            return None
        rank = a.val.ndim
        kind = self.rng.choice(['view', 'view', 'view', 'transpose', 'expand_dims', 'expand_dims', 'row', 'col',
                                'diagonal', 'reverse', 'flatten'])
        if kind == 'transpose':
            if rank == 1:
                return None
            return self.view_node('ip::transpose(%s)' % a.cpp, a, lambda t: np.transpose(t))
        if kind == 'expand_dims':
            if rank >= 3:
                return None
            ax = self.rng.randint(-(rank + 1), rank)
            return self.view_node('ip::expand_dims<%d>(%s)' % (ax, a.cpp), a, lambda t: np.expand_dims(t, ax))
        if kind == 'row' or kind == 'col':
            if rank != 2:
                return None
            ax = 0 if kind == 'row' else 1
            i = self.rng.randrange(a.shape[ax])
            if kind == 'row':
                return self.view_node('ip::row<%d>(%s)' % (i, a.cpp), a, lambda t: t[i])
            return self.view_node('ip::col<%d>(%s)' % (i, a.cpp), a, lambda t: t[:, i])
        if kind == 'diagonal':
            if rank != 2:
                return None
            k = self.rng.choice([0, 0, 1, -1, 2])
            if len(np.diagonal(a.val, k)) == 0:
                return None
            return self.view_node('ip::diagonal<%d>(%s)' % (k, a.cpp), a, lambda t: np.diagonal(t, k))
        if kind == 'reverse':
            return self.view_node('ip::reverse(%s)' % a.cpp, a, lambda t: t[::-1])
        if kind == 'flatten':
            if rank != 2 or self.rng.random() < 0.5:
                return None
            if INTS[0] and a.root[0] in INPUTS:
                return None  # a strided argument: its flatten, an output, throws (docs/running.md)
            v = self.view_node('ip::flatten(%s)' % a.cpp, a, lambda t: np.ravel(t))
            if v is not None:
                v.flat_input = a.root[0] in INPUTS  # an output then throws with a strided argument
            return v
        # ip::view: one spec per leading axis (new_axis takes none)
        specs, index = [], []
        axis = 0
        nspec = self.rng.randint(1, rank)
        while axis < nspec:
            n = a.shape[axis]
            k = self.rng.choice(['range', 'range', 'range', 'all', 'at', 'new_axis'])
            if k == 'new_axis' and rank + sum(1 for i in index if i is None) < 3:
                specs.append('ip::new_axis')
                index.append(None)
                continue
            if k == 'all':
                specs.append('ip::all')
                index.append(slice(None))
            elif k == 'at':
                i = self.rng.randrange(-n, n)
                specs.append('ip::at<%d>' % i)
                index.append(i)
            else:
                b, e, st = self.rng.choice([(1, None, 1), (0, -1, 1), (0, None, 2), (1, None, 2), (-3, None, 1),
                                            (-1, None, -1), (-1, None, -2), (n - 1, 0, -1), (1, n - 1, 1),
                                            (-2, None, -1), (2, 5, 1), (1, 4, 2), (None, None, -1)])
                if len(range(n)[slice(b, e, st)]) == 0:
                    return None
                bs = '0' if b is None else str(b)
                if b is None:  # a negative step from the end: start -1
                    bs = '-1'
                es = 'ip::end' if e is None else str(e)
                if st == 1 and e is None:
                    specs.append('ip::range<%s>' % bs)
                elif st == 1:
                    specs.append('ip::range<%s, %s>' % (bs, es))
                else:
                    specs.append('ip::range<%s, %s, %d>' % (bs, es, st))
                index.append(slice(int(bs), e, st))
            axis += 1
        idx = tuple(index)
        r = np.asarray(a.val)[idx]
        if r.size == 0 or r.ndim > 3:
            return None
        return self.view_node('ip::view(%s, %s)' % (a.cpp, ', '.join(specs)), a, lambda t: np.asarray(t)[idx])

    def op_dot(self):
        cands = []
        for p in self.pool:
            if p.kind == 'const' or not 1 <= p.val.ndim <= 2:
                continue
            for q in self.pool:
                if q.kind == 'const' or not 1 <= q.val.ndim <= 2 or not self.mixable(p, q):
                    continue
                if p.shape[-1] == q.shape[0]:
                    cands.append((p, q))
        if not cands:
            return None
        p, q = self.rng.choice(cands)
        k = p.shape[-1]
        if k * p.maxabs() * q.maxabs() > BOUND:
            p, q = self.limit(p, 1.0), self.limit(q, 1.0)
            if p is None or q is None or k * p.maxabs() * q.maxabs() > BOUND:
                return None
        r = np.dot(p.val, q.val)
        err = (np.dot(p.mag, q.err) + np.dot(p.err, q.mag) + np.dot(p.err, q.err)
               + (k + 1) * unit(r.dtype) * np.dot(p.mag, q.mag))
        return self.add('ip::dot(%s, %s)' % (p.cpp, q.cpp), r, err, [p, q])

    def op_reduce(self):
        a = self.pick(lambda v: v.kind in ('input', 'node') and v.val.ndim >= 1 and not is_int(v.dtype))
        if a is None:
            return None
        rank = a.val.ndim
        axis = self.rng.choice([None, None] + list(range(-rank, rank)))
        n = a.val.size if axis is None else a.shape[axis]
        if n * a.maxabs() > BOUND:
            a = self.limit(a, 1.0)
            if a is None or n * a.maxabs() > BOUND:
                return None
        r = np.sum(a.val, axis=axis)
        err = np.sum(a.err, axis=axis) + (n + 1) * unit(r.dtype) * np.sum(a.mag, axis=axis)
        cpp = 'ip::reduce_sum(%s)' % a.cpp if axis is None else 'ip::reduce_sum<%d>(%s)' % (axis, a.cpp)
        return self.add(cpp, r, err, [a])

    def softmax_of(self, a):
        x = a.val
        m = np.max(x, axis=-1, keepdims=True)
        e = np.exp(x - m)
        r = e / np.sum(e, axis=-1, keepdims=True)
        n = x.shape[-1]
        err = r * (2.02 * np.max(a.err, axis=-1, keepdims=True) + (n + 16) * unit(r.dtype))
        return r, err

    def op_softmax(self):
        a = self.pick(lambda v: v.kind in ('input', 'node') and v.val.ndim >= 1 and not is_int(v.dtype))
        if a is None:
            return None
        if a.maxabs() > BOUND:
            return None
        r, err = self.softmax_of(a)
        return self.add('ip::softmax(%s)' % a.cpp, r, err, [a])

    # -- the newer vocabulary (--profile vocab) ---------------------------------------
    def uncertain(self, val, err, points):
        """True if val is within 8 x err of a point where the op jumps (the result would
        depend on the rounding)."""
        val = np.asarray(val, dtype=np.float64)
        err = np.asarray(err, dtype=np.float64)
        return bool(np.any((err > 0) & (points(val) <= 8 * err + 1e-300)))

    def op_compare(self):
        a = self.pick(lambda v: v.kind != 'const')
        if a is None:
            return None
        b = self.partner(a)
        if self.rng.random() < 0.3 and b.kind != 'const':
            a, b = b, a
        op = self.rng.choice(['<', '<=', '>', '>=', '==', '!='])
        fn = {'<': np.less, '<=': np.less_equal, '>': np.greater, '>=': np.greater_equal, '==': np.equal,
              '!=': np.not_equal}[op]
        r = fn(a.val, b.val)
        err = np.broadcast_to(a.err, np.shape(r)) + np.broadcast_to(b.err, np.shape(r))
        diff = np.abs(np.asarray(a.val, dtype=np.float64) - np.asarray(b.val, dtype=np.float64))
        if np.any((err > 0) & (diff <= 8 * err)):
            return None  # too close to call
        names = {'<': 'less', '<=': 'less_equal', '>': 'greater', '>=': 'greater_equal', '==': 'equal',
                 '!=': 'not_equal'}
        if self.rng.random() < 0.7:
            cpp = '(%s %s %s)' % (a.cpp, op, b.cpp)
        else:
            cpp = 'ip::%s(%s, %s)' % (names[op], a.cpp, b.cpp)
        return self.add(cpp, r, 0.0, [a, b], exact=True)

    def op_logical(self):
        a = self.pick(lambda v: v.kind != 'const' and v.exact, bools=True)
        if a is None:
            return None
        op = self.rng.choice(['and', 'or', 'not', 'isnan', 'isfinite'])
        if op in ('isnan', 'isfinite'):
            r = (np.isnan if op == 'isnan' else np.isfinite)(a.val)
            return self.add('ip::%s(%s)' % (op, a.cpp), r, 0.0, [a], exact=True)
        if op == 'not':
            return self.add('ip::logical_not(%s)' % a.cpp, np.logical_not(a.val), 0.0, [a], exact=True)
        b = self.pick(lambda v: v.kind != 'const' and v.exact and broadcast(a.shape, v.shape) is not None,
                      recent=False, bools=True)
        if b is None:
            return None
        r = (np.logical_and if op == 'and' else np.logical_or)(a.val, b.val)
        return self.add('ip::logical_%s(%s, %s)' % (op, a.cpp, b.cpp), r, 0.0, [a, b], exact=True)

    def op_math(self):
        """A math function of a value; with --inplace-math, now and then its
        in-place form on a floating destination (np.op(d, out=d))."""
        inplace = INPLACE_MATH[0] and self.rng.random() < 0.4
        a = self.destination() if inplace else self.pick(lambda v: v.kind != 'const')
        if a is None or (inplace and is_int(a.dtype)):
            return None
        m = self.math_of(a)
        if m is None:
            return None
        cpp, r, err, exact, a = m  # (a: pow and square may squash their operand first)
        if not inplace:
            return self.add(cpp, r, err, [a], exact=exact)
        if np.asarray(r).dtype != a.dtype:
            return None
        cpp = cpp.replace('(', '_inplace(', 1)
        return self.add(cpp, r, err, [a], exact=exact, root=self.destroyed(a))

    def math_of(self, a):
        """(C++, NumPy's value, error bound, exact, operand) of a math function of a, or None."""
        op = self.rng.choice(['pow', 'square', 'clip', 'log1p', 'expm1', 'sin', 'cos', 'floor', 'ceil', 'round',
                              'sign'])
        v, e = a.val, a.err
        fv = np.asarray(v, dtype=np.float64)
        m = a.maxabs()
        if op in ('pow', 'square'):
            k = 2 if op == 'square' else self.rng.choice([2, 3])
            if m ** k > BOUND:
                a = self.limit(a, 1.0)
                if a is None:
                    return None
                v, e, fv = a.val, a.err, np.asarray(a.val, dtype=np.float64)
            r = np.power(v, k) if op == 'pow' else np.square(v)
            err = k * np.abs(fv) ** (k - 1) * e * 1.01 + e ** k + 4 * self.rounding(r)
            cpp = 'ip::pow(%s, %d_c)' % (a.cpp, k) if op == 'pow' else 'ip::square(%s)' % a.cpp
            return cpp, r, err, a.exact, a
        if op == 'clip':
            lo, hi = self.rng.choice([(-0.5, 0.5), (0, 1), (-1, 0.25), (0, 2)])
            r = np.clip(v, lo, hi)
            cs = lambda c: ('%d_c' % c) if isinstance(c, int) else ('%s_c' % c)
            return 'ip::clip(%s, %s, %s)' % (a.cpp, cs(lo), cs(hi)), r, e, a.exact, a
        if op == 'log1p':
            if np.min(fv) <= -0.5 or m > 20:
                return None
            r = np.log1p(v)
            err = e / (1 + fv - e) + 8 * self.rounding(r) + 4 * unit(r.dtype)
            return 'ip::log1p(%s)' % a.cpp, r, err, False, a
        if op == 'expm1':
            if m > 2.5:
                return None
            r = np.expm1(v)
            err = np.exp(fv + e) * e * 1.01 + 8 * self.rounding(r) + 4 * unit(r.dtype)
            return 'ip::expm1(%s)' % a.cpp, r, err, False, a
        if op in ('sin', 'cos'):
            r = (np.sin if op == 'sin' else np.cos)(v)
            return 'ip::%s(%s)' % (op, a.cpp), r, e + 8 * unit(r.dtype), False, a
        # piecewise constant: the result jumps at integers (round: at halves, sign: at 0)
        pts = {'floor': lambda t: np.abs(t - np.round(t)), 'ceil': lambda t: np.abs(t - np.round(t)),
               'round': lambda t: np.abs(t - np.floor(t) - 0.5), 'sign': np.abs}[op]
        if self.uncertain(fv, e, pts):
            return None
        r = {'floor': np.floor, 'ceil': np.ceil, 'round': np.round, 'sign': np.sign}[op](v)
        return 'ip::%s(%s)' % (op, a.cpp), r, 0.0, a.exact, a

    def op_cast(self):
        a = self.pick(lambda v: v.kind != 'const', bools=True)
        if a is None:
            return None
        t = self.rng.choice(['float', 'double', 'int'])
        dt = {'float': np.float32, 'double': np.float64, 'int': np.int32}[t]
        fv = np.asarray(a.val, dtype=np.float64)
        if t == 'int':
            # truncation jumps at every integer but 0
            if self.uncertain(fv, a.err, lambda u: np.where(np.abs(u) < 1, 1.0, np.abs(u - np.round(u)))):
                return None
            r, err = np.asarray(a.val).astype(dt), 0.0
        else:
            r = np.asarray(a.val).astype(dt)
            err = a.err + self.rounding(r)
        return self.add('ip::cast<%s>(%s)' % (t, a.cpp), r, err, [a], exact=a.exact or t == 'int')

    def axes_spec(self, rank):
        """(C++ template arguments, NumPy axis) for a reduction: all, one or several axes,
        negative ones too."""
        u = self.rng.random()
        if u < 0.25 or rank == 0:
            return [], None
        if u < 0.7 or rank == 1:
            ax = self.rng.randrange(-rank, rank)
            return [str(ax)], ax
        k = self.rng.randint(2, rank)
        axes = self.rng.sample(range(rank), k)
        cpp = [str(x - rank if self.rng.random() < 0.4 else x) for x in axes]
        return cpp, tuple(axes)

    def op_reduction(self):
        op = self.rng.choice(['max', 'min', 'mean', 'mean', 'prod', 'any', 'all', 'argmax', 'argmin'])
        bools = op in ('any', 'all')
        a = self.pick(lambda v: v.kind in ('input', 'node') and v.val.ndim >= 1 and (bools or not is_bool(v.dtype)),
                      bools=bools)
        if a is None:
            return None
        rank = a.val.ndim
        if op in ('prod', 'mean') and is_int(a.dtype):
            return None  # NumPy widens int32 to int64 (prod); mean: see below
        cpp_axes, axis = self.axes_spec(rank)
        if op.startswith('arg') and isinstance(axis, tuple):
            cpp_axes, axis = [cpp_axes[0]], int(cpp_axes[0])
        keep = not op.startswith('arg') and self.rng.random() < 0.35
        v, e = a.val, a.err
        fv = np.asarray(v, dtype=np.float64)
        n = a.val.size if axis is None else int(np.prod([a.shape[x] for x in np.atleast_1d(axis)]))
        if op in ('max', 'min'):
            r = (np.max if op == 'max' else np.min)(v, axis=axis, keepdims=keep)
            err = np.max(np.broadcast_to(e, a.shape), axis=axis, keepdims=keep)
        elif op == 'mean':
            if a.maxabs() * n > 4 * BOUND * n:
                return None
            r = np.mean(v, axis=axis, keepdims=keep)
            err = (np.sum(e, axis=axis, keepdims=keep) / n
                   + (n + 2) * unit(r.dtype) * np.sum(np.abs(fv), axis=axis, keepdims=keep) / n)
        elif op == 'prod':
            if a.maxabs() ** n > BOUND or n > 12:
                a = self.limit(a, 1.0)
                if a is None:
                    return None
                v, e = a.val, a.err
                fv = np.asarray(v, dtype=np.float64)
            r = np.prod(v, axis=axis, keepdims=keep)
            # |prod(x + d) - prod(x)| <= prod(|x| + |d|) - prod(|x|)
            err = (np.prod(np.abs(fv) + e, axis=axis, keepdims=keep) - np.prod(np.abs(fv), axis=axis, keepdims=keep)
                   + (n + 2) * unit(r.dtype) * np.prod(np.abs(fv) + e, axis=axis, keepdims=keep))
        elif op in ('any', 'all'):
            if not a.exact:
                return None
            r = (np.any if op == 'any' else np.all)(v, axis=axis, keepdims=keep)
            err = 0.0
        else:
            # argmax/argmin: the extreme must stand out of the others by more than the errors
            # (ties of exact values are fine: the first one)
            r = (np.argmax if op == 'argmax' else np.argmin)(v, axis=axis)
            x = np.ravel(fv) if axis is None else np.moveaxis(fv, axis, -1)
            xe = np.ravel(np.broadcast_to(e, a.shape)) if axis is None else np.moveaxis(np.broadcast_to(e, a.shape), axis, -1)
            best = (np.max if op == 'argmax' else np.min)(x, axis=-1, keepdims=True)
            close = np.abs(x - best) <= 8 * (xe + np.max(xe, axis=-1, keepdims=True)) + 1e-300
            hit = np.abs(x - best) == 0
            if np.any(close & ~hit) or np.any(hit & (xe > 0) & (np.sum(hit, axis=-1, keepdims=True) > 1)):
                return None
            r, err = np.asarray(r, dtype=np.int64), 0.0
        if keep:
            cpp_axes = cpp_axes + ['ip::keepdims'] if cpp_axes else ['ip::keepdims']
        name = {'max': 'reduce_max', 'min': 'reduce_min', 'mean': 'reduce_mean', 'prod': 'reduce_prod',
                'any': 'reduce_any', 'all': 'reduce_all', 'argmax': 'argmax', 'argmin': 'argmin'}[op]
        cpp = 'ip::%s%s(%s)' % (name, '<%s>' % ', '.join(cpp_axes) if cpp_axes else '', a.cpp)
        node = self.add(cpp, r, err, [a], exact=op in ('any', 'all', 'argmax', 'argmin') or (
            op in ('max', 'min') and a.exact))
        if node is not None and keep and not is_bool(node.dtype) and self.rng.random() < 0.6:
            # broadcast it back: x - reduce_mean<-1, ip::keepdims>(x)
            r2 = np.subtract(v, node.val)
            return self.add('(%s - %s)' % (a.cpp, node.cpp), r2, e + node.err + self.rounding(r2), [a, node])
        return node

    def op_matmul(self):
        cands = []
        for p in self.pool:
            if p.kind == 'const' or not 1 <= p.val.ndim <= 3 or is_bool(p.dtype):
                continue
            for q in self.pool:
                if q.kind == 'const' or not 1 <= q.val.ndim <= 3 or not self.mixable(p, q) or is_bool(q.dtype):
                    continue
                for tp in (False, True):
                    for tq in (False, True):
                        ps = p.shape[::-1] if tp and p.val.ndim == 2 else p.shape
                        qs = q.shape[::-1] if tq and q.val.ndim == 2 else q.shape
                        if (tp and p.val.ndim != 2) or (tq and q.val.ndim != 2):
                            continue
                        if ps[-1] != qs[0 if len(qs) == 1 else -2]:
                            continue
                        if broadcast(ps[:-2], qs[:-2]) is None:
                            continue
                        cands.append((p, q, tp, tq))
        if not cands:
            return None
        p, q, tp, tq = self.rng.choice(cands)
        pv = np.asarray(p.val).T if tp else np.asarray(p.val)
        qv = np.asarray(q.val).T if tq else np.asarray(q.val)
        k = pv.shape[-1]
        if k * p.maxabs() * q.maxabs() > BOUND:
            return None
        use_dot = pv.ndim <= 2 and qv.ndim <= 2 and self.rng.random() < 0.4
        r = np.dot(pv, qv) if use_dot else np.matmul(pv, qv)
        pe, qe = np.broadcast_to(p.err, p.shape), np.broadcast_to(q.err, q.shape)
        pe, qe = (pe.T if tp else pe), (qe.T if tq else qe)
        pm, qm = np.abs(pv.astype(np.float64)), np.abs(qv.astype(np.float64))
        mm = np.matmul
        err = mm(pm, qe) + mm(pe, qm) + mm(pe, qe) + (k + 1) * unit(r.dtype) * mm(pm, qm)
        pc = 'ip::transpose(%s)' % p.cpp if tp else p.cpp
        qc = 'ip::transpose(%s)' % q.cpp if tq else q.cpp
        if use_dot and r.ndim == 2 and self.rng.random() < 0.3:
            # transpose of a product: the kernel's transposed forms
            return self.add('ip::transpose(ip::dot(%s, %s))' % (pc, qc), r.T, err.T, [p, q])
        return self.add('ip::%s(%s, %s)' % ('dot' if use_dot else 'matmul', pc, qc), r, err, [p, q])

    def op_concat(self):
        a = self.pick(lambda v: v.kind != 'const' and v.static and v.val.ndim >= 1, bools=True)
        if a is None:
            return None
        stack = self.rng.random() < 0.4
        rank = a.val.ndim
        if stack:
            axis = self.rng.randrange(-rank - 1, rank + 1)
        else:
            axis = self.rng.randrange(-rank, rank)
        def fits(v):
            if v.kind == 'const' or not v.static or v.val.ndim != rank or is_bool(v.dtype) != is_bool(a.dtype):
                return False
            if not self.mixable(a, v):
                return False
            if stack:
                return v.shape == a.shape
            k = axis % rank
            return all(v.shape[i] == a.shape[i] for i in range(rank) if i != k)
        parts = [a]
        for _ in range(self.rng.randint(1, 2)):
            b = self.pick(fits, recent=False, bools=True)
            if b is not None:
                parts.append(b)
        if len(parts) < 2 and self.rng.random() < 0.7:
            return None
        vals = [np.asarray(v.val) for v in parts]
        errs = [np.broadcast_to(v.err, v.shape) for v in parts]
        if stack:
            r, err = np.stack(vals, axis=axis), np.stack(errs, axis=axis)
        else:
            r, err = np.concatenate(vals, axis=axis), np.concatenate(errs, axis=axis)
        r = np.asarray(r)
        err = err + self.rounding(r)  # a narrowing of a double operand into float
        return self.add('ip::%s<%d>(%s)' % ('stack' if stack else 'concatenate', axis, ', '.join(v.cpp for v in parts)),
                        r, err, parts, exact=all(v.exact for v in parts))

    def op_constant(self):
        t = self.rng.choice(['float', 'double', 'int'])
        dt = {'float': np.float32, 'double': np.float64, 'int': np.int32}[t]
        shape = self.rng.choice([(7,), (7,), (5, 7), (7, 1), (1, 7), (5,)])
        kind = self.rng.choice(['zeros', 'ones', 'full', 'arange'])
        ext = ', '.join(str(e) for e in shape)
        if kind == 'arange':
            n = shape[0]
            start, step = self.rng.choice([(0, 1), (-3, 1), (6, -1), (1, 2)])
            stop = start + n * step
            r = np.arange(start, stop, step, dtype=dt)
            if start == 0 and step == 1:
                cpp = 'ip::arange<%s, %d>' % (t, stop)
            elif step == 1:
                cpp = 'ip::arange<%s, %d, %d>' % (t, start, stop)
            else:
                cpp = 'ip::arange<%s, %d, %d, %d>' % (t, start, stop, step)
            if self.rng.random() < 0.5:
                cpp += '()'
            return self.add(cpp, r, 0.0, [], exact=True, static=True)
        if kind == 'full':
            c, py = self.rng.choice(CONSTANTS)
            if t == 'int' and not isinstance(py, int):
                return None
            r = np.full(shape, py, dtype=dt)
            cpp = 'ip::full<%s, %s>(%s)' % (t, ext, c)
        else:
            r = (np.zeros if kind == 'zeros' else np.ones)(shape, dtype=dt)
            cpp = 'ip::%s<%s, %s>%s' % (kind, t, ext, '()' if self.rng.random() < 0.5 else '')
        return self.add(cpp, r, 0.0, [], exact=True, static=True, readonly=True)

    def op_update(self):
        """Rarely: ip::set / ip::inc / ip::update<ip::ops::max> of a slice of a rank-1 or 2
        value (scripts/gen_update_fuzz.py fuzzes updates in depth)."""
        # not a view: ip::set(ip::view(v, ...), o) returns the bottom of v's chain of views
        # (docs/reference.md), all of it
        d = self.pick(lambda v: v.kind in ('input', 'node') and v.val.ndim >= 1 and not v.readonly and not v.view)
        if d is None:
            return None
        n = d.shape[0]
        b, e = self.rng.choice([(1, 4), (0, 2), (2, None), (-3, None)])
        idx = slice(b, e)
        region = np.asarray(d.val)[idx]
        if region.size == 0:
            return None
        o = self.partner(Value('r', region, np.zeros(region.shape), 'node', root=d.root))
        if broadcast(region.shape, o.shape) != region.shape or o.kind == 'scalar' and False:
            return None
        op = self.rng.choice(['set', 'inc', 'max'])
        res = np.array(d.val, copy=True)
        oval = np.broadcast_to(np.asarray(o.val), region.shape)
        if not np.can_cast(np.result_type(res, o.val), res.dtype, 'same_kind') and op != 'set':
            return None
        if op == 'set':
            if not self.mixable(d, o):
                return None
            res[idx] = oval
        elif op == 'inc':
            if d.maxabs() + o.maxabs() > BOUND:
                return None
            res[idx] = np.add(region, oval)
        else:
            res[idx] = np.maximum(region, oval)
        err = np.array(np.broadcast_to(d.err, d.shape), copy=True)
        oerr = np.broadcast_to(o.err, region.shape)
        err[idx] = (oerr if op == 'set' else np.maximum(err[idx], oerr) if op == 'max' else err[idx] + oerr) + \
            self.rounding(np.asarray(res[idx]))
        view = 'ip::range<%d%s>' % (b, '' if e is None else ', %d' % e)
        target = 'ip::view(%s, %s)' % (d.cpp, view)
        cpp = {'set': 'ip::set', 'inc': 'ip::inc', 'max': 'ip::update<ip::ops::max>'}[op]
        return self.add('%s(%s, %s)' % (cpp, target, o.cpp), res, err, [d, o], exact=d.exact and o.exact)

    # -- --profile ints: small and unsigned integers, wrapping, NEP 50 promotion --------
    # The dtype and values follow the library's rule (docs/reference.md, "Element
    # types"): NEP 50 (np.promote_types for two strong dtypes; a weak int takes the
    # other's dtype, bool's: int64; a weak float: a floating dtype stays, else float64),
    # integers wrap modulo 2^n, a weak int out of the dtype's range converts modulo 2^n
    # (NumPy 2 raises), integer division truncates toward zero (x / 0 is 0). Values
    # are computed here on explicit dtypes, not left to NumPy 1.x's promotion.
    def common(self, a, b):
        if a.kind == 'const' and b.kind == 'const':
            return None
        if a.kind != 'const' and b.kind != 'const':
            return np.promote_types(a.dtype, b.dtype)
        c, s = (a, b) if a.kind == 'const' else (b, a)
        if isinstance(c.val, float):
            return s.dtype if s.dtype.kind == 'f' else np.dtype('float64')
        return np.dtype('int64') if s.dtype.kind == 'b' else s.dtype

    def convert(self, v, dt):
        """v's value in dt: a weak int modulo 2^n, arrays by astype (integers wrap)."""
        dt = np.dtype(dt)
        if v.kind == 'const':
            if isinstance(v.val, int) and dt.kind in 'iu':
                return np.array(wrap_int(v.val, dt), dtype=dt)
            return np.array(v.val, dtype=dt)
        with np.errstate(all='ignore'):
            return np.asarray(v.val).astype(dt)

    def convert_err(self, v, dt):
        """v's error bound after conversion to dt (an integer rounded into a float)."""
        e = np.asarray(v.err, dtype=np.float64)
        if np.dtype(dt).kind == 'f' and (v.kind == 'const' or v.dtype != np.dtype(dt)):
            e = e + unit(dt) * v.mag
        return e

    def int_constant(self, dt=None, arith=True):
        """A weak int: small ones fit every dtype; -1 only beside signed dtypes; now and
        then one out of the dtype's range (converted modulo 2^n: a documented deviation)."""
        u = self.rng.random()
        if not arith:  # comparisons read the value: any, in or out of range
            c = self.rng.choice([0, 1, 2, -1, 3, 100, 127, 128, 255, 256, -129, 1000, 65535, 65536, -32769,
                                 2 ** 31, 2 ** 32, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1, -2 ** 63, 0.5, -0.5])
        elif u < 0.1:
            c = self.rng.choice([1000, 300, -1, 70000])
        elif u < 0.2:
            c = 0.5
        else:
            c = self.rng.choice([1, 2, 3, 100, 2, 3] + ([-1, -3] if dt is not None and np.dtype(dt).kind == 'i' else []))
        if isinstance(c, float):
            return Value('%s_c' % repr(c), c, np.zeros(()), 'const', exact=True)
        cpp = '%d_c' % c if c >= 0 else '(-%d_c)' % -c
        return Value(cpp, c, np.zeros(()), 'const', exact=True)

    def int_partner(self, a, into=False, arith=True):
        if self.rng.random() < 0.3:
            return self.int_constant(None if a.kind == 'const' else a.dtype, arith)

        def ok(v):
            s = broadcast(a.shape, v.shape)
            return s is not None and (not into or s == a.shape) and v.kind != 'const'
        if self.rng.random() < 0.6:
            other = self.pick(lambda v: ok(v) and v.root[0] != a.root[0], recent=False, bools=True)
            if other is not None:
                return other
        return self.pick(ok, bools=True) or self.int_constant(a.dtype, arith)

    def int_apply(self, op, A, B, dt):
        """op on A, B of dtype dt, NumPy's values (integers wrap; division truncates)."""
        with np.errstate(all='ignore'):
            if op == '/' and dt.kind in 'iub':
                a, b = np.broadcast_arrays(A.astype(object), B.astype(object))
                q = np.frompyfunc(lambda x, y: 0 if y == 0 else (abs(int(x)) // abs(int(y))) * (
                    1 if (x < 0) == (y < 0) else -1), 2, 1)(a, b)
                return np.asarray(np.frompyfunc(lambda t: wrap_int(int(t), dt), 1, 1)(q)).astype(dt).reshape(a.shape)
            fn = {'+': np.add, '-': np.subtract, '*': np.multiply, '/': np.divide, 'min': np.minimum,
                  'max': np.maximum}[op]
            if dt.kind == 'b' and op in '+*':
                return (np.logical_or if op == '+' else np.logical_and)(A, B)
            return np.asarray(fn(A, B)).astype(dt)

    def op_ibinary(self):
        a = self.pick(bools=True)
        if a is None:
            return None
        b = self.int_partner(a)
        if self.rng.random() < 0.3 and b.kind != 'const':
            a, b = b, a
        op = self.rng.choice(['+', '-', '*', '*', 'min', 'max', '/', '+', '-'])
        dt = self.common(a, b)
        if dt is None or (dt.kind == 'b' and op not in '+*') or (op == '-' and dt.kind == 'b'):
            return None
        if op == '/' and b.kind != 'const' and not is_int(b.dtype) and self.rng.random() < 0.5:
            return None
        A, B = self.convert(a, dt), self.convert(b, dt)
        r = self.int_apply(op, A, B, dt)
        if dt.kind == 'f':
            ea, eb = self.convert_err(a, dt), self.convert_err(b, dt)
            ma, mb = np.abs(A.astype(np.float64)), np.abs(B.astype(np.float64))
            if op in '+-':
                err = ea + eb + self.rounding(r)
            elif op == '*':
                err = ma * eb + mb * ea + ea * eb + self.rounding(r)
            elif op == '/':
                if np.any(mb <= 8 * eb + 1e-300):
                    return None
                err = (ea + np.abs(r) * eb) / (mb - eb) + self.rounding(r)
            else:
                err = np.maximum(ea, eb)
        else:
            err = 0.0
        names = {'+': 'add', '-': 'sub', '*': 'mul', '/': 'div', 'min': 'min', 'max': 'max'}
        if op in '+-*/' and self.rng.random() < 0.7:
            cpp = '(%s %s %s)' % (a.cpp, op, b.cpp)
        else:
            cpp = 'ip::%s(%s, %s)' % (names[op], a.cpp, b.cpp)
        return self.add(cpp, r, err, [a, b], exact=dt.kind != 'f' and a.exact and b.exact)

    def op_iunary(self):
        a = self.pick(lambda v: v.kind != 'const' and not is_bool(v.dtype))
        if a is None:
            return None
        integer = is_int(a.dtype)
        op = self.rng.choice(['neg', 'abs', 'square', 'pow', 'relu'] + (['sign', 'clip', 'neg', 'abs'] if integer else []))
        v, dt = a.val, a.dtype
        fv = np.asarray(v, dtype=np.float64)
        k = 2 if op == 'square' else self.rng.choice([2, 3]) if op == 'pow' else 0
        with np.errstate(all='ignore'):
            if op == 'neg':
                r, cpp = np.negative(v), ('(-%s)' if self.rng.random() < 0.5 else 'ip::neg(%s)') % a.cpp
            elif op == 'abs':
                r, cpp = np.abs(v), 'ip::abs(%s)' % a.cpp
            elif op in ('square', 'pow'):
                r = np.asarray(v)
                for _ in range(k - 1):
                    r = np.multiply(r, v).astype(dt)
                cpp = 'ip::square(%s)' % a.cpp if op == 'square' else 'ip::pow(%s, %d_c)' % (a.cpp, k)
            elif op == 'relu':
                r, cpp = np.maximum(v, np.zeros((), dt)), 'ip::relu(%s)' % a.cpp
            elif op == 'sign':
                r, cpp = np.sign(v), 'ip::sign(%s)' % a.cpp
            else:
                lo, hi = self.rng.choice([(0, 3), (-2, 2), (1, 100), (-100, 0)])
                if dt.kind == 'u' and lo < 0:
                    return None
                r = np.minimum(np.maximum(v, np.array(lo, dt)), np.array(hi, dt))
                cs = lambda c: '%d_c' % c if c >= 0 else '(-%d_c)' % -c
                cpp = 'ip::clip(%s, %s, %s)' % (a.cpp, cs(lo), cs(hi))
        r = np.asarray(r).astype(dt)
        if integer:
            err = 0.0
        elif op in ('square', 'pow'):
            e = np.asarray(a.err, dtype=np.float64)
            err = k * (np.abs(fv) + e) ** (k - 1) * e * 1.01 + 4 * self.rounding(r)
        else:
            err = a.err
        return self.add(cpp, r, err, [a], exact=integer and a.exact)

    def op_icompare(self):
        a = self.pick(lambda v: v.kind != 'const', bools=True)
        if a is None:
            return None
        b = self.int_partner(a, arith=False)
        if self.rng.random() < 0.3 and b.kind != 'const':
            a, b = b, a
        op = self.rng.choice(['<', '<=', '>', '>=', '==', '!='])
        fn = {'<': np.less, '<=': np.less_equal, '>': np.greater, '>=': np.greater_equal, '==': np.equal,
              '!=': np.not_equal}[op]
        ints = all(v.kind == 'const' and isinstance(v.val, int) or v.kind != 'const' and is_int(v.dtype)
                   for v in (a, b))
        if ints:  # integers compare by value, whatever their dtypes (weak ones too)
            A = np.asarray(a.val).astype(object) if a.kind != 'const' else a.val
            B = np.asarray(b.val).astype(object) if b.kind != 'const' else b.val
            pyop = {'<': lambda x, y: x < y, '<=': lambda x, y: x <= y, '>': lambda x, y: x > y,
                    '>=': lambda x, y: x >= y, '==': lambda x, y: x == y, '!=': lambda x, y: x != y}[op]
            r = np.asarray(np.frompyfunc(lambda x, y: pyop(int(x), int(y)), 2, 1)(A, B)).astype(bool)
        else:  # in the common dtype (a weak float: float64 beside integers)
            dt = self.common(a, b)
            A, B = self.convert(a, dt), self.convert(b, dt)
            err = np.broadcast_to(self.convert_err(a, dt), np.broadcast(A, B).shape) + self.convert_err(b, dt)
            diff = np.abs(A.astype(np.float64) - B.astype(np.float64))
            if np.any((err > 0) & (diff <= 8 * err)):
                return None
            r = fn(A, B)
        names = {'<': 'less', '<=': 'less_equal', '>': 'greater', '>=': 'greater_equal', '==': 'equal',
                 '!=': 'not_equal'}
        if self.rng.random() < 0.7:
            cpp = '(%s %s %s)' % (a.cpp, op, b.cpp)
        else:
            cpp = 'ip::%s(%s, %s)' % (names[op], a.cpp, b.cpp)
        return self.add(cpp, np.asarray(r), 0.0, [a, b], exact=True)

    def op_iwhere(self):
        c = self.pick(lambda v: v.exact and v.kind != 'const', recent=False, bools=True)
        if c is None:
            return None
        a, b = self.int_partner(c), self.int_partner(c)
        dt = self.common(a, b)
        if dt is None:
            return None
        s = broadcast(c.shape, a.shape)
        s = None if s is None else broadcast(s, b.shape)
        if s is None:
            return None
        cond = np.asarray(c.val) != 0
        r = np.where(cond, self.convert(a, dt), self.convert(b, dt))
        err = np.where(cond, np.broadcast_to(self.convert_err(a, dt), s), np.broadcast_to(self.convert_err(b, dt), s))
        if dt.kind != 'f':
            err = 0.0
        return self.add('ip::where(%s, %s, %s)' % (c.cpp, a.cpp, b.cpp), r, err, [c, a, b],
                        a.exact and b.exact and dt.kind != 'f')

    def op_ireduce(self):
        op = self.rng.choice(['sum', 'sum', 'prod', 'max', 'min', 'argmax', 'argmin', 'mean', 'any', 'all'])
        a = self.pick(lambda v: v.kind in ('input', 'node') and v.val.ndim >= 1
                      and (op in ('sum', 'prod', 'any', 'all', 'mean') or not is_bool(v.dtype)), bools=True)
        if a is None:
            return None
        if not is_int(a.dtype) and op in ('any', 'all', 'argmax', 'argmin', 'prod'):
            return None  # floats: see --profile vocab
        rank = a.val.ndim
        cpp_axes, axis = self.axes_spec(rank)
        if op.startswith('arg') and isinstance(axis, tuple):
            cpp_axes, axis = [cpp_axes[0]], int(cpp_axes[0])
        keep = not op.startswith('arg') and self.rng.random() < 0.4
        v, fv = a.val, np.asarray(a.val, dtype=np.float64)
        n = a.val.size if axis is None else int(np.prod([a.shape[x] for x in np.atleast_1d(axis)]))
        # NumPy's sum and prod of bool and of integers narrower than 64 bits: int64 (uint64 unsigned)
        wide = a.dtype if not (is_bool(a.dtype) or is_int(a.dtype)) else \
            np.dtype('uint64' if a.dtype.kind == 'u' else 'int64')
        err = 0.0
        with np.errstate(all='ignore'):
            if op in ('sum', 'prod'):
                if is_int(a.dtype):  # in 64 bits, wrapping there (NumPy's np.sum(a) of any integer)
                    obj = np.asarray(v).astype(object)
                    t = (np.sum if op == 'sum' else np.prod)(obj, axis=axis, keepdims=keep)
                    r = np.asarray(np.frompyfunc(lambda t: wrap_int(int(t), wide), 1, 1)(t)).astype(wide)
                else:
                    if op == 'prod':
                        return None
                    r = np.asarray(np.sum(v, axis=axis, keepdims=keep))
                    err = (np.sum(np.broadcast_to(a.err, a.shape), axis=axis, keepdims=keep)
                           + (n + 1) * unit(r.dtype) * np.sum(np.abs(fv), axis=axis, keepdims=keep))
            elif op in ('max', 'min'):
                r = (np.max if op == 'max' else np.min)(v, axis=axis, keepdims=keep)
                err = np.max(np.broadcast_to(a.err, a.shape), axis=axis, keepdims=keep)
            elif op == 'mean':  # float64, the exact mean rounded
                obj = np.asarray(v).astype(object) if is_int(a.dtype) else None
                if obj is None:
                    r = np.mean(v, axis=axis, keepdims=keep)
                else:
                    from fractions import Fraction
                    t = np.sum(np.asarray(v).astype(object) if not is_bool(a.dtype) else np.asarray(v).astype(int).astype(object),
                               axis=axis, keepdims=keep)
                    r = np.asarray(np.frompyfunc(lambda t: float(Fraction(int(t), n)), 1, 1)(t)).astype(np.float64)
                err = (np.sum(np.broadcast_to(a.err, a.shape), axis=axis, keepdims=keep) / n
                       + (n + 2) * unit(np.float64 if is_int(a.dtype) else a.dtype)
                       * np.sum(np.abs(fv), axis=axis, keepdims=keep) / n)
            elif op in ('any', 'all'):
                r = (np.any if op == 'any' else np.all)(v, axis=axis, keepdims=keep)
            else:
                r = np.asarray((np.argmax if op == 'argmax' else np.argmin)(v, axis=axis), dtype=np.int64)
        if keep:
            cpp_axes = cpp_axes + ['ip::keepdims'] if cpp_axes else ['ip::keepdims']
        name = {'sum': 'reduce_sum', 'max': 'reduce_max', 'min': 'reduce_min', 'mean': 'reduce_mean',
                'prod': 'reduce_prod', 'any': 'reduce_any', 'all': 'reduce_all', 'argmax': 'argmax',
                'argmin': 'argmin'}[op]
        cpp = 'ip::%s%s(%s)' % (name, '<%s>' % ', '.join(cpp_axes) if cpp_axes else '', a.cpp)
        exact = is_int(np.asarray(r).dtype) or is_bool(np.asarray(r).dtype)
        node = self.add(cpp, r, err, [a], exact=exact and a.exact)
        if node is not None and keep and is_int(node.dtype) and not is_bool(node.dtype) and self.rng.random() < 0.6:
            # broadcast it back: a - reduce_max<-1, ip::keepdims>(a) (a stored value beside another)
            dt = self.common(a, node)
            r2 = self.int_apply('-', self.convert(a, dt), self.convert(node, dt), dt)
            if dt.kind == 'f':
                return None
            return self.add('(%s - %s)' % (a.cpp, node.cpp), r2, 0.0, [a, node], exact=node.exact)
        return node

    def op_icast(self):
        a = self.pick(lambda v: v.kind != 'const', bools=True)
        if a is None:
            return None
        t = self.rng.choice(list(INT_CXX))
        dt = INT_CXX[t]
        fv = np.asarray(a.val, dtype=np.float64)
        if dt.kind in 'iu' and not is_int(a.dtype):
            # float -> integer truncates; out of range is undefined (as in C++): avoid it and the jumps
            info = np.iinfo(dt)
            tr = np.trunc(fv)
            if np.any(tr < info.min) or np.any(tr > info.max) or np.any(np.abs(fv) + a.err > 2.0 ** 62):
                return None
            if self.uncertain(fv, a.err, lambda u: np.where(np.abs(u) < 1, 1.0, np.abs(u - np.round(u)))):
                return None
            r, err = np.asarray(a.val).astype(dt), 0.0
        elif dt.kind == 'b':
            if not a.exact:
                return None
            r, err = np.asarray(a.val) != 0, 0.0
        else:
            with np.errstate(all='ignore'):
                r = np.asarray(a.val).astype(dt)
            err = 0.0 if dt.kind in 'iu' else np.asarray(a.err, dtype=np.float64) + self.rounding(r)
        return self.add('ip::cast<%s>(%s)' % (t, a.cpp), r, err, [a], exact=dt.kind != 'f' and a.exact)

    def op_iinplace(self):
        """add/sub/mul_inplace, apply(inplace_op<sub, 1>), sum_inplace, neg/abs/square_inplace
        on integers, views of them too (a transposed or sliced int8 view): the result
        keeps the destination's dtype, so the partner promotes no further."""
        d = self.pick(lambda v: v.kind in ('input', 'node') and not self.stale(v) and not v.readonly
                      and is_int(v.dtype) and not is_bool(v.dtype))
        if d is None:
            return None
        dt = d.dtype
        op = self.rng.choice(['add', 'sub', 'mul', 'sub1', 'add', 'sum', 'neg', 'abs', 'square'])
        if op in ('neg', 'abs', 'square'):
            with np.errstate(all='ignore'):
                r = {'neg': np.negative, 'abs': np.abs, 'square': lambda t: np.multiply(t, t)}[op](d.val)
            root = self.destroyed(d)
            return self.add('ip::%s_inplace(%s)' % (op, d.cpp), np.asarray(r).astype(dt), 0.0, [d], root=root,
                            exact=d.exact)
        others = []
        for _ in range(self.rng.randint(1, 2) if op == 'sum' else 1):
            o = self.int_partner(d, into=True)
            if o.kind == 'const' and isinstance(o.val, float):
                return None
            if self.common(d, o) != dt:
                return None
            others.append(o)
        r = self.convert(d, dt)
        for o in others:
            O = self.convert(o, dt)
            if op == 'sub1':
                r = self.int_apply('-', O, r, dt)
            else:
                r = self.int_apply({'add': '+', 'sum': '+', 'sub': '-', 'mul': '*'}[op], r, O, dt)
        r = np.asarray(r)
        if r.shape != d.shape:
            return None
        o = others[0]
        if op == 'sub1':
            cpp = 'ip::apply(ip::ops::inplace_op<ip::ops::sub, 1>{}, %s, %s)' % (o.cpp, d.cpp)
        elif op == 'sum':
            cpp = 'ip::sum_inplace(%s)' % ', '.join([d.cpp] + [v.cpp for v in others])
        else:
            cpp = 'ip::%s_inplace(%s, %s)' % (op, d.cpp, o.cpp)
        root = self.destroyed(d)
        return self.add(cpp, r, 0.0, [d] + others, root=root, exact=d.exact and all(v.exact for v in others))

    def op_isum(self):
        """ip::sum(a, b, ...): NumPy's a + b + ..., left to right (each + its own promotion)."""
        a = self.pick(lambda v: v.kind != 'const' and is_int(v.dtype) and not is_bool(v.dtype))
        if a is None:
            return None
        args, r, dt = [a], np.asarray(a.val), a.dtype
        for _ in range(self.rng.randint(1, 3)):
            b = self.int_partner(a)
            if b.kind == 'const' and isinstance(b.val, float) or b.kind != 'const' and not is_int(b.dtype):
                continue
            acc = Value('acc', r, np.zeros(()), 'node')
            dt2 = self.common(acc, b)
            if dt2.kind not in 'iu' or broadcast(r.shape, b.shape) is None:
                continue
            r = self.int_apply('+', self.convert(acc, dt2), self.convert(b, dt2), dt2)
            dt = dt2
            args.append(b)
        if len(args) < 2:
            return None
        # The library converts every operand to the common dtype of all first
        # (sum(i8, i8, i16) adds in int16; NumPy's i8 + i8 wraps in int8): only
        # sums whose first addition already has the final dtype.
        if self.common(a, args[1]) != dt:
            return None
        return self.add('ip::sum(%s)' % ', '.join(v.cpp for v in args), r, 0.0, args,
                        exact=all(v.exact for v in args))

    def op_idot(self):
        """dot of integer vectors/matrices: the common dtype, wrapping."""
        cands = []
        for p in self.pool:
            if p.kind == 'const' or not 1 <= p.val.ndim <= 2 or is_bool(p.dtype) or not is_int(p.dtype):
                continue
            for q in self.pool:
                if q.kind == 'const' or not 1 <= q.val.ndim <= 2 or is_bool(q.dtype) or not is_int(q.dtype):
                    continue
                if p.shape[-1] == q.shape[0]:
                    cands.append((p, q))
        if not cands:
            return None
        p, q = self.rng.choice(cands)
        dt = np.promote_types(p.dtype, q.dtype)
        if dt.kind == 'f':
            return None
        t = np.dot(np.asarray(p.val).astype(object), np.asarray(q.val).astype(object))
        r = np.asarray(np.frompyfunc(lambda t: wrap_int(int(t), dt), 1, 1)(t)).astype(dt)
        return self.add('ip::dot(%s, %s)' % (p.cpp, q.cpp), r, 0.0, [p, q], exact=p.exact and q.exact)


OPS = [('binary', 30), ('unary', 14), ('inplace_binary', 16), ('inplace_unary', 8), ('sum', 5), ('where', 4),
       ('view', 22), ('dot', 5), ('reduce', 6), ('softmax', 4)]
PROFILE = [OPS]
INT_FLOAT = [False]
INPLACE_MATH = [False]  # --inplace-math
MAX_NODES = [10]  # --nodes: the most nodes a graph draws (10 gives the committed files)

# --profile inplace: mostly in-place ops and views (on inputs, views of them, broadcasts)
OPS_INPLACE = [('binary', 14), ('unary', 6), ('inplace_binary', 30), ('inplace_unary', 14), ('sum', 6), ('where', 4),
               ('view', 30), ('dot', 4), ('reduce', 4), ('softmax', 3)]

# --profile vocab: the newer vocabulary beside the older ops
OPS_VOCAB = [('binary', 14), ('unary', 6), ('inplace_binary', 6), ('inplace_unary', 3), ('sum', 2), ('where', 8),
             ('view', 12), ('dot', 2), ('reduce', 3), ('softmax', 2), ('compare', 10), ('logical', 5), ('math', 14),
             ('cast', 5), ('reduction', 14), ('matmul', 6), ('concat', 6), ('constant', 4), ('update', 2)]


# --profile ints: small and unsigned integers beside each other, bool and weak ints
OPS_INTS = [('ibinary', 30), ('iunary', 10), ('icompare', 9), ('iwhere', 6), ('ireduce', 12), ('icast', 8),
            ('iinplace', 14), ('isum', 3), ('view', 16), ('logical', 2), ('idot', 2)]


def make_candidate(seed, index):
    rng = random.Random('%d-%d' % (seed, index))
    g = Graph(rng)
    names = rng.sample(INPUT_ORDER, rng.choice([1, 2, 2, 3, 3, 3, 4]))
    names.sort(key=INPUT_ORDER.index)
    if rng.random() < 0.5:
        rng.shuffle(names)
    g.data = {}
    for nm in names:
        val = input_data(nm, rng)
        g.data[nm] = val
        g.version[nm] = 0
        kind = 'scalar' if INPUTS[nm][3] is None else 'input'
        g.inputs.append(nm)
        g.pool.append(Value(nm, val, np.zeros(np.shape(val)), kind, exact=True, root=(nm, 0)))
        g.pool[-1].static = nm in STATIC
    if all(INPUTS[nm][3] is None for nm in names):  # scalars only
        return None
    steps = rng.randint(4, MAX_NODES[0])
    tries = 0
    while g.n < steps and tries < 8 * MAX_NODES[0]:
        tries += 1
        kinds, weights = zip(*PROFILE[0])
        getattr(g, 'op_' + rng.choices(kinds, weights)[0])()
    if g.n == 0:
        return None
    prune(g, rng)
    # the flatten of an input (or a view of it) as an output: with a strided argument the call
    # throws shape_error (docs/running.md), which the strided-views run would count as a failure
    if any(getattr(v, 'flat_input', False) for v in g.outputs):
        return None
    return g


def prune(g, rng):
    """Outputs: the last node, up to 2 other sinks, now and then an input or a
    view; never a stale value (destroyed later). Then drops unneeded nodes."""
    nodes = [v for v in g.pool if v.kind == 'node']
    used = set().union(*g.uses.values()) if g.uses else set()
    fresh = [v for v in g.pool if not g.stale(v)]
    sinks = [v for v in nodes[:-1] if v.cpp not in used and not g.stale(v)]
    rng.shuffle(sinks)
    outs = [] if g.stale(nodes[-1]) else [nodes[-1]]
    outs += sinks[:rng.choice([0, 1, 2, 2])]
    if rng.random() < 0.2:
        c = [v for v in fresh if v not in outs]
        if c:
            outs.append(rng.choice(c))
    if not outs:
        outs = [fresh[-1]] if fresh else []
    if not outs:
        g.outputs = []
        return
    g.outputs = outs
    need, todo = set(), [v.cpp for v in outs]
    while todo:
        n = todo.pop()
        if n in need:
            continue
        need.add(n)
        todo += list(g.uses.get(n, ()))
    keep = []
    for line in g.lines:
        name = line[len('constexpr auto '):].split(' = ', 1)[0]
        if name in need:
            keep.append(line)
    g.lines = keep
    g.inputs = [nm for nm in g.inputs if nm in need or rng.random() < 0.2]
    if not g.inputs:
        g.inputs = [g.pool[0].cpp] if g.pool[0].kind in ('input', 'scalar') else ['x']
        if g.inputs[0] not in g.data:
            g.data[g.inputs[0]] = input_data(g.inputs[0], rng)


# ---- C++ ---------------------------------------------------------------------------------
def num(v, dt=None):
    if INTS[0] and dt is not None and np.dtype(dt).kind in 'iub':  # exact: a long double literal
        return '%d.0L' % int(v)
    v = float(v)
    s = repr(v)
    return s if ('.' in s or 'e' in s or 'n' in s) else s + '.0'


def arg_source(name, val):
    decl, shape, dt, make = INPUTS[name]
    if make is None:
        if INTS[0]:
            return '%s(%d)' % (CXX_DTYPE[np.dtype(dt)], int(val))
        return '%s(%s)' % (CXX_DTYPE[np.dtype(dt)], num(val))
    return 'nf::fill(%s, {%s})' % (make, ', '.join(num(v, dt) for v in np.ravel(val)))


def expected_source(v):
    val = np.asarray(v.val)
    tol = 4 * np.asarray(v.err, dtype=np.float64) + (0.0 if is_int(val.dtype) else 1e-300)
    return 'nf::expected{"%s", {%s}, {%s}, {%s}}' % (
        CXX_DTYPE[val.dtype], ', '.join(str(e) for e in val.shape),
        ', '.join(num(x, val.dtype) for x in np.ravel(val)), ', '.join('%.3g' % t for t in np.ravel(tol)))


def graph_source(g, ns):
    body = ['namespace %s {' % ns]
    body += g.lines
    body.append('constexpr auto in = ip::inputs(%s);' % ', '.join(g.inputs))
    body.append('constexpr auto out = ip::outputs(%s);' % ', '.join(v.cpp for v in g.outputs))
    return body


def preamble():
    src = []
    for nm in INPUT_ORDER:
        src.append('[[maybe_unused]] constexpr auto %s = %s;' % (nm, INPUTS[nm][0]))
    return src


def probe_source(cands):
    src = ['#include <inplace.hpp>', '#include <cstdio>', 'namespace ip = inplace;', 'using namespace ip::literals;',
           'namespace {'] + preamble()
    for i, g in cands:
        src += graph_source(g, 'c%d' % i)
        src.append('constexpr auto v = ip::check(in, out);')
        src.append('}')
    src.append('}')
    src.append('int main() {')
    for i, _ in cands:
        src.append('  std::printf("%d %%d %%d\\n", int(c%d::v.ok), int(c%d::v.error));' % (i, i, i))
    src.append('}')
    return '\n'.join(src) + '\n'


def probe(cands, cxx, tmp, log):
    if not cands:
        return {}
    path, exe = os.path.join(tmp, 'probe.cpp'), os.path.join(tmp, 'probe')
    with open(path, 'w') as f:
        f.write(probe_source(cands))
    r = subprocess.run([cxx, '-std=c++20', '-O0', '-I', os.path.join(ROOT, 'include'), path, '-o', exe],
                       capture_output=True, text=True)
    if r.returncode != 0:
        if len(cands) == 1:
            i, g = cands[0]
            log.write('candidate %d does not compile under ip::check:\n    %s\n' % (i, '\n    '.join(g.lines)))
            for l in [l for l in r.stderr.splitlines() if 'error' in l][:3]:
                log.write('    %s\n' % l[:400])
            return {}
        h = len(cands) // 2
        res = probe(cands[:h], cxx, tmp, log)
        res.update(probe(cands[h:], cxx, tmp, log))
        return res
    out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    res = {}
    for line in out.split('\n'):
        if line.strip():
            i, ok, err = map(int, line.split())
            res[i] = (ok, err)
    return res


def test_file(graphs, args):
    cmd = '/usr/bin/python3 scripts/gen_numpy_fuzz.py --seed %d --candidates %d --files %d --per-file %d' % (
        args.seed, args.candidates, args.files, args.per_file)
    if args.profile != 'mixed':
        cmd += ' --profile %s --name %s' % (args.profile, args.name)
    if args.int_float:
        cmd += ' --int-float'
    if args.inplace_math:
        cmd += ' --inplace-math'
    if args.nodes != 10:
        cmd += ' --nodes %d' % args.nodes
    if args.first != 1:
        cmd += ' --first %d' % args.first

    out = ['// GENERATED by scripts/gen_numpy_fuzz.py (NumPy %s): do not edit; regenerate with' % np.__version__,
           '//   ' + cmd,
           '// Random legal graphs with mixed dtypes, scalar inputs, weak constants, views on any',
           '// axis and broadcasts, run under every donation pattern, with ip::no_rewrite, with',
           '// strided arguments and in debug mode; NumPy computed the expected dtypes and values',
           '// (tolerance per element: 4 x a bound on the rounding error of the terms).',
           '#include "random_numpy.hpp"', '', 'namespace ip = inplace;', 'using namespace ip::literals;', '',
           'namespace {'] + preamble() + ['']
    cases = []
    for gid, g in graphs:
        ns = 'g%d' % gid
        out += graph_source(g, ns)
        out.append('constexpr bool ok = ip::check(in, out).ok;')
        out.append('constexpr auto f = ip::function(in, out);')
        out.append('constexpr auto fn = ip::function(in, out, ip::no_rewrite);')
        out.append('const std::vector<nf::expected> want = {')
        for v in g.outputs:
            out.append('    %s,' % expected_source(v))
        out.append('};')
        out.append('}  // namespace %s' % ns)
        out.append('')
        label = '%s %d' % (args.name, gid)
        args_src = ',\n      '.join(arg_source(nm, g.data[nm]) for nm in g.inputs)
        cases.append('TEST_CASE("%s", "[run][random][numpy]") {\n  nf::run<%s::ok>("%s", %s::f, %s::fn, %s::want,\n      %s);\n}'
                     % (label, ns, label, ns, ns, ns, args_src))
    out.append('}  // namespace')
    out.append('')
    out += cases
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seed', type=int, default=20261125)
    ap.add_argument('--candidates', type=int, default=80)
    ap.add_argument('--files', type=int, default=5)
    ap.add_argument('--per-file', type=int, default=6)
    ap.add_argument('--batch', type=int, default=60)
    ap.add_argument('--cxx', default='g++')
    ap.add_argument('--out', default=os.path.join(ROOT, 'tests', 'run'))
    ap.add_argument('--name', default='random_numpy')
    ap.add_argument('--first', type=int, default=1, help='number of the first file written')
    ap.add_argument('--no-probe', action='store_true')
    ap.add_argument('--profile', choices=['mixed', 'inplace', 'vocab', 'ints'], default='mixed')
    ap.add_argument('--int-float', action='store_true', help='also int beside float tensors (NumPy: float64)')
    ap.add_argument('--inplace-math', action='store_true', help='vocab: math functions now and then in place (local runs)')
    ap.add_argument('--nodes', type=int, default=10, help='most nodes a graph draws (at least 4; larger graphs for local runs)')
    args = ap.parse_args()
    if args.profile == 'inplace':
        PROFILE[0] = OPS_INPLACE
    elif args.profile == 'vocab':
        PROFILE[0] = OPS_VOCAB
    elif args.profile == 'ints':
        global INPUTS, INPUT_ORDER, STATIC
        PROFILE[0], INTS[0] = OPS_INTS, True
        INPUTS, INPUT_ORDER, STATIC = INPUTS_INTS, INPUT_ORDER_INTS, STATIC_INTS
        CXX_DTYPE.update({dt: t for t, dt in INT_CXX.items()})
        DTYPES[0] = set(CXX_DTYPE)
    INT_FLOAT[0] = args.int_float
    MAX_NODES[0] = max(4, args.nodes)
    INPLACE_MATH[0] = args.inplace_math
    cands = []
    for i in range(args.candidates):
        g = make_candidate(args.seed, i)
        if g is not None and g.outputs:
            cands.append((i, g))
    legal, errors = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for b in range(0, len(cands), args.batch):
            chunk = cands[b:b + args.batch]
            res = {i: (1, 0) for i, _ in chunk} if args.no_probe else probe(chunk, args.cxx, tmp, sys.stderr)
            for i, g in chunk:
                if i in res:
                    ok, err = res[i]
                    errors[err] = errors.get(err, 0) + 1
                    if ok:
                        legal.append((i, g))
            sys.stderr.write('probed %d/%d candidates, %d legal\n' % (min(b + args.batch, len(cands)), len(cands), len(legal)))
    sys.stderr.write('error kinds (ip::error_kind as int: count): %s\n' % sorted(errors.items()))
    need = args.files * args.per_file
    if len(legal) < need:
        sys.stderr.write('only %d legal graphs for %d files x %d\n' % (len(legal), args.files, args.per_file))
    legal = legal[:need]
    os.makedirs(args.out, exist_ok=True)
    for k in range(args.files):
        part = legal[k * args.per_file:(k + 1) * args.per_file]
        if not part:
            break
        path = os.path.join(args.out, '%s_%d.cpp' % (args.name, args.first + k))
        with open(path, 'w') as f:
            f.write(test_file(part, args))
        sys.stderr.write('wrote %s (%d graphs)\n' % (path, len(part)))


if __name__ == '__main__':
    main()
