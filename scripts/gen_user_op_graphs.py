#!/usr/bin/python3
"""Generates random user ops placed in random graphs, and the tests that run them.

    /usr/bin/python3 scripts/gen_user_op_graphs.py       # from the repository root

writes tests/run/random_userops_<k>.cpp (k = 1 .. --files). Run by hand, not
by CMake: the generated files are committed. Needs NumPy (the oracle) and g++
(or --cxx) to compile the legality probe. The same --seed, --candidates,
--files and --per-file (and the same library, which decides which candidates
are legal) give the same files.

How it works
  1. User ops. Every candidate graph defines 2 to 4 op classes of its own, each
     from its own random draw (namespace uo_<file>, class g<graph>_<op>):
       - opaque ops of 1 to 4 inputs and 1 to 3 outputs (now and then up to 8),
         one rank (1 or 2), all inputs of the same extents. Output o is
             sum_k c_ok * g_ok(P_ok(input k))
         with g the identity or tanh and P the identity or the reversal of
         the first axis (so an output over an input must not be written before
         the input is read). The kernel loads every input first, computes
         every output, then stores (out-parameter form; a one-output op
         sometimes returns its result instead). A destroy_map {o: [j]} puts
         output o in input j's storage (an explicit in-place op); a second
         listed input, {o: [j, k]}, is overwritten with junk by the kernel, as
         the contract allows.
       - elementwise ops (one output, operator()(scalars...)), pure or with a
         destroy_map {0: [j]} on any input j.
       - view ops of 1 to 3 outputs (now and then 4 or 8), each output a view
         of any input (view_map {o: [j]}): the identity, a slice (any step) or
         the reversal of the first axis; the view function is
         `template <std::size_t O> static auto view(v)` (always with several
         outputs) or `static auto view(v)`. (An op with view and computed
         outputs does not run in a graph: not generated.)
     A pure op registers in-place variants on some of its inputs:
     ip::inplace_variant_traits<Op, i> names a class derived from Op (the
     same kernel, so honest by construction) whose destroy_map {o: [i]} puts
     output o (any output, not only 0) over input i; an elementwise op
     registers either such a class or the generic ip::ops::inplace_op<Op, i>.
  2. Graphs. 1 to 3 float inputs among x, y (dynamic, 7), s (extents<7>),
     A (dynamic, 5 x 7), B (extents<5, 7>), then 4 to 9 nodes over the values
     made so far (shared subexpressions): the user ops (now and then given one
     value at two inputs; an elementwise one also values that broadcast into
     its input 0's extents, and constants), + - * with constants and broadcasting, tanh,
     ip::slice/reverse/transpose, ip::add_inplace/mul_inplace/tanh_inplace,
     ip::dot and ip::reduce_sum. A destroyed value's storage (its root) is not
     read afterwards, so most candidates are legal; |values| stay below 8
     (tanh squashes bigger ones). 1 to 3 outputs.
  3. NumPy evaluates every graph in double (each node a pure function of its
     inputs: an in-place node is a value, as in the graph's semantics); inputs
     (multiples of 1/64 in [-1, 1]) and expected outputs are embedded.
  4. Legality: every candidate's ip::check(...) is compiled into one probe
     program and printed; only legal graphs are kept.
  5. Tests (tests/run/user_op_graphs.hpp, uo::run): every graph runs under every
     donation pattern of its arguments, with ip::no_rewrite borrowed and
     donated, and once in debug mode (everything donated); outputs are compared
     with NumPy's (1e-4 + 1e-4 |want|), borrowed arguments must be unchanged.
  6. Known failures: graphs listed in KNOWN_FAILING (library bugs these tests
     found) are generated in TEST_CASEs tagged [!mayfail], or left out if
     their call does not compile.

Run many more graphs than are committed, e.g.
    /usr/bin/python3 scripts/gen_user_op_graphs.py --seed 7 --candidates 110 \
        --files 8 --per-file 12 --first 101
and build them (the clang preset builds every generated file but one per generator;
-DINPLACE_TEST_SET=all builds them all), then delete them.

Options: --seed, --candidates, --files, --per-file, --first, --name, --cxx,
--out, --destroy, --nodes, --no-probe (skip the legality probe: only for
debugging the generator).
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Graphs of the committed files that fail because of library bugs, by
# "<seed>-<candidate index>": kind ('run': its TEST_CASE is tagged [!mayfail];
# 'compile': its call does not compile, so the graph is left out of the file
# and named in its header) and what goes wrong.
KNOWN_FAILING = {
}

INPUTS = {
    'x': ((7,), 'ip::input<"x", float>', 'uo::vec({%s})'),
    'y': ((7,), 'ip::input<"y", float>', 'uo::vec({%s})'),
    's': ((7,), 'ip::input<"s", float, ip::extents<7>>', 'uo::svec<7>({%s})'),
    'A': ((5, 7), 'ip::input<"A", float, 2>', 'uo::mat(5, 7, {%s})'),
    'B': ((5, 7), 'ip::input<"B", float, ip::extents<5, 7>>', 'uo::mat(5, 7, {%s})'),
}
INPUT_ORDER = ['x', 'y', 's', 'A', 'B']
CONSTANTS = ['2.0', '0.5', '1.5', '0.25']
COEFS = [0.5, -1.0, 0.25, 1.5, -0.5, 0.75]
BOUND = 8.0
# --destroy (share of explicit in-place user ops) and --nodes (most nodes a graph draws)
KNOBS = {'destroy': 0.35, 'nodes': 9}



def fnum(v):
    s = repr(float(v))
    return s if ('.' in s or 'e' in s or 'n' in s) else s + '.0'


def ffloat(v):
    return fnum(v) + 'f'


def slice_len(n, b, e, s):
    return len(range(*slice(b, e, s).indices(n)))


# ---- user ops ------------------------------------------------------------------------
class Term:
    def __init__(self, k, c, fn, rev):
        self.k, self.c, self.fn, self.rev = k, c, fn, rev

    def np(self, ins):
        a = ins[self.k]
        if self.rev:
            a = a[::-1]
        if self.fn == 'tanh':
            a = np.tanh(a)
        return self.c * a


class UserOp:
    """kind: 'opaque' (some outputs may be views: a mixed op), 'elementwise' or 'view'."""

    def __init__(self, rng, name, rank, kind):
        self.rng, self.name, self.rank, self.kind = rng, name, rank, kind
        self.n_in = rng.choice([1, 2, 2, 3, 3, 4])
        self.destroy = {}       # output -> [inputs]
        self.views = {}         # output -> (input, transform): the view_map
        self.templated = False  # the view function is template <std::size_t O>
        self.variants = {}      # input -> (output, 'own' | 'generic')
        self.returns = False    # the kernel returns its result
        self.terms = {}         # computed output -> [Term]
        if kind == 'elementwise':
            self.n_out = 1
        elif rng.random() < 0.3:
            self.n_out = rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 8])
        else:
            self.n_out = rng.choice([1, 2, 3])
        if kind == 'view':
            viewed = range(self.n_out)
        elif kind == 'opaque' and self.n_out > 1 and rng.random() < 0.3:  # mixed
            viewed = rng.sample(range(self.n_out), rng.randrange(1, self.n_out))
        else:
            viewed = []
        for o in viewed:
            t = rng.choice(['id', 'rev', 'slice', 'slice'])
            if t == 'slice':
                t = ('slice', rng.choice([0, 1, 2, -3]), rng.choice([None, 5, -1]), rng.choice([1, 2, -1, -2]))
            self.views[o] = (rng.randrange(self.n_in), t)
        self.templated = bool(self.views) and (self.n_out > 1 or rng.random() < 0.3)
        first = True
        for o in self.computed():
            ks = sorted(set(rng.randrange(self.n_in) for _ in range(rng.choice([1, 2, 2, 3]))))
            if first:  # every input read by some output
                ks = list(range(self.n_in))
                first = False
            self.terms[o] = [Term(k, rng.choice(COEFS), rng.choice(['id', 'id', 'tanh']),
                                  kind == 'opaque' and rng.random() < 0.3) for k in ks]
        self.returns = kind == 'opaque' and self.n_out == 1 and rng.random() < 0.3

    def computed(self):
        return [o for o in range(self.n_out) if o not in self.views]

    def bound(self, o, in_bounds):
        if o in self.views:
            return in_bounds[self.views[o][0]]
        return sum(abs(t.c) * (min(1.0, in_bounds[t.k]) if t.fn == 'tanh' else in_bounds[t.k]) for t in self.terms[o])

    def out_shape(self, o, shape):
        if o in self.views and isinstance(self.views[o][1], tuple):
            _, b, e, s = self.views[o][1]
            return (slice_len(shape[0], b, e, s),) + tuple(shape[1:])
        return tuple(shape)

    def np(self, ins):
        outs = []
        for o in range(self.n_out):
            if o in self.views:
                j, t = self.views[o]
                a = ins[j]
                if t == 'rev':
                    a = a[::-1]
                elif isinstance(t, tuple):
                    a = a[slice(t[1], t[2], t[3])]
            else:
                a = np.zeros(np.broadcast_shapes(*[np.shape(x) for x in ins]))
                for t in self.terms[o]:
                    a = a + t.np(ins)
            outs.append(a)
        return outs

    # -- C++ --------------------------------------------------------------------
    def maps_cpp(self, destroy, views):
        lines = []
        if views:
            pairs = ', '.join('hana::make_pair(hana::int_c<%d>, hana::tuple_c<int, %d>)' % (o, j)
                              for o, (j, _) in sorted(views.items()))
            lines.append('  static constexpr auto view_map = hana::make_map(%s);' % pairs)
        if destroy:
            pairs = ', '.join('hana::make_pair(hana::int_c<%d>, hana::tuple_c<int, %s>)'
                              % (o, ', '.join(str(j) for j in js)) for o, js in sorted(destroy.items()))
            lines.append('  static constexpr auto destroy_map = hana::make_map(%s);' % pairs)
        return lines

    def term_cpp(self, t, scalar):
        if scalar:
            a = 'a%d' % t.k
            a = 'std::tanh(%s)' % a if t.fn == 'tanh' else a
            return 'T(%s) * %s' % (fnum(t.c), a)
        idx = 'uo::rev0(i%d, i)' % t.k if t.rev else 'i'
        a = 'a%d[%s]' % (t.k, idx)
        a = 'std::tanh(%s)' % a if t.fn == 'tanh' else a
        return '%s * %s' % (fnum(t.c), a)

    def shape_rule(self):
        n = self.n_in
        rules = []  # (output or None for the rest, expression)
        for o in range(self.n_out):
            if o in self.views:
                j, t = self.views[o]
                if isinstance(t, tuple):
                    _, b, e, st = t
                    rules.append((o, 'uo::sliced(in[%d], %d, %s, %d)' % (j, b, 'uo::no_stop' if e is None else e, st)))
                else:
                    rules.append((o, 'in[%d]' % j))
            else:
                rules.append((o, 'in[0]'))
        if len(set(r for _, r in rules)) == 1:
            return ['  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, %d>& in) '
                    '{ return %s; }' % (n, rules[0][1])]
        L = ['  static constexpr ip::shape output_shape(std::size_t o, const std::array<ip::shape, %d>& in) {' % n]
        for o, r in rules[:-1]:
            L.append('    if (o == %d) return %s;' % (o, r))
        return L + ['    return %s;' % rules[-1][1], '  }']

    def view_cpp(self):
        bodies = []
        for o, (j, t) in sorted(self.views.items()):
            if t == 'id':
                bodies.append((o, 'v'))
            elif t == 'rev':
                bodies.append((o, 'ip::reverse(v)'))
            else:
                _, b, e, st = t
                bodies.append((o, 'ip::slice<%d, %s, %d>(v)' % (b, 'ip::end' if e is None else str(e), st)))
        if not self.templated:
            return ['  template <class V>', '  static auto view(const V& v) {', '    return %s;' % bodies[0][1], '  }']
        L = ['  template <std::size_t O, class V>  // output O, of the input view_map names for O',
             '  static auto view(const V& v) {']
        for k, (o, body) in enumerate(bodies):
            if k + 1 < len(bodies):
                L.append('    %sif constexpr (O == %d) return %s;' % ('' if k == 0 else 'else ', o, body))
            else:
                L.append('    %sreturn %s;' % ('else ' if k else '', body))
        return L + ['  }']

    def cpp(self):
        """The op class and its variants, and the registrations (separately)."""
        L = ['struct %s {' % self.name, '  static constexpr std::string_view name = "%s";' % self.name]
        if self.n_out > 1:
            L.append('  static constexpr std::size_t num_outputs = %d;' % self.n_out)
        L += self.maps_cpp(self.destroy, self.views)
        if self.kind == 'elementwise':
            L.append('  static constexpr bool elementwise = true;')
            L.append('  auto operator()(%s) const {' % ', '.join('auto a%d' % k for k in range(self.n_in)))
            L.append('    using T = decltype(a0);')
            L.append('    return %s;' % ' + '.join(self.term_cpp(t, True) for t in self.terms[0]))
            L.append('  }')
        else:
            L += self.shape_rule()
            if self.views:
                L += self.view_cpp()
            comp = self.computed()
        if self.kind == 'opaque':
            outs_t = ['class O%d' % o for o in comp]
            ins_t = ['class I%d' % k for k in range(self.n_in)]
            loads = ['    const auto a%d = uo::load(i%d);' % (k, k) for k in range(self.n_in)]
            compute = ['    std::vector<double> %s;' % ', '.join('r%d(a0.size())' % o for o in comp),
                       '    for (std::size_t i = 0; i < a0.size(); ++i) {']
            compute += ['      r%d[i] = %s;' % (o, ' + '.join(self.term_cpp(t, False) for t in self.terms[o]))
                        for o in comp]
            compute += ['    }']
            scribbles = ['    uo::scribble(i%d);' % j for o, js in sorted(self.destroy.items()) for j in js[1:]]
            if self.returns:
                L.append('  template <%s>' % ', '.join(ins_t))
                L.append('  auto kernel(%s) const {' % ', '.join('const I%d& i%d' % (k, k) for k in range(self.n_in)))
                L += loads + compute + scribbles
                L.append('    ip::tensor<float, %d> t(i0.extents());' % self.rank)
                L.append('    uo::store(t.view(), r0);')
                L.append('    return t;')
                L.append('  }')
            else:
                if self.views:
                    L.append('  // the outputs the view_map does not list (%s), then the inputs'
                             % ', '.join(str(o) for o in comp))
                L.append('  template <%s>' % ', '.join(outs_t + ins_t))
                L.append('  void kernel(%s) const {' % ', '.join(
                    ['const O%d& o%d' % (o, o) for o in comp] + ['const I%d& i%d' % (k, k) for k in range(self.n_in)]))
                L += loads + compute + scribbles
                L += ['    uo::store(o%d, r%d);' % (o, o) for o in comp]
                L.append('  }')
        L.append('};')
        reg = []
        for i, (o, how) in sorted(self.variants.items()):
            if how == 'generic':
                reg.append('template <>\nstruct ip::inplace_variant_traits<%s::%s, %d> {\n  using type = '
                           'ip::ops::inplace_op<%s::%s, %d>;\n};' % ('{ns}', self.name, i, '{ns}', self.name, i))
                continue
            vn = '%s_ip%d' % (self.name, i)
            L += ['struct %s : %s {  // output %d in the storage of input %d' % (vn, self.name, o, i),
                  '  static constexpr std::string_view name = "%s";' % vn]
            L += self.maps_cpp({o: [i]}, {})
            L.append('};')
            reg.append('template <>\nstruct ip::inplace_variant_traits<%s::%s, %d> {\n  using type = %s::%s;\n};'
                       % ('{ns}', self.name, i, '{ns}', vn))
        return L, reg


def make_op(rng, name, rank):
    kind = rng.choice(['opaque', 'opaque', 'opaque', 'elementwise', 'elementwise', 'view'])
    op = UserOp(rng, name, rank, kind)
    if kind == 'view':
        return op
    viewed = set(j for j, _ in op.views.values())  # an input a view output shows is never overwritten
    comp = op.computed()
    if rng.random() < KNOBS['destroy']:  # an explicit in-place op
        outs = [o for o in comp if rng.random() < 0.6] or comp[:1]
        free = [j for j in range(op.n_in) if j not in viewed]
        rng.shuffle(free)
        for o in outs:
            if not free:
                break
            js = [free.pop()]
            if kind == 'opaque' and free and rng.random() < 0.2:
                js.append(free.pop())
            op.destroy[o] = js
    else:  # registered variants
        for i in range(op.n_in):
            if i not in viewed and rng.random() < 0.6:
                o = rng.choice(comp)
                how = 'generic' if kind == 'elementwise' and rng.random() < 0.5 else 'own'
                op.variants[i] = (o, how)
    return op


# ---- graphs --------------------------------------------------------------------------
class Value:
    def __init__(self, cpp, shape, bound, root, arr, kind='node'):
        self.cpp, self.shape, self.bound, self.root, self.arr, self.kind = cpp, tuple(shape), bound, root, arr, kind


class Graph:
    def __init__(self, rng, index, ns):
        self.rng, self.index, self.ns = rng, index, ns
        self.ops = []
        self.lines = []
        self.pool = []
        self.dead = set()
        self.n = 0
        self.inputs = []
        self.data = {}

    def live(self, pred=lambda v: True):
        return [v for v in self.pool if v.root not in self.dead and pred(v)]

    def pick(self, pred=lambda v: True):
        c = self.live(pred)
        if not c:
            return None
        if self.rng.random() < 0.6:
            c = c[-3:]
        return self.rng.choice(c)

    def node(self, cpp, shape, bound, arr, root=None):
        name = 'n%d' % self.n
        self.n += 1
        self.lines.append('[[maybe_unused]] constexpr auto %s = %s;' % (name, cpp))
        v = Value(name, shape, bound, root or name, np.asarray(arr, dtype=np.float64))
        self.pool.append(v)
        return v

    def squash(self, v):
        if v.bound <= BOUND:
            return v
        return self.node('ip::tanh(%s)' % v.cpp, v.shape, 1.0, np.tanh(v.arr))

    def constant(self):
        c = self.rng.choice(CONSTANTS)
        return Value(c + '_c', (), float(c), None, np.float64(float(c)), 'const')

    # -- node kinds ---------------------------------------------------------------
    def user(self):
        op = self.rng.choice(self.ops)
        cands = self.live(lambda v: len(v.shape) == op.rank and min(v.shape) > 0)
        if not cands:
            return False
        shape = self.rng.choice(cands).shape
        same = [v for v in cands if v.shape == shape]
        destroyed = sorted(j for js in op.destroy.values() for j in js)
        args = [None] * op.n_in
        used_roots = set()
        for j in destroyed:
            c = [v for v in same if v.root not in used_roots and v.kind != 'const']
            if not c:
                return False
            args[j] = self.rng.choice(c[-4:])
            used_roots.add(args[j].root)
        for k in range(op.n_in):
            if args[k] is not None:
                continue
            c = [v for v in same if v.root not in used_roots or not destroyed]
            if not c:
                return False
            bcast = [v for v in self.live() if broadcastable(v.shape, shape) and
                     np.broadcast_shapes(v.shape, shape) == shape]
            bcast = [v for v in bcast if v.root not in used_roots] + [self.constant()]
            if not destroyed and k > 0 and self.rng.random() < 0.2:
                args[k] = self.rng.choice(args[:k])  # one value at two inputs
            elif op.kind == 'elementwise' and k > 0 and self.rng.random() < 0.3:
                args[k] = self.rng.choice(bcast)  # broadcast into input 0's extents, or a constant
            else:
                args[k] = self.rng.choice(c[-4:] if self.rng.random() < 0.6 else c)
        args = [self.squash(a) if a.bound > BOUND and a.kind != 'const' else a for a in args]
        outs = op.np([a.arr for a in args])
        call = 'ip::apply(%s{}, %s)' % (op.name, ', '.join(a.cpp for a in args))
        for j in destroyed:
            self.dead.add(args[j].root)
        if op.n_out == 1:
            root = args[op.views[0][0]].root if 0 in op.views else None
            self.node(call, op.out_shape(0, shape), op.bound(0, [a.bound for a in args]), outs[0], root)
            return True
        whole = 'n%d' % self.n
        self.n += 1
        self.lines.append('[[maybe_unused]] constexpr auto %s = %s;' % (whole, call))
        for o in range(op.n_out):
            name = '%s_%d' % (whole, o)
            self.lines.append('[[maybe_unused]] constexpr auto %s = hana::at_c<%d>(%s);' % (name, o, whole))
            root = args[op.views[o][0]].root if o in op.views else name
            self.pool.append(Value(name, op.out_shape(o, shape), op.bound(o, [a.bound for a in args]), root,
                                   np.asarray(outs[o], dtype=np.float64)))
        return True

    def binary(self):
        a = self.pick()
        if a is None:
            return False
        if self.rng.random() < 0.3:
            b = self.constant()
        else:
            b = self.pick(lambda v: broadcastable(a.shape, v.shape)) or self.constant()
        op = self.rng.choice(['+', '-', '*', 'add', 'mul'])
        if op == '*' or op == 'mul':
            a, b = self.squash(a), self.squash(b) if b.kind != 'const' else b
        shape = np.broadcast_shapes(a.shape, b.shape)
        r = {'+': np.add, '-': np.subtract, '*': np.multiply, 'add': np.add, 'mul': np.multiply}[op](a.arr, b.arr)
        bound = a.bound * b.bound if op in ('*', 'mul') else a.bound + b.bound
        cpp = '%s %s %s' % (a.cpp, op, b.cpp) if op in '+-*' else 'ip::%s(%s, %s)' % (op, a.cpp, b.cpp)
        self.node(cpp, shape, bound, r)
        return True

    def unary(self):
        a = self.pick(lambda v: v.kind != 'const')
        if a is None:
            return False
        self.node('ip::tanh(%s)' % a.cpp, a.shape, 1.0, np.tanh(a.arr))
        return True

    def view(self):
        a = self.pick(lambda v: len(v.shape) >= 1 and v.kind != 'const')
        if a is None:
            return False
        k = self.rng.choice(['slice', 'rev', 'T'] if len(a.shape) == 2 else ['slice', 'rev'])
        if k == 'rev':
            self.node('ip::reverse(%s)' % a.cpp, a.shape, a.bound, a.arr[::-1], a.root)
        elif k == 'T':
            self.node('ip::transpose(%s)' % a.cpp, a.shape[::-1], a.bound, a.arr.T, a.root)
        else:
            b, e, s = self.rng.choice([(1, None, 1), (0, None, 2), (None, None, -1), (-2, 0, -1), (1, -1, 1), (2, 5, 1)])
            n = slice_len(a.shape[0], b, e, s)
            if n == 0:
                return False
            tmpl = '%s, %s, %d' % ('0' if b is None and s > 0 else ('-1' if b is None else str(b)),
                                   'ip::end' if e is None else str(e), s)
            self.node('ip::slice<%s>(%s)' % (tmpl, a.cpp), (n,) + a.shape[1:], a.bound, a.arr[slice(b, e, s)], a.root)
        return True

    def inplace(self):
        a = self.pick(lambda v: v.kind != 'const' and len(v.shape) >= 1)
        if a is None:
            return False
        k = self.rng.choice(['add', 'mul', 'tanh'])
        if k == 'tanh':
            cpp, r, bound = 'ip::tanh_inplace(%s)' % a.cpp, np.tanh(a.arr), 1.0
        else:
            b = self.constant()
            if self.rng.random() < 0.5:
                b = self.pick(lambda v: v.root != a.root and v.kind != 'const' and
                              broadcastable(a.shape, v.shape) and np.broadcast_shapes(a.shape, v.shape) == a.shape) or b
            if k == 'mul':
                a = self.squash(a)
                b = self.squash(b) if b.kind != 'const' else b
                r, bound = a.arr * b.arr, a.bound * b.bound
            else:
                r, bound = a.arr + b.arr, a.bound + b.bound
            cpp = 'ip::%s_inplace(%s, %s)' % (k, a.cpp, b.cpp)
        self.dead.add(a.root)
        self.node(cpp, a.shape, bound, r)
        return True

    def reduce(self):
        a = self.pick(lambda v: len(v.shape) >= 1)
        if a is None:
            return False
        if len(a.shape) == 1 and self.rng.random() < 0.5:
            b = self.pick(lambda v: v.shape == a.shape)
            a, b = self.squash(a), self.squash(b)
            self.node('ip::dot(%s, %s)' % (a.cpp, b.cpp), (), a.bound * b.bound * a.shape[0], np.dot(a.arr, b.arr))
        elif len(a.shape) == 2 and self.rng.random() < 0.5:
            b = self.pick(lambda v: v.shape == (a.shape[1],))
            if b is None:
                return False
            a, b = self.squash(a), self.squash(b)
            self.node('ip::dot(%s, %s)' % (a.cpp, b.cpp), (a.shape[0],), a.bound * b.bound * a.shape[1],
                      np.dot(a.arr, b.arr))
        elif len(a.shape) == 2:
            ax = self.rng.choice([0, 1, -1])
            self.node('ip::reduce_sum<%d>(%s)' % (ax, a.cpp), tuple(e for i, e in enumerate(a.shape) if i != ax % 2),
                      a.bound * a.shape[ax], a.arr.sum(axis=ax))
        else:
            self.node('ip::reduce_sum(%s)' % a.cpp, (), a.bound * a.shape[0], a.arr.sum())
        return True


def broadcastable(a, b):
    try:
        np.broadcast_shapes(a, b)
        return True
    except ValueError:
        return False


def make_graph(seed, index, ns):
    rng = random.Random('%d-%d' % (seed, index))
    g = Graph(rng, index, ns)
    names = rng.sample(INPUT_ORDER, rng.choice([1, 2, 2, 3, 3]))
    names = [n for n in INPUT_ORDER if n in names]
    drng = np.random.default_rng(rng.randrange(1 << 30))
    for n in names:
        shape = INPUTS[n][0]
        data = drng.integers(-64, 65, size=shape) / 64.0
        g.inputs.append(n)
        g.data[n] = data
        g.pool.append(Value(n, shape, 1.0, n, data, 'input'))
    ranks = sorted(set(len(INPUTS[n][0]) for n in names))
    for k in range(rng.choice([2, 3, 3, 4])):
        g.ops.append(make_op(rng, 'g%d_%d' % (index, k), rng.choice(ranks)))
    target = rng.randrange(4, KNOBS['nodes'] + 1)
    tries = 0
    while g.n < target and tries < 60:
        tries += 1
        kind = rng.choices(['user', 'binary', 'unary', 'view', 'inplace', 'reduce'], [45, 15, 6, 14, 12, 8])[0]
        getattr(g, kind)()
    # outputs: the values nothing reads (so every node runs), then any others
    live = [v for v in g.live(lambda v: v.kind != 'const')]
    read = set()
    for line in g.lines:
        rhs = line.split('=', 1)[1]
        read.update(w for w in rhs.replace('(', ' ').replace(')', ' ').replace(',', ' ').split())
    sinks = [v for v in live if v.kind == 'node' and v.cpp not in read]
    rng.shuffle(sinks)
    outs = sinks[:rng.choice([1, 2, 3])]
    for _ in range(rng.choice([0, 0, 1])):
        if live:
            v = rng.choice(live)
            if v not in outs:
                outs.append(v)
    if not outs:
        return None
    g.outputs = outs
    return g


# ---- emitting ------------------------------------------------------------------------
def graph_decls(g):
    L = ['namespace %s {' % g_ns(g)]
    for n in g.inputs:
        L.append('[[maybe_unused]] constexpr auto %s = %s;' % (n, INPUTS[n][1]))
    L += g.lines
    ins = 'ip::inputs(%s)' % ', '.join(g.inputs)
    outs = 'ip::outputs(%s)' % ', '.join(v.cpp for v in g.outputs)
    return L, ins, outs


def g_ns(g):
    return 'g%d' % g.index


def ops_cpp(graphs, ns):
    L = ['namespace %s {' % ns]
    regs = []
    for g in graphs:
        for op in g.ops:
            body, reg = op.cpp()
            L += body
            regs += [r.replace('{ns}', ns) for r in reg]
    L.append('}  // namespace %s' % ns)
    return L + regs


PRELUDE = '''#include "user_op_graphs.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <string_view>
#include <vector>

namespace ip = inplace;
namespace hana = boost::hana;
using namespace ip::literals;
'''


def probe(graphs, cxx, ns='uo_probe'):
    """{graph index: (ok, error)} from ip::check of every graph."""
    L = [PRELUDE.replace('#include "user_op_graphs.hpp"', '#include "run/user_op_graphs.hpp"'),
         '#include <cstdio>']
    L += ops_cpp(graphs, ns)
    L.append('using namespace %s;' % ns)
    mains = []
    for g in graphs:
        decl, ins, outs = graph_decls(g)
        L += decl + ['constexpr auto chk = ip::check(%s, %s);' % (ins, outs), '}']
        mains.append('  std::printf("%d %%d %%d\\n", int(%s::chk.ok), int(%s::chk.error));' % (g.index, g_ns(g), g_ns(g)))
    L += ['int main() {'] + mains + ['}']
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, 'probe.cpp'), os.path.join(tmp, 'probe')
        with open(src, 'w') as f:
            f.write('\n'.join(L) + '\n')
        r = subprocess.run([cxx, '-std=c++20', '-O0', '-I', os.path.join(ROOT, 'include'), '-I',
                            os.path.join(ROOT, 'tests'), src, '-o', exe], capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stderr[:20000])
            kept = os.path.join(tempfile.gettempdir(), 'uo_probe.cpp')
            with open(kept, 'w') as f:
                f.write('\n'.join(L) + '\n')
            raise SystemExit('probe did not compile (source kept in %s)' % kept)
        out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    res = {}
    for line in out.split('\n'):
        if line.strip():
            i, ok, err = map(int, line.split())
            res[i] = (ok, err)
    return res


def arr_cpp(a):
    a = np.asarray(a, dtype=np.float64)
    return 'uo::want({%s}, {%s})' % (', '.join(str(e) for e in a.shape), ', '.join(fnum(v) for v in a.ravel()))


def write_file(path, graphs, ns, header, seed):
    known = {g.index: KNOWN_FAILING.get('%d-%d' % (seed, g.index)) for g in graphs}
    left_out = [g for g in graphs if known[g.index] and known[g.index][0] == 'compile']
    for g in left_out:
        header.append('// Left out: graph %d, whose call does not compile (a library bug): %s' % (g.index, known[g.index][1]))
    graphs = [g for g in graphs if g not in left_out]
    L = header + [PRELUDE] + ops_cpp(graphs, ns) + ['using namespace %s;' % ns, '']
    for g in graphs:
        decl, ins, outs = graph_decls(g)
        L += decl
        L.append('constexpr auto f = ip::function(%s, %s);' % (ins, outs))
        L.append('constexpr auto fn = ip::function(%s, %s, ip::no_rewrite);' % (ins, outs))
        L.append('}  // namespace %s' % g_ns(g))
        want = ', '.join(arr_cpp(v.arr) for v in g.outputs)
        args = ', '.join(INPUTS[n][2] % ', '.join(ffloat(v) for v in g.data[n].ravel()) for n in g.inputs)
        if known[g.index]:
            L.append('// A known library bug: %s' % known[g.index][1])
        L.append('TEST_CASE("%s: graph %d", "[run][random][userops]%s") {'
                 % (ns, g.index, '[!mayfail]' if known[g.index] else ''))
        L.append('  uo::run("%s graph %d", %s::f, %s::fn, {%s}, %s);' % (ns, g.index, g_ns(g), g_ns(g), want, args))
        L.append('}')
        L.append('')
    with open(path, 'w') as f:
        f.write('\n'.join(L))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--candidates', type=int, default=60)
    ap.add_argument('--files', type=int, default=3)
    ap.add_argument('--per-file', type=int, default=6)
    ap.add_argument('--first', type=int, default=1, help='number of the first file written')
    ap.add_argument('--name', default='random_userops')
    ap.add_argument('--cxx', default='g++')
    ap.add_argument('--out', default=os.path.join(ROOT, 'tests', 'run'))
    ap.add_argument('--no-probe', action='store_true')
    ap.add_argument('--destroy', type=float, default=0.35, help='share of explicit in-place user ops')
    ap.add_argument('--nodes', type=int, default=9, help='most nodes a graph draws (at least 4)')
    args = ap.parse_args()
    np.seterr(all='raise')
    KNOBS.update(destroy=args.destroy, nodes=max(4, args.nodes))
    cands = [g for g in (make_graph(args.seed, i, None) for i in range(args.candidates)) if g is not None]
    res = {g.index: (1, 0) for g in cands} if args.no_probe else probe(cands, args.cxx)
    legal = [g for g in cands if res.get(g.index, (0, 0))[0]]
    rejected = {}
    for g in cands:
        ok, err = res.get(g.index, (0, -1))
        if not ok:
            rejected[err] = rejected.get(err, 0) + 1
    sys.stderr.write('%d candidates, %d legal; rejected by error kind: %s\n' % (len(cands), len(legal), rejected))
    need = args.files * args.per_file
    if len(legal) < need:
        sys.stderr.write('only %d legal graphs for %d files of %d\n' % (len(legal), args.files, args.per_file))
    cmd = ('/usr/bin/python3 scripts/gen_user_op_graphs.py --seed %d --candidates %d --files %d --per-file %d'
           % (args.seed, args.candidates, args.files, args.per_file))
    if args.first != 1 or args.name != 'random_userops':
        cmd += ' --first %d --name %s' % (args.first, args.name)
    if args.destroy != 0.35 or args.nodes != 9:
        cmd += ' --destroy %g --nodes %d' % (args.destroy, args.nodes)
    for k in range(args.files):
        part = legal[k * args.per_file:(k + 1) * args.per_file]
        if not part:
            break
        num = args.first + k
        ns = 'uo_%d' % num
        header = ['// Generated by scripts/gen_user_op_graphs.py; do not edit. Regenerate with',
                  '//   ' + cmd,
                  '// Random user ops in random graphs, each run under every donation pattern, with',
                  '// ip::no_rewrite and in debug mode, against NumPy (tests/run/user_op_graphs.hpp).']
        write_file(os.path.join(args.out, '%s_%d.cpp' % (args.name, num)), part, ns, header, args.seed)


if __name__ == '__main__':
    main()
