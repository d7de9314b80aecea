#!/usr/bin/env python3
"""Generates random legal graphs and the differential tests that run them.

    python3 scripts/gen_random_graphs.py            # from the repository root
    python3 scripts/gen_random_graphs.py --profile inplace --name random_inplace \
        --seed 7 --candidates 200 --files 4

writes tests/run/random_graphs_<k>.cpp (k = 1 .. --files), then
tests/run/random_inplace_<k>.cpp: graphs of the "inplace" profile (mostly
explicit in-place ops, often on inputs and views of them; more outputs that
are inputs or views; many candidates are illegal). It is run by hand,
not by CMake: the generated files are committed. Python 3 standard library only;
it needs g++ (or --cxx) to compile the legality probes. Regenerating with the
same --seed, --candidates, --files and --per-file (and the same library, since
the library decides which candidates are legal) gives the same files.

How it works
  1. Candidates. Each candidate graph draws, from its own random.Random seeded
     with "<seed>-<index>", 1 to 4 inputs among
         x, y: float vectors of dynamic extent (7 elements at run time)
         s:    float vector with static extents<7>
         u:    float vector of dynamic extent (5 elements)
         A, B: float matrices of dynamic extents (5 x 7)
         C:    float matrix with static extents<5, 7>
         a:    an ip::scalar<"a", float>
     (lengths 5 and 7 are not multiples of any SIMD width), and then 3 to 9
     nodes, each using values made before (so values are shared by several
     nodes): + - * / (division only by a constant), ip::add/sub/mul/min/max,
     unary -, ip::neg/exp/tanh/sigmoid/relu, ip::where (its condition an input,
     a view of one or relu of one, so float and double agree on which elements
     are 0), ip::sum (2 to 4 operands), the constants 2.0_c, 0.5_c, 1.5_c,
     0.25_c, 3.0_c, the views ip::transpose, ip::slice<B, E, S> (first axis,
     positive and negative steps) and ip::reverse, the explicit in-place ops
     ip::add_inplace/sub_inplace/mul_inplace/exp_inplace/tanh_inplace/
     neg_inplace/relu_inplace/sigmoid_inplace/sum_inplace/softmax_inplace and
     ip::inplace<1>(ip::ops::sub{}) (destroys input 1), ip::dot (NumPy's rank
     rules), ip::reduce_sum and ip::reduce_sum<Axis> (negative axes too) and
     ip::softmax. The generator tracks NumPy shapes (broadcasting; an in-place
     op never grows its destroyed input) and a bound on |value|: every value
     stays below 30 in magnitude, exp only sees values below 2.5 and dot,
     reduce_sum and * get operands squashed by tanh or sigmoid when needed, so
     float results are well conditioned. 1 to 3 outputs: the last node and
     others, now and then an input or a view of one.
  2. Legality. Candidates may be illegal (two destroyers, a destroyed output,
     an ordering cycle, ...). Every candidate is compiled into probe programs
     (g++ -std=c++20 -I include, --batch candidates each) that print
     ip::check(...).ok and .error; only the legal ones are kept. A probe that
     does not compile is split in halves until the candidates that do not
     compile are found; they are dropped and listed on stderr.
  3. Tests. The legal graphs are split over --files files, --per-file each. For
     each graph the file holds the graph (a namespace gN with f, and fn built
     with ip::no_rewrite), its reference (plain double loops of
     tests/run/random_graphs.hpp, one rg:: call per node; in-place ops are pure
     functions of their inputs there, as in the graph's semantics), and a
     TEST_CASE calling rg::run<patterns>: every graph runs borrowed, donated,
     mixed (even-numbered arguments donated) and with ip::no_rewrite
     (borrowed), plus one more pattern in turn: mixed with the odd-numbered
     arguments donated, strided const views as arguments, no_rewrite donated,
     or no_rewrite mixed. Tolerance: |got - want| <= 1e-4 + 1e-4 |want|.
  4. Known failures: graphs listed in KNOWN_FAILING below (library bugs found
     by these tests, reported to the library's developer) are still generated,
     but in a separate TEST_CASE tagged [!mayfail] at the end of their file.

Options: --seed, --candidates, --files, --per-file, --batch, --cxx, --out,
--no-probe (skip the legality probe: only for debugging the generator).
"""

import argparse
import os
import re
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Graphs (by test name, "<name> <candidate index>", e.g. "random_graphs 17")
# that fail because of library bugs, each with a comment saying how; they are
# generated in TEST_CASEs tagged [!mayfail].
# A 'compile' failure is a graph that ip::check accepts and ip::function
# compiles, but whose call f(args...) does not compile: its TEST_CASE FAILs
# unless built with -DRG_KNOWN_COMPILE_FAILURES, which compiles the call.
# An 'asan' failure is a memory error AddressSanitizer reports (and aborts on):
# under ASan its TEST_CASE FAILs without running the graph unless built with
# -DRG_RUN_KNOWN_ASAN_FAILURES; elsewhere it runs. A 'run' failure runs everywhere.
# Both graphs this list held (random_inplace 24: a call that did not compile;
# random_graphs 54: a use-after-free) were library bugs, fixed since; they run
# as every other graph and stand in tests/run/regressions.cpp too.
KNOWN_FAILING = {}

BOUND = 30.0

INPUTS = {
    'x': dict(shape=(7,), decl='ip::input<"x", float>', make='rg::vec(7, {seed})'),
    'y': dict(shape=(7,), decl='ip::input<"y", float>', make='rg::vec(7, {seed})'),
    's': dict(shape=(7,), decl='ip::input<"s", float, ip::extents<7>>', make='rg::vec7s({seed})'),
    'u': dict(shape=(5,), decl='ip::input<"u", float>', make='rg::vec(5, {seed})'),
    'A': dict(shape=(5, 7), decl='ip::input<"A", float, 2>', make='rg::mat(5, 7, {seed})'),
    'B': dict(shape=(5, 7), decl='ip::input<"B", float, 2>', make='rg::mat(5, 7, {seed})'),
    'C': dict(shape=(5, 7), decl='ip::input<"C", float, ip::extents<5, 7>>', make='rg::mat57s({seed})'),
    'a': dict(shape=(), decl='ip::scalar<"a", float>', make='rg::scalar({seed})'),
}
INPUT_ORDER = ['x', 'y', 's', 'u', 'A', 'B', 'C', 'a']

CONSTANTS = ['2.0', '0.5', '1.5', '0.25', '3.0']

# pattern bits of rg::run (tests/run/random_graphs.hpp)
BASE_PATTERNS = 'rg::borrowed | rg::donated | rg::mixed_even | rg::nr_borrowed'
EXTRA_PATTERNS = ['rg::mixed_odd', 'rg::views', 'rg::nr_donated', 'rg::nr_mixed_even']


def broadcast(a, b):
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    r = []
    for p, q in zip(a, b):
        if p != q and p != 1 and q != 1:
            return None
        r.append(q if p == 1 else p)
    return tuple(r)


def size(shape):
    n = 1
    for e in shape:
        n *= e
    return n


class Value:
    def __init__(self, cpp, ref, shape, bound, kind, exact=False, input_name=None):
        self.cpp = cpp          # C++ expression naming it in the graph
        self.ref = ref          # C++ expression naming it in the reference
        self.shape = tuple(shape)
        self.bound = bound      # |value| <= bound
        self.kind = kind        # 'input', 'scalar', 'const', 'node'
        self.exact = exact      # float and double agree on which elements are 0
        self.input_name = input_name
        self.view_of_input = kind in ('input',)


class Graph:
    def __init__(self, rng):
        self.rng = rng
        self.inputs = []
        self.pool = []
        self.lines = []      # (graph line, reference line)
        self.n = 0
        self.outputs = []
        self.inplace_count = 0

    # -- values -------------------------------------------------------------------
    def add_node(self, cpp, ref, shape, bound, exact=False, view_of_input=False):
        name = 'n%d' % self.n
        self.n += 1
        self.lines.append(('constexpr auto %s = %s;' % (name, cpp), 'const rg::arr %s = %s;' % (name, ref)))
        v = Value(name, name, shape, bound, 'node', exact)
        v.view_of_input = view_of_input
        self.pool.append(v)
        return v

    def constant(self):
        c = self.rng.choice(CONSTANTS)
        return Value(c + '_c', 'rg::constant(%s)' % c, (), float(c), 'const', exact=True)

    def pick(self, pred=lambda v: True, recent=True):
        cands = [v for v in self.pool if pred(v)]
        if not cands:
            return None
        if recent and self.rng.random() < 0.6:
            cands = cands[-3:]
        return self.rng.choice(cands)

    def squash(self, v):
        if self.rng.random() < 0.5:
            return self.add_node('ip::tanh(%s)' % v.cpp, 'rg::tanh(%s)' % v.ref, v.shape, 1.0)
        return self.add_node('ip::sigmoid(%s)' % v.cpp, 'rg::sigmoid(%s)' % v.ref, v.shape, 1.0)

    def limit(self, v, bound):
        return v if v.bound <= bound else self.squash(v)

    def partner(self, a, into=False):
        """A value (or constant) that broadcasts with a (into: without growing a)."""
        if self.rng.random() < 0.25:
            return self.constant()

        def ok(v):
            r = broadcast(a.shape, v.shape)
            return r is not None and (not into or r == a.shape)
        return self.pick(ok) or self.constant()

    # -- ops ----------------------------------------------------------------------
    def op_binary(self):
        a = self.pick()
        b = self.partner(a)
        if self.rng.random() < 0.3 and b.kind != 'const' and a.kind != 'const':
            a, b = b, a
        op = self.rng.choice(['+', '-', '*', '*', 'min', 'max', '/'])
        if op == '/':
            b = self.constant()
        shape = broadcast(a.shape, b.shape)
        if op == '*':
            if a.bound * b.bound > BOUND:
                a = self.limit(a, 1.0)
                b = self.limit(b, 1.0) if b.kind != 'const' else b
            bound = a.bound * b.bound
        elif op in '+-':
            if a.bound + b.bound > BOUND:
                a = self.limit(a, 1.0)
                b = self.limit(b, 1.0) if b.kind != 'const' else b
            bound = a.bound + b.bound
        elif op == '/':
            bound = a.bound / b.bound
        else:
            bound = max(a.bound, b.bound)
        names = {'+': 'add', '-': 'sub', '*': 'mul', '/': 'div', 'min': 'min', 'max': 'max'}
        fn = names[op]
        if op in '+-*/' and self.rng.random() < 0.7 and not (a.kind == 'const' and b.kind == 'const'):
            cpp = '(%s %s %s)' % (a.cpp, op, b.cpp)
        else:
            cpp = 'ip::%s(%s, %s)' % (fn, a.cpp, b.cpp)
        return self.add_node(cpp, 'rg::%s(%s, %s)' % (fn, a.ref, b.ref), shape, bound)

    def op_unary(self):
        a = self.pick()
        op = self.rng.choice(['neg', 'exp', 'tanh', 'sigmoid', 'relu', 'exp'])
        if op == 'exp':
            a = self.limit(a, 2.5)
            import math
            bound = math.exp(a.bound)
        elif op in ('tanh', 'sigmoid'):
            bound = 1.0
        else:
            bound = a.bound
        cpp = '(-%s)' % a.cpp if op == 'neg' and self.rng.random() < 0.5 else 'ip::%s(%s)' % (op, a.cpp)
        exact = op == 'relu' and a.exact
        return self.add_node(cpp, 'rg::%s(%s)' % (op, a.ref), a.shape, bound, exact=exact)

    def destination(self):
        return self.pick(lambda v: v.kind != 'const' and (v.kind != 'scalar' or self.rng.random() < 0.1))

    def op_inplace_binary(self):
        d = self.destination()
        if d is None:
            return None
        o = self.partner(d, into=True)
        op = self.rng.choice(['add', 'sub', 'mul', 'sub1'])
        if op == 'mul':
            if d.bound * o.bound > BOUND:
                return None
            bound = d.bound * o.bound
        else:
            if d.bound + o.bound > BOUND:
                return None
            bound = d.bound + o.bound
        self.inplace_count += 1
        if op == 'sub1':  # destroys input 1: o - d in d's storage
            if o.kind == 'const' and self.rng.random() < 0.5:
                cpp = 'ip::apply(ip::inplace<1>(ip::ops::sub{}), %s, %s)' % (o.cpp, d.cpp)
            else:
                cpp = 'ip::apply(ip::ops::inplace_op<ip::ops::sub, 1>{}, %s, %s)' % (o.cpp, d.cpp)
            return self.add_node(cpp, 'rg::sub(%s, %s)' % (o.ref, d.ref), d.shape, bound)
        return self.add_node('ip::%s_inplace(%s, %s)' % (op, d.cpp, o.cpp), 'rg::%s(%s, %s)' % (op, d.ref, o.ref),
                             d.shape, bound)

    def op_inplace_unary(self):
        d = self.destination()
        if d is None:
            return None
        op = self.rng.choice(['exp', 'tanh', 'neg', 'relu', 'sigmoid', 'softmax'])
        if op == 'exp':
            if d.bound > 2.5:
                return None
            import math
            bound = math.exp(d.bound)
        elif op in ('tanh', 'sigmoid', 'softmax'):
            bound = 1.0
        else:
            bound = d.bound
        if op == 'softmax' and len(d.shape) == 0:
            return None
        self.inplace_count += 1
        return self.add_node('ip::%s_inplace(%s)' % (op, d.cpp), 'rg::%s(%s)' % (op, d.ref), d.shape, bound)

    def op_sum(self):
        inplace = self.rng.random() < 0.35
        a = self.destination() if inplace else self.pick()
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
        if len(args) < 2:
            return None
        if sum(v.bound for v in args) > BOUND:
            return None
        if inplace:
            self.inplace_count += 1
        cpp = 'ip::%s(%s)' % ('sum_inplace' if inplace else 'sum', ', '.join(v.cpp for v in args))
        ref = 'rg::sum({%s})' % ', '.join(v.ref for v in args)
        return self.add_node(cpp, ref, shape, sum(v.bound for v in args))

    def op_where(self):
        c = self.pick(lambda v: v.exact and v.kind != 'const', recent=False)
        if c is None:
            return None
        a = self.partner(c)
        b = self.partner(c)
        s = broadcast(c.shape, a.shape)
        s = s and broadcast(s, b.shape)
        if s is None:
            return None
        return self.add_node('ip::where(%s, %s, %s)' % (c.cpp, a.cpp, b.cpp), 'rg::where(%s, %s, %s)' % (c.ref, a.ref, b.ref),
                             s, max(a.bound, b.bound))

    def op_view(self):
        a = self.pick(lambda v: len(v.shape) >= 1 and v.kind != 'const')
        if a is None:
            return None
        kind = self.rng.choice(['transpose', 'slice', 'slice', 'reverse'])
        exact = a.exact
        if kind == 'transpose':
            if len(a.shape) == 1 and self.rng.random() < 0.7:
                return None
            return self.add_node('ip::transpose(%s)' % a.cpp, 'rg::transpose(%s)' % a.ref, a.shape[::-1], a.bound, exact)
        if kind == 'reverse':
            return self.add_node('ip::reverse(%s)' % a.cpp, 'rg::reverse(%s)' % a.ref, a.shape, a.bound, exact)
        n = a.shape[0]
        specs = [(1, None, 1), (0, -1, 1), (0, None, 2), (1, None, 2), (-3, None, 1), (-1, None, 1), (0, 1, 1),
                 (-1, None, -1), (-1, None, -2), (n - 1, 0, -1), (1, n - 1, 1), (0, n, 1), (-2, None, -1)]
        if n >= 5:
            specs += [(2, 5, 1), (1, 4, 2)]
        b, e, st = self.rng.choice(specs)
        length = len(range(n)[slice(b, e, st)])
        if length == 0:
            return None
        targs = '%d, %s, %d' % (b, 'ip::end' if e is None else str(e), st)
        if st == 1 and e is None and self.rng.random() < 0.5:
            targs = '%d' % b
        ref = 'rg::slice(%s, %d, %d, %s, %d)' % (a.ref, b, 0 if e is None else e, 'false' if e is None else 'true', st)
        return self.add_node('ip::slice<%s>(%s)' % (targs, a.cpp), ref, (length,) + a.shape[1:], a.bound, exact)

    def op_dot(self):
        cands = []
        for p in self.pool:
            if p.kind == 'const' or not 1 <= len(p.shape) <= 2:
                continue
            for q in self.pool:
                if q.kind == 'const' or not 1 <= len(q.shape) <= 2:
                    continue
                if p.shape[-1] == q.shape[0]:
                    cands.append((p, q, False))
                elif len(q.shape) == 2 and p.shape[-1] == q.shape[1]:
                    cands.append((p, q, True))  # dot(p, transpose(q))
        if not cands:
            return None
        p, q, tq = self.rng.choice(cands)
        k = p.shape[-1]
        if k * p.bound * q.bound > BOUND:
            p = self.limit(p, 1.0)
            q = self.limit(q, 1.0)
            if k * p.bound * q.bound > BOUND:
                return None
        if tq:
            q = self.add_node('ip::transpose(%s)' % q.cpp, 'rg::transpose(%s)' % q.ref, q.shape[::-1], q.bound, q.exact)
        shape = (p.shape[:-1] if len(p.shape) == 2 else ()) + ((q.shape[1],) if len(q.shape) == 2 else ())
        return self.add_node('ip::dot(%s, %s)' % (p.cpp, q.cpp), 'rg::dot(%s, %s)' % (p.ref, q.ref), shape,
                             k * p.bound * q.bound)

    def op_reduce(self):
        a = self.pick(lambda v: len(v.shape) >= 1 and v.kind != 'const')
        if a is None:
            return None
        r = len(a.shape)
        axis = self.rng.choice([None, None] + list(range(-r, r)))
        n = size(a.shape) if axis is None else a.shape[axis]
        if n * a.bound > BOUND:
            a = self.limit(a, 1.0)
            if n * a.bound > BOUND:
                return None
        if axis is None:
            return self.add_node('ip::reduce_sum(%s)' % a.cpp, 'rg::reduce_sum(%s)' % a.ref, (), n * a.bound)
        shape = tuple(e for i, e in enumerate(a.shape) if i != axis % r)
        return self.add_node('ip::reduce_sum<%d>(%s)' % (axis, a.cpp), 'rg::reduce_sum(%s, %d)' % (a.ref, axis), shape,
                             n * a.bound)

    def op_softmax(self):
        a = self.pick(lambda v: len(v.shape) >= 1 and v.kind != 'const')
        if a is None:
            return None
        return self.add_node('ip::softmax(%s)' % a.cpp, 'rg::softmax(%s)' % a.ref, a.shape, 1.0)


OPS = [('binary', 30), ('unary', 16), ('inplace_binary', 16), ('inplace_unary', 10), ('sum', 5), ('where', 3),
       ('view', 14), ('dot', 5), ('reduce', 6), ('softmax', 4)]


# The "inplace" profile: mostly explicit in-place ops, often on inputs and on
# views of them, and more outputs that are inputs or views.
OPS_INPLACE = [('binary', 14), ('unary', 8), ('inplace_binary', 30), ('inplace_unary', 18), ('sum', 8), ('where', 2),
               ('view', 20), ('dot', 4), ('reduce', 4), ('softmax', 3)]
PROFILE = {'ops': OPS, 'view_out': 0.15}


def make_candidate(seed, index):
    rng = random.Random('%d-%d' % (seed, index))
    g = Graph(rng)
    names = rng.sample(INPUT_ORDER, rng.choice([1, 2, 2, 3, 3, 3, 4]))
    names.sort(key=INPUT_ORDER.index)
    if rng.random() < 0.5:
        rng.shuffle(names)
    for nm in names:
        info = INPUTS[nm]
        v = Value(nm, 'r_' + nm, info['shape'], 1.0, 'scalar' if nm == 'a' else 'input', exact=True, input_name=nm)
        g.inputs.append(nm)
        g.pool.append(v)
    steps = rng.randint(3, 9)
    tries = 0
    while g.n < steps and tries < 60:
        tries += 1
        kinds, weights = zip(*PROFILE['ops'])
        op = rng.choices(kinds, weights)[0]
        getattr(g, 'op_' + op)()
    if g.n == 0:
        return None
    prune(g, rng)
    return g


NAME = re.compile(r'\b(n\d+|[xysuABCa])\b(?!_c|\()')


def prune(g, rng):
    """Outputs: the last node and up to 2 other sinks (nodes no other node
    reads), now and then an input or another node; then drops what they do not
    need, and most unused inputs."""
    uses = {}
    for cpp, _ in g.lines:
        name, expr = cpp[len('constexpr auto '):].split(' = ', 1)
        uses[name] = set(NAME.findall(expr.replace('ip::', ' ')))
    nodes = [v for v in g.pool if v.kind == 'node']
    used = set().union(*uses.values()) if uses else set()
    sinks = [v for v in nodes[:-1] if v.cpp not in used]
    rng.shuffle(sinks)
    outs = [nodes[-1]] + sinks[:rng.choice([0, 1, 2, 2])]
    if rng.random() < PROFILE['view_out']:
        c = [v for v in g.pool if v.kind in ('input', 'scalar')] if rng.random() < 0.4 else nodes
        outs.append(rng.choice(c))
    g.outputs = outs
    need = set()
    todo = [v.cpp for v in outs]
    while todo:
        n = todo.pop()
        if n in need:
            continue
        need.add(n)
        todo += list(uses.get(n, ()))
    g.lines = [(cpp, ref) for cpp, ref in g.lines if cpp[len('constexpr auto '):].split(' = ', 1)[0] in need]
    g.inputs = [nm for nm in g.inputs if nm in need or rng.random() < 0.2]
    if not g.inputs:  # a graph of constants only
        g.inputs = ['x']


def graph_source(g, ns):
    body = ['namespace %s {' % ns]
    for cpp, _ in g.lines:
        body.append(cpp)
    ins = ', '.join(g.inputs)
    outs = ', '.join(v.cpp for v in g.outputs)
    body.append('}  // namespace %s' % ns)
    return body, ins, outs


def probe_source(cands):
    src = ['#include <inplace.hpp>', '#include <cstdio>', 'namespace ip = inplace;', 'using namespace ip::literals;',
           'namespace {']
    for nm in INPUT_ORDER:
        src.append('[[maybe_unused]] constexpr auto %s = %s;' % (nm, INPUTS[nm]['decl']))
    for i, g in cands:
        body, ins, outs = graph_source(g, 'c%d' % i)
        src += body[:-1]
        src.append('constexpr auto v = ip::check(ip::inputs(%s), ip::outputs(%s));' % (ins, outs))
        src.append(body[-1])
    src.append('}')
    src.append('int main() {')
    for i, _ in cands:
        src.append('  std::printf("%d %%d %%d\\n", int(c%d::v.ok), int(c%d::v.error));' % (i, i, i))
    src.append('}')
    return '\n'.join(src) + '\n'


def probe(cands, cxx, tmp, log):
    """{index: (ok, error)} for the candidates that compile."""
    if not cands:
        return {}
    path = os.path.join(tmp, 'probe.cpp')
    exe = os.path.join(tmp, 'probe')
    with open(path, 'w') as f:
        f.write(probe_source(cands))
    r = subprocess.run([cxx, '-std=c++20', '-O0', '-I', os.path.join(ROOT, 'include'), path, '-o', exe],
                       capture_output=True, text=True)
    if r.returncode != 0:
        if len(cands) == 1:
            i, g = cands[0]
            first = [l for l in r.stderr.splitlines() if 'error' in l][:3]
            log.write('candidate %d does not compile under ip::check:\n' % i)
            for cpp, _ in g.lines:
                log.write('    %s\n' % cpp)
            log.write('    outputs(%s)\n' % ', '.join(v.cpp for v in g.outputs))
            for l in first:
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


def test_file(graphs, k, args):
    out = ['// GENERATED by scripts/gen_random_graphs.py (seed %d): do not edit; regenerate with' % args.seed,
           '//   python3 scripts/gen_random_graphs.py --seed %d --candidates %d --files %d --per-file %d%s'
           % (args.seed, args.candidates, args.files, args.per_file,
              '' if args.profile == 'mixed' else ' --profile %s --name %s' % (args.profile, args.name)),
           '// Random legal graphs run under several donation patterns, with and without',
           '// the automatic rewrite, against a naive double reference (tests/run/random_graphs.hpp).',
           '// Tolerance: |got - want| <= 1e-4 + 1e-4 * |want| (float results, double reference).',
           '#include "random_graphs.hpp"', '',
           'namespace ip = inplace;', 'using namespace ip::literals;', '', 'namespace {']
    for nm in INPUT_ORDER:
        out.append('[[maybe_unused]] constexpr auto %s = %s;' % (nm, INPUTS[nm]['decl']))
    out.append('')
    cases = []
    failing = []
    for gid, g in graphs:
        ns = 'g%d' % gid
        body, ins, outs = graph_source(g, ns)
        out += body[:-1]
        mu = '[[maybe_unused]] ' if KNOWN_FAILING.get('%s %d' % (args.name, gid), ('',))[0] in ('compile', 'asan') else ''
        out.append('%sconstexpr auto f = ip::function(ip::inputs(%s), ip::outputs(%s));' % (mu, ins, outs))
        out.append('%sconstexpr auto fn = ip::function(ip::inputs(%s), ip::outputs(%s), ip::no_rewrite);' % (mu, ins, outs))
        out.append('%sstd::vector<rg::arr> ref(const std::vector<rg::arr>& in) {' % mu)
        for j, nm in enumerate(g.inputs):
            out.append('  [[maybe_unused]] const rg::arr& r_%s = in[%d];' % (nm, j))
        for _, ref in g.lines:
            out.append('  ' + ref)
        out.append('  return {%s};' % ', '.join(v.ref for v in g.outputs))
        out.append('}')
        out.append(body[-1])
        out.append('')
        pats = '%s | %s' % (BASE_PATTERNS, EXTRA_PATTERNS[gid % len(EXTRA_PATTERNS)])
        makes = ', '.join(INPUTS[nm]['make'].format(seed=gid * 16 + j) for j, nm in enumerate(g.inputs))
        label = '%s %d' % (args.name, gid)
        call = '  rg::run<%s>("%s", %s::f, %s::fn, %s::ref, %s);' % (pats, label, ns, ns, ns, makes)
        if label in KNOWN_FAILING:
            failing.append((label, call))
        else:
            cases.append((label, call))
    out.append('}  // namespace')
    out.append('')
    for label, call in cases:
        out.append('TEST_CASE("%s", "[run][random]") {' % label)
        out.append(call)
        out.append('}')
    if failing:
        out.append('')
        out.append('// ---- KNOWN FAILING (library bugs, see KNOWN_FAILING in scripts/gen_random_graphs.py) ----')
        for label, call in failing:
            kind, why = KNOWN_FAILING[label]
            out.append('// %s: %s' % (kind, why))
            out.append('TEST_CASE("KNOWN FAILING: %s", "[run][random][!mayfail]") {' % label)
            if kind == 'compile':
                out.append('#ifdef RG_KNOWN_COMPILE_FAILURES')
                out.append(call)
                out.append('#else')
                out.append('  FAIL("%s: %s (build with -DRG_KNOWN_COMPILE_FAILURES to see the error)");' % (label, why))
                out.append('#endif')
            elif kind == 'asan':
                out.append('#if RG_ASAN && !defined(RG_RUN_KNOWN_ASAN_FAILURES)')
                out.append('  FAIL("%s: %s (build with -DRG_RUN_KNOWN_ASAN_FAILURES to run it under ASan)");' % (label, why))
                out.append('#else')
                out.append(call)
                out.append('#endif')
            else:
                out.append(call)
            out.append('}')
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seed', type=int, default=20261123)
    ap.add_argument('--candidates', type=int, default=400)
    ap.add_argument('--files', type=int, default=22)
    ap.add_argument('--per-file', type=int, default=8)
    ap.add_argument('--batch', type=int, default=60)
    ap.add_argument('--cxx', default='g++')
    ap.add_argument('--out', default=os.path.join(ROOT, 'tests', 'run'))
    ap.add_argument('--no-probe', action='store_true')
    ap.add_argument('--profile', choices=['mixed', 'inplace'], default='mixed')
    ap.add_argument('--name', default='random_graphs', help='files are tests/run/<name>_<k>.cpp')
    args = ap.parse_args()
    if args.profile == 'inplace':
        PROFILE['ops'] = OPS_INPLACE
        PROFILE['view_out'] = 0.4

    cands = []
    for i in range(args.candidates):
        g = make_candidate(args.seed, i)
        if g is not None:
            cands.append((i, g))
    legal = []
    errors = {}
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
        path = os.path.join(args.out, '%s_%d.cpp' % (args.name, k + 1))
        with open(path, 'w') as f:
            f.write(test_file(part, k, args))
        sys.stderr.write('wrote %s (%d graphs)\n' % (os.path.relpath(path, ROOT), len(part)))


if __name__ == '__main__':
    main()
