#!/usr/bin/python3
"""Generates random legal graphs of writes through views (ip::set, ip::inc,
ip::update<Op>, their in-place forms, ip::dynamic_slice) whose expected outputs
NumPy computes.

    /usr/bin/python3 scripts/gen_update_fuzz.py          # from the repository root

writes tests/run/random_updates_<k>.cpp (k = 1 .. --files). Run by hand (the
generated files are committed); the same options and library give the same
files. It reuses scripts/gen_numpy_fuzz.py by import (its inputs, values with
rounding bounds, ops, pruning, legality probe and C++ writers), which it leaves
unchanged: the random_numpy_*.cpp files stay what they are.

What it adds
  Inputs: those of gen_numpy_fuzz.py, plus I (int, rank 2, (5, 7)) and the
  start t (ip::scalar<"t", std::int64_t>), its value drawn per graph (0 .. 3).
  An update node picks x (an input or a node; for the in-place forms a value
  not destroyed yet, which it destroys) and a region of x: a chain of 1 to 3
  of the library's views (ip::view with ranges of any step, negative ones
  too, ip::at and ip::all; row, col, diagonal<k>, transpose, reverse,
  expand_dims and ip::dynamic_slice<Axis, Size>(_, t), Axis negative now and
  then). The region is a node of the graph (a view of x others may read). v
  is a weak constant, a scalar input, a value whose shape broadcasts to the
  region's, a view cut to fit (a range of a vector, a block of a matrix,
  transposed), or the region itself combined with a constant or a value
  (PyTorch's a[0] + 1 written back); for an int x, more often a set of a
  float v without rounding error (a float constant, a float input, a view).
  The op: set, inc, update<mul | min | max | sub | ip::ops::add> or a user's
  binary elementwise op (u::axpy2: a + 2 b).
  NumPy computes x with the region combined with v in the dtype of np.op(x[r],
  v), converted to x's dtype (astype: float to int truncates, as C++ does).

Dtypes: only cases with one defined meaning
  The result has x's dtype. For set, v is converted to it (NumPy's a[r] = v,
  JAX's .at[r].set). For the combining ops the library computes op(x[r], v) in
  the promoted dtype and converts the result (NumPy's np.op(x[r], v,
  out=x[r], casting='unsafe')); JAX's .at[r].add converts v to x's dtype
  first. For an int x and a float v these differ (trunc(-1 + 0.5) = 0
  against -1 + trunc(0.5) = -1); the library refuses them at compile time
  (dtype_mismatch, as NumPy's x[r] += v does with same-kind casting), so with
  an int x a float v goes to set only, and never with a rounding error on v
  (err > 0), whose truncation would be undefined. A float x with a double v is computed in double and rounded
  once (JAX would round v first: within the tolerance either way).

NumPy version
  gen_numpy_fuzz.py needs NEP 50's weak scalars: with NumPy 1.24-1.26 it
  switches them on (np._set_promotion_state('weak')), which this script
  inherits by importing it; this machine has NumPy 1.24.2. The update nodes
  hardly depend on it: their dtype is x's whatever the rule. Under the legacy
  value-based rule a float region combined with a double scalar input would
  be computed in float rather than double and rounded once less, which the
  tolerance covers; an int region with a float constant or scalar is
  computed in double under both rules, and with an int constant in int.

Each test (tests/run/random_updates.hpp) runs nf::run (every donation
pattern, no_rewrite, strided arguments, debug mode), then, when output 0 is an
update whose chain of updates starts at a tensor input X: the call with X alone
donated, whose output 0 must be X's storage whenever ip::explain's plan puts it
there; and when the graph holds a dynamic_slice: the call with t = -1 and with
t past the end throws ip::shape_error and leaves the borrowed arguments
unchanged.

An update's x is where its region's chain of library views starts: the library
peels every view (ip::set(ip::row<0>(ip::transpose(A)), v) returns all of A),
so an update of a region of a view node v of A returns A, not v.
"""

import argparse
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_numpy_fuzz as nf  # noqa: E402  (sets NEP 50 on NumPy 1.x)

import numpy as np  # noqa: E402

ROOT = nf.ROOT

nf.INPUTS['I'] = ('ip::input<"I", int, 2>', (5, 7), 'int32', 'ip::tensor<int, 2>(std::size_t{5}, std::size_t{7})')
nf.INPUTS['t'] = ('ip::scalar<"t", std::int64_t>', (), 'int64', None)
nf.INPUT_ORDER += ['I', 't']
nf.CXX_DTYPE[np.dtype('int64')] = 'std::int64_t'
nf.UNIT[np.dtype('int64')] = 0.0
POOL_INPUTS = [n for n in nf.INPUT_ORDER if n != 't']

# combine kinds: C++ spelling (with %s for region, v), NumPy function
COMBINE = {
    'set': ('ip::set', None),
    'inc': ('ip::inc', np.add),
    'add': ('ip::update<ip::ops::add>', np.add),
    'mul': ('ip::update<ip::ops::mul>', np.multiply),
    'min': ('ip::update<ip::ops::min>', np.minimum),
    'max': ('ip::update<ip::ops::max>', np.maximum),
    'sub': ('ip::update<ip::ops::sub>', np.subtract),
    'user': ('ip::update<u::axpy2>', lambda a, b: np.add(np.add(a, b), b)),
}
INPLACE_NAME = {'set': 'ip::set_inplace', 'inc': 'ip::inc_inplace'}

USER_OP = ['namespace u {',
           'struct axpy2 {  // a user\'s binary elementwise op: a + 2 b',
           '  static constexpr std::string_view name = "axpy2";',
           '  static constexpr bool elementwise = true;',
           '  constexpr auto operator()(auto a, auto b) const { return a + b + b; }',
           '};',
           '}  // namespace u']


class UGraph(nf.Graph):
    def __init__(self, rng, t):
        super().__init__(rng)
        self.t = t          # the start's value, or None
        self.dyn = {}       # region node -> smallest start past its end (extent - Size + 1)
        self.base = {}      # update node -> the tensor input at the root of its chain of updates
        self.viewof = {}    # view node -> (the value its chain of views starts at, flat indices into it)
        self.dtypes = {}    # update node -> 'x dtype <- v dtype' (for the statistics)

    # -- views: an update's x is where its chain of library views starts ---------------------
    def view_info(self, a):
        if a.cpp in self.viewof:
            return self.viewof[a.cpp]
        return a, np.arange(np.size(a.val)).reshape(a.shape)

    def view_node(self, cpp, a, fn):
        n = nf.Graph.view_node(self, cpp, a, fn)
        if n is not None and a.kind != 'scalar':
            base, idx = self.view_info(a)
            self.viewof[n.cpp] = (base, np.asarray(fn(idx)))
        return n

    # -- regions ------------------------------------------------------------------------
    def region(self, x):
        """A chain of 1 to 3 library views of x: (C++, flat indices into the value the
        chain starts at (x, or x's own base when x is a view), dynamic bound)."""
        idx = self.view_info(x)[1]
        cpp = x.cpp
        bad = None
        for _ in range(self.rng.choice([1, 1, 2, 2, 3])):
            r = self.view_step(cpp, idx)
            if r is None:
                break
            cpp, idx, b = r
            if b is not None:
                bad = b if bad is None else min(bad, b)
        if cpp == x.cpp or idx.size == 0:
            return None
        return cpp, idx, bad

    def view_step(self, cpp, idx):
        rank = idx.ndim
        if rank == 0:
            return None
        kind = self.rng.choice(['view', 'view', 'view', 'row', 'col', 'diagonal', 'transpose', 'reverse',
                                'expand_dims', 'dyn', 'dyn'])
        if kind == 'dyn':
            if self.t is None:
                return None
            ax = self.rng.randrange(rank)
            n = idx.shape[ax]
            if n <= self.t:
                return None
            size = self.rng.randint(1, n - self.t)
            axs = ax - rank if self.rng.random() < 0.3 else ax
            sl = (slice(None),) * ax + (slice(self.t, self.t + size),)
            return 'ip::dynamic_slice<%d, %d>(%s, t)' % (axs, size, cpp), idx[sl], n - size + 1
        if kind in ('row', 'col', 'diagonal'):
            if rank != 2:
                return None
            if kind == 'diagonal':
                k = self.rng.choice([0, 0, 1, -1, 2])
                d = np.diagonal(idx, k)
                return (None if d.size == 0 else ('ip::diagonal<%d>(%s)' % (k, cpp), d, None))
            ax = 0 if kind == 'row' else 1
            i = self.rng.randrange(idx.shape[ax])
            return ('ip::%s<%d>(%s)' % (kind, i, cpp), idx[i] if ax == 0 else idx[:, i], None)
        if kind == 'transpose':
            return None if rank < 2 else ('ip::transpose(%s)' % cpp, np.transpose(idx), None)
        if kind == 'reverse':
            return 'ip::reverse(%s)' % cpp, idx[::-1], None
        if kind == 'expand_dims':
            if rank >= 3 or self.rng.random() < 0.5:
                return None
            ax = self.rng.randint(-(rank + 1), rank)
            return 'ip::expand_dims<%d>(%s)' % (ax, cpp), np.expand_dims(idx, ax), None
        specs, index = [], []
        for axis in range(self.rng.randint(1, rank)):
            n = idx.shape[axis]
            k = self.rng.choice(['range', 'range', 'range', 'all', 'at'])
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
                                            (-2, None, -1), (2, 5, 1), (1, 4, 2), (None, None, -1), (0, None, 3),
                                            (-1, None, -3), (n - 2, None, -2)])
                if len(range(n)[slice(b, e, st)]) == 0:
                    return None
                bs = '-1' if b is None else str(b)
                es = 'ip::end' if e is None else str(e)
                if st == 1 and e is None:
                    specs.append('ip::range<%s>' % bs)
                elif st == 1:
                    specs.append('ip::range<%s, %s>' % (bs, es))
                else:
                    specs.append('ip::range<%s, %s, %d>' % (bs, es, st))
                index.append(slice(int(bs), e, st))
        r = idx[tuple(index)]
        if r.size == 0:
            return None
        return 'ip::view(%s, %s)' % (cpp, ', '.join(specs)), r, None

    # -- v ---------------------------------------------------------------------------------
    def fit(self, target):
        """A view of a pool value cut to a shape that broadcasts to target."""
        cands = [p for p in self.pool if p.kind in ('input', 'node') and 1 <= p.val.ndim <= 2]
        if not cands or not target:
            return None
        p = self.rng.choice(cands)
        cpp, val, err = p.cpp, np.asarray(p.val), p.err
        if p.val.ndim == 2 and len(target) >= 2 and self.rng.random() < 0.3:
            cpp, val, err = 'ip::transpose(%s)' % cpp, val.T, err.T
        want = target[-val.ndim:] if val.ndim <= len(target) else None
        if want is None:
            return None
        specs, index = [], []
        for ax, (m, n) in enumerate(zip(val.shape, want)):
            if self.rng.random() < 0.15 and m >= 1:  # one element: broadcast along this axis
                s = self.rng.randrange(m)
                specs.append('ip::range<%d, %d>' % (s, s + 1))
                index.append(slice(s, s + 1))
            elif m >= 2 * n - 1 and n > 1 and self.rng.random() < 0.4:
                s = self.rng.randrange(m - (2 * n - 1) + 1)
                specs.append('ip::range<%d, %d, 2>' % (s, s + 2 * n - 1))
                index.append(slice(s, s + 2 * n - 1, 2))
            elif m >= n:
                s = self.rng.randrange(m - n + 1)
                if s == 0 and m == n:
                    specs.append('ip::all')
                    index.append(slice(None))
                else:
                    specs.append('ip::range<%d, %d>' % (s, s + n))
                    index.append(slice(s, s + n))
            else:
                return None
        sl = tuple(index)
        n = self.add('ip::view(%s, %s)' % (cpp, ', '.join(specs)), val[sl], err[sl], [p], p.exact, root=p.root)
        if n is not None:
            base, idx = self.view_info(p)
            self.viewof[n.cpp] = (base, (idx.T if cpp != p.cpp else idx)[sl])
        return n

    def value_for(self, rv, x):
        """v for region node rv of x: broadcasting to rv's shape."""
        rshape = rv.shape
        u = self.rng.random()
        if u < 0.2:
            return self.constant()
        if u < 0.3:
            s = [v for v in self.pool if v.kind == 'scalar']
            if s:
                return self.rng.choice(s)
        if u < 0.45:  # the region itself, combined: a[0] + 1 written back
            c = self.constant() if self.rng.random() < 0.6 else self.partner(rv)
            op = self.rng.choice(['+', '*', '-'])
            fn = {'+': np.add, '*': np.multiply, '-': np.subtract}[op]
            r = np.asarray(fn(rv.val, c.val))
            if r.shape != rshape:
                return None
            if op == '*':
                err = rv.mag * c.err + np.abs(np.asarray(c.val, dtype=np.float64)) * rv.err + rv.err * c.err
            else:
                err = rv.err + c.err
            return self.add('(%s %s %s)' % (rv.cpp, op, c.cpp), r, err + self.rounding(r), [rv, c])
        if u < 0.75:
            ok = [v for v in self.pool if v is not rv and v.kind != 'const' and nf.broadcast(rshape, v.shape) == rshape
                  and v.shape != ()]
            if ok:
                return self.rng.choice(ok)
        return self.fit(rshape)

    def exact_float(self, rv):
        """A float v without rounding error for an int region: a weak float constant,
        a float scalar input, or an exact float value (an input, a view of one)."""
        u = self.rng.random()
        if u < 0.3:
            cpp, py = self.rng.choice([('0.5_c', 0.5), ('1.5_c', 1.5), ('0.25_c', 0.25), ('2.0_c', 2.0)])
            return nf.Value(cpp, py, np.zeros(()), 'const', exact=True)
        ok = lambda v: (v.kind != 'const' and not nf.is_int(v.dtype) and not np.any(v.err > 0)
                        and nf.broadcast(rv.shape, v.shape) == rv.shape)
        if u < 0.6:
            v = self.pick(ok, recent=False)
            if v is not None:
                return v
        v = self.fit(rv.shape)
        return v if v is not None and ok(v) else None

    # -- the update -------------------------------------------------------------------------
    def op_update(self, rooted=False):
        """rooted: x an input or an update rooted at one (half the time anyway)."""
        inplace = self.rng.random() < 0.4
        def based(v):
            b = self.view_info(v)[0]
            return b.kind == 'input' or b.cpp in self.base
        if rooted or self.rng.random() < 0.5:
            ok = lambda v: based(v) and v.val.ndim >= 1 and not (inplace and self.stale(v))
            x = self.pick(ok, recent=False)
        elif inplace:
            x = self.destination()
        else:
            x = self.pick(lambda v: v.kind in ('input', 'node'))
        if x is None or x.val.ndim == 0:
            return None
        reg = self.region(x)
        if reg is None:
            return None
        rcpp, ridx, bad = reg
        reads = x
        x = self.view_info(x)[0]  # the update returns all of it (the library peels every view)
        flat = np.ascontiguousarray(x.val).reshape(-1)
        rv = self.add(rcpp, flat[ridx], np.ascontiguousarray(x.err).reshape(-1)[ridx], [reads], x.exact, root=x.root)
        if rv is None:
            return None
        self.viewof[rv.cpp] = (x, ridx)
        if bad is not None:
            self.dyn[rv.cpp] = bad
            self.uses[rv.cpp].add('t')
        if nf.is_int(x.dtype) and self.rng.random() < 0.6:  # an int x with an exact float v: NumPy's cast
            v = self.exact_float(rv)
            kind = 'set'
        else:
            v = self.value_for(rv, x)
            kind = self.rng.choice(['set', 'set', 'set', 'inc', 'inc', 'add', 'mul', 'min', 'max', 'sub', 'user'])
        if v is None:
            return None
        xr = flat[ridx]
        vv = v.val
        if nf.broadcast(xr.shape, np.shape(vv)) != xr.shape:
            return None
        if not np.all(np.isfinite(np.asarray(vv, dtype=np.float64))):
            return None
        # one defined meaning only (see the docstring)
        xint = nf.is_int(x.dtype)
        vfloat = v.kind == 'const' and isinstance(v.val, float) or (v.kind != 'const' and not nf.is_int(v.dtype))
        if xint and vfloat:  # set only (the library refuses a float result for an int x: dtype_mismatch)
            if np.any(v.err > 0) or kind != 'set':
                return None
        if kind == 'set':
            r = np.broadcast_to(np.asarray(vv), xr.shape)
            err = np.broadcast_to(v.err, xr.shape)
        else:
            fn = COMBINE[kind][1]
            vm = np.abs(np.asarray(vv, dtype=np.float64))
            xm = np.abs(xr.astype(np.float64))
            if kind in ('mul', 'user'):
                if (xm.max(initial=0) + 1) * (vm.max(initial=0) + 1) > nf.BOUND:
                    return None
            r = np.asarray(fn(xr, vv))
            ex = np.ascontiguousarray(x.err).reshape(-1)[ridx]
            if kind == 'mul':
                err = xm * v.err + vm * ex + ex * v.err + self.rounding(r)
            elif kind in ('min', 'max'):
                err = np.maximum(ex, v.err)
            elif kind == 'user':
                err = ex + 2 * v.err + 2 * nf.unit(r.dtype) * (xm + 2 * vm)
            else:
                err = ex + v.err + self.rounding(r)
        res = np.asarray(r).astype(x.dtype)
        if not nf.is_int(res.dtype) and np.max(np.abs(res), initial=0) > 4 * nf.BOUND:
            return None
        if nf.is_int(res.dtype) and np.max(np.abs(np.asarray(r, dtype=np.float64)), initial=0) > 1000:
            return None
        err = np.broadcast_to(err, xr.shape) + self.rounding(res)
        out = np.array(x.val, copy=True, order='C')
        out.reshape(-1)[ridx] = res
        oerr = np.array(np.broadcast_to(x.err, x.shape), dtype=np.float64, copy=True, order='C')
        oerr.reshape(-1)[ridx] = err
        name = COMBINE[kind][0]
        if inplace:
            name = INPLACE_NAME.get(kind, name.replace('ip::update<', 'ip::update_inplace<'))
        cpp = '%s(%s, %s)' % (name, rv.cpp, v.cpp)
        root = self.destroyed(x) if inplace else None
        n = self.add(cpp, out, oerr, [rv, v], root=root)
        if n is not None:
            self.dtypes[n.cpp] = '%s<-%s' % (x.dtype, 'weak ' + type(vv).__name__ if v.kind == 'const' else v.dtype)
            base = x.cpp if x.kind == 'input' else self.base.get(x.cpp)
            if base is not None:
                self.base[n.cpp] = base
        return n


OPS = [('update', 40), ('binary', 14), ('unary', 5), ('inplace_binary', 8), ('inplace_unary', 3), ('sum', 3),
       ('where', 2), ('view', 14), ('dot', 3), ('reduce', 4), ('softmax', 2)]


def make_candidate(seed, index):
    rng = random.Random('update-%d-%d' % (seed, index))
    t = rng.choice([None, 0, 1, 2, 3]) if rng.random() < 0.5 else None
    g = UGraph(rng, t)
    names = rng.sample(POOL_INPUTS, rng.choice([1, 2, 2, 3, 3]))
    if not any(nf.INPUTS[nm][3] is not None and len(nf.INPUTS[nm][1]) == 2 for nm in names) and rng.random() < 0.7:
        names.append(rng.choice(['A', 'B', 'I', 'c', 'r']))
    if any(nm in ('i', 'I') for nm in names) and rng.random() < 0.6:  # float values for int regions
        names.append(rng.choice(['x', 's', 'y', 'A', 'B', 'a', 'b']))
    names = sorted(set(names), key=nf.INPUT_ORDER.index)
    if rng.random() < 0.5:
        rng.shuffle(names)
    g.data = {}
    for nm in names:
        val = nf.input_data(nm, rng)
        g.data[nm] = val
        g.version[nm] = 0
        kind = 'scalar' if nf.INPUTS[nm][3] is None else 'input'
        g.inputs.append(nm)
        g.pool.append(nf.Value(nm, val, np.zeros(np.shape(val)), kind, exact=True, root=(nm, 0)))
    if t is not None:
        g.data['t'] = np.array(t, dtype='int64')
        g.inputs.append('t')
    if all(nf.INPUTS[nm][3] is None for nm in names):
        return None
    steps = rng.randint(3, 8)
    tries = 0
    while g.n < steps and tries < 80:
        tries += 1
        kinds, weights = zip(*OPS)
        getattr(g, 'op_' + rng.choices(kinds, weights)[0])()
    if g.n == 0:
        return None
    # the last node an update now and then, so that output 0 is one
    if rng.random() < 0.6:
        for _ in range(10):
            if g.op_update(rooted=True) is not None:
                break
    nf.prune(g, rng)
    if not g.outputs or not any(' = ip::set' in l or ' = ip::inc' in l or ' = ip::update' in l for l in g.lines):
        return None
    if t is not None and 't' not in g.inputs:
        g.inputs.append('t')
    return g


# ---- C++ ---------------------------------------------------------------------------------
def kept_names(g):
    return {line[len('constexpr auto '):].split(' = ', 1)[0] for line in g.lines}


def markers(g, donated):
    return ', '.join('ip::donated' if nm == donated else 'ip::borrowed' for nm in g.inputs
                     if nf.INPUTS[nm][3] is not None)


def pointer_input(g):
    """The tensor input at the root of output 0's chain of updates, or None."""
    nm = g.base.get(g.outputs[0].cpp)
    return nm if nm in g.inputs else None


def probe_source(cands):
    src = ['#include <inplace.hpp>', '#include <cstdint>', '#include <cstdio>', '#include <string_view>',
           'namespace ip = inplace;', 'using namespace ip::literals;'] + USER_OP + ['namespace {'] + nf.preamble()
    for i, g in cands:
        src += nf.graph_source(g, 'c%d' % i)
        src.append('constexpr auto v = ip::check(in, out);')
        src.append('}')
    src.append('}')
    src.append('int main() {')
    for i, _ in cands:
        src.append('  std::printf("%d %%d %%d\\n", int(c%d::v.ok), int(c%d::v.error));' % (i, i, i))
    src.append('}')
    return '\n'.join(src) + '\n'


def probe(cands, cxx, tmp, log):
    """ip::check's verdicts (ok, error) by candidate."""
    if not cands:
        return {}
    path, exe = os.path.join(tmp, 'probe.cpp'), os.path.join(tmp, 'probe')
    with open(path, 'w') as f:
        f.write(probe_source(cands))
    r = nf.subprocess.run([cxx, '-std=c++20', '-O0', '-I', os.path.join(ROOT, 'include'), path, '-o', exe],
                          capture_output=True, text=True)
    if r.returncode != 0:
        if len(cands) == 1:
            i, g = cands[0]
            log.write('candidate %d does not compile under ip::check:\n    %s\n' % (i, '\n    '.join(g.lines)))
            for l in [l for l in r.stderr.splitlines() if 'error' in l][:3]:
                log.write('    %s\n' % l[:600])
            return {}
        h = len(cands) // 2
        res = probe(cands[:h], cxx, tmp, log)
        res.update(probe(cands[h:], cxx, tmp, log))
        return res
    out = nf.subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    res = {}
    for line in out.split('\n'):
        if line.strip():
            i, ok, err = map(int, line.split())
            res[i] = (ok, err)
    return res


def arg_source(name, val):
    if name == 't':
        return 'std::int64_t{%d}' % int(val)
    return nf.arg_source(name, val)


def test_file(graphs, args):
    cmd = '/usr/bin/python3 scripts/gen_update_fuzz.py --seed %d --candidates %d --files %d --per-file %d' % (
        args.seed, args.candidates, args.files, args.per_file)
    out = ['// GENERATED by scripts/gen_update_fuzz.py (NumPy %s): do not edit; regenerate with' % np.__version__,
           '//   ' + cmd,
           '// Random legal graphs of ip::set / inc / update<Op> (pure and in place) through chains',
           '// of views and ip::dynamic_slice, v broadcast, mixed dtypes, run by nf::run (every',
           '// donation pattern, no_rewrite, strided arguments, debug mode) against NumPy; then the',
           '// donated storage (output 0 in it when the plan puts it there) and out-of-range starts.',
           '#include "random_updates.hpp"', '', 'namespace ip = inplace;', 'using namespace ip::literals;', '']
    out += USER_OP + ['', 'namespace {'] + nf.preamble() + ['']
    cases = []
    for gid, g in graphs:
        ns = 'g%d' % gid
        out += nf.graph_source(g, ns)
        out.append('constexpr bool ok = ip::check(in, out).ok;')
        out.append('constexpr auto f = ip::function(in, out);')
        out.append('constexpr auto fn = ip::function(in, out, ip::no_rewrite);')
        out.append('const std::vector<nf::expected> want = {')
        for v in g.outputs:
            out.append('    %s,' % nf.expected_source(v))
        out.append('};')
        out.append('}  // namespace %s' % ns)
        out.append('')
        label = '%s %d' % (args.name, gid)
        args_src = ',\n      '.join(arg_source(nm, g.data[nm]) for nm in g.inputs)
        body = ['  nf::run<%s::ok>("%s", %s::f, %s::fn, %s::want,\n      %s);' % (ns, label, ns, ns, ns, args_src)]
        x = pointer_input(g)
        if x is not None:
            body.append('  if constexpr (%s::ok)\n    nu::in_donated_storage<%d>("%s", %s::f, ip::explain(%s::f, %s),\n      %s);'
                        % (ns, g.inputs.index(x), x, ns, ns, markers(g, x), args_src))
        kept = kept_names(g)
        bads = [b for nm, b in g.dyn.items() if nm in kept]
        if bads and 't' in g.inputs:
            k = g.inputs.index('t')
            for bad in (-1, min(bads)):
                vals = dict(g.data)
                vals['t'] = np.array(bad)
                src = ',\n      '.join(arg_source(nm, vals[nm]) for nm in g.inputs)
                body.append('  if constexpr (%s::ok)\n    nu::out_of_range<%d>(%s::f,\n      %s);' % (ns, k, ns, src))
        cases.append('TEST_CASE("%s", "[run][random][numpy][update]") {\n%s\n}' % (label, '\n'.join(body)))
    out.append('}  // namespace')
    out.append('')
    out += cases
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seed', type=int, default=20261126)
    ap.add_argument('--candidates', type=int, default=90)
    ap.add_argument('--files', type=int, default=3)
    ap.add_argument('--per-file', type=int, default=8)
    ap.add_argument('--batch', type=int, default=40)
    ap.add_argument('--cxx', default='g++')
    ap.add_argument('--out', default=os.path.join(ROOT, 'tests', 'run'))
    ap.add_argument('--name', default='random_updates')
    args = ap.parse_args()
    cands = []
    for i in range(args.candidates):
        g = make_candidate(args.seed, i)
        if g is not None and g.outputs:
            cands.append((i, g))
    legal, errors = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for b in range(0, len(cands), args.batch):
            chunk = cands[b:b + args.batch]
            res = probe(chunk, args.cxx, tmp, sys.stderr)
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
    sys.stderr.write('kept %d graphs: %d with output 0 an update of an input, %d with a dynamic_slice\n'
                     % (len(legal), sum(1 for _, g in legal if pointer_input(g) is not None),
                        sum(1 for _, g in legal if any(nm in kept_names(g) for nm in g.dyn))))
    kinds = {}
    for _, g in legal:
        for line in g.lines:
            rhs = line.split(' = ', 1)[1]
            for key in ('ip::set_inplace', 'ip::inc_inplace', 'ip::update_inplace<', 'ip::set(', 'ip::inc(', 'ip::update<',
                        'ip::dynamic_slice<', 'ip::diagonal<', 'ip::transpose(', 'ip::reverse(', ', -', 'ip::at<'):
                kinds[key] = kinds.get(key, 0) + rhs.count(key)
    sys.stderr.write('in the kept graphs: %s\n' % ', '.join('%s %d' % kv for kv in sorted(kinds.items())))
    dts = {}
    for _, g in legal:
        for nm in kept_names(g):
            if nm in g.dtypes:
                dts[g.dtypes[nm]] = dts.get(g.dtypes[nm], 0) + 1
    sys.stderr.write('updates by dtype (x <- v): %s\n' % ', '.join('%s %d' % kv for kv in sorted(dts.items())))
    os.makedirs(args.out, exist_ok=True)
    for k in range(args.files):
        part = legal[k * args.per_file:(k + 1) * args.per_file]
        if not part:
            break
        path = os.path.join(args.out, '%s_%d.cpp' % (args.name, k + 1))
        with open(path, 'w') as f:
            f.write(test_file(part, args))
        sys.stderr.write('wrote %s (%d graphs)\n' % (path, len(part)))


if __name__ == '__main__':
    main()
