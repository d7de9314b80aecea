#!/usr/bin/env python3
"""Generate a legal inplace graph of N op nodes as a C++ translation unit.

  generate.py --kind chain|dag --nodes N --seed S --out file.cpp [--catch2]

Each node is one `constexpr auto nK = ...;` line, so its type (and everything
node.hpp computes for it) is built where it is declared.

chain: n0 = f(x), nK = f(n{K-1}, ...): pure ops, *_inplace ops and views of the
       previous value, mixed; the graph is N levels deep.
dag:   several rank-1 and rank-2 inputs (one ip::indestructible); every node
       takes random earlier values of its rank. About a third of the nodes are
       in place, a fifth are views (slice<0>, slice<0, 8>, reverse, transpose),
       some binary ops take a constant (1.5_c).

The destroy rules (docs/analysis.md) hold by construction. Every edge (data edge, or
"reader before destroyer") goes from an earlier line to a later one, so the
constraint graph is acyclic:
  - a node destroys the root r of its first argument only when r is not yet
    destroyed, is neither a constant nor an indestructible input, its other
    arguments have other roots (no aliasing hazard), and every value in
    impact(r) other than that argument already has a consumer (so none of
    them is a sink, i.e. an output, and none is dead);
  - once r is destroyed no later node reads a value in impact(r): every reader
    of r was declared before its destroyer and is ordered before it;
  - structurally equal expressions are one node in inplace (CSE), so the
    generator never writes the same expression twice.
Outputs are the sinks: values that no node reads.

With --call, main() also calls f on tensors (8 or 8x8 elements): what running
the graph costs to compile (the plan, the fused loops, the kernels).

With --illegal the graph is made illegal by two extra destroyers of one sink
(which is also returned): ip::function must fail with one short diagnostic
(scripts/check_diagnostic_size.py, bench/compile/measure.py --errors).

With --catch2 the file is a Catch2 test (no main) that checks the graph and,
for a few nodes, that ip::position respects data edges and reader-before-
destroyer edges.
"""

import argparse
import random
import sys

UNARY = ["exp", "log", "sqrt", "abs", "tanh", "sigmoid", "relu", "neg"]
UNARY_INPLACE = ["exp_inplace", "log_inplace", "sqrt_inplace", "abs_inplace", "tanh_inplace",
                 "sigmoid_inplace", "relu_inplace", "neg_inplace"]
BINARY = ["add", "sub", "mul", "div", "min", "max"]
OPERATORS = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
BINARY_INPLACE = ["add_inplace", "sub_inplace", "mul_inplace", "div_inplace"]
CONSTANTS = ["0.5_c", "1.5_c", "2.0_c", "3.0_c"]
PREFIX = 8  # the length of every slice<0, K> view


class Value:
    """A leaf or the (single) output of a node."""

    def __init__(self, name, rank, kind, root=None, expr=None):
        self.name = name
        self.rank = rank
        self.kind = kind            # input | indestructible | constant | op
        self.root = root if root is not None else self   # its root (follows view edges back)
        self.expr = expr            # C++ expression (op nodes)
        self.args = []              # argument values (op nodes)
        self.consumers = 0
        self.destroyed = False      # meaningful on roots
        self.destroys = None        # for a destroyer: the root it destroys
        self.is_view = False


class Graph:
    def __init__(self, rng):
        self.rng = rng
        self.inputs = []
        self.nodes = []
        self.impact = {}            # root name -> values whose root it is
        self.seen = set()           # expressions already written (CSE)
        self.constants = {}

    def add_input(self, name, rank, indestructible=False):
        v = Value(name, rank, "indestructible" if indestructible else "input")
        self.inputs.append(v)
        self.impact[name] = [v]
        return v

    def constant(self, text):
        if text not in self.constants:
            self.constants[text] = Value(text, 0, "constant")
        return self.constants[text]

    def readable(self, v):
        return not v.root.destroyed

    def can_destroy(self, v, others):
        r = v.root
        if r.destroyed or r.kind in ("constant", "indestructible"):
            return False
        if any(o.root is r for o in others):
            return False
        return all(w is v or w.consumers > 0 for w in self.impact[r.name])

    def emit(self, expr, args, rank, view=False, destroyed_arg=None):
        """Declare node n<K> = expr; returns it, or None when expr was written before."""
        if expr in self.seen:
            return None
        self.seen.add(expr)
        name = "n%d" % len(self.nodes)
        if view:
            v = Value(name, rank, "op", root=args[0].root, expr=expr)
            v.is_view = True
        else:
            v = Value(name, rank, "op", expr=expr)
        v.args = list(args)
        for a in args:
            a.consumers += 1
        if destroyed_arg is not None:
            destroyed_arg.root.destroyed = True
            v.destroys = destroyed_arg.root
        self.impact.setdefault(v.root.name, []).append(v)
        self.nodes.append(v)
        return v

    def sinks(self):
        return [v for v in self.nodes if v.consumers == 0 and not v.root.destroyed]


def call(op, *args):
    return "ip::%s(%s)" % (op, ", ".join(a.name for a in args))


def binary_expr(rng, op, a, b):
    if op in OPERATORS and rng.random() < 0.5:
        return "%s %s %s" % (a.name, OPERATORS[op], b.name)
    return call(op, a, b)


# ---- chain -----------------------------------------------------------------------

def gen_chain(n, rng):
    g = Graph(rng)
    x = g.add_input("x", 1)
    y = g.add_input("y", 1, indestructible=True)   # read by many nodes, never destroyed
    prev = x
    last_view = False
    while len(g.nodes) < n:
        r = rng.random()
        node = None
        if r < 0.30 and g.can_destroy(prev, [y]):
            if rng.random() < 0.5:
                node = g.emit(call(rng.choice(BINARY_INPLACE), prev, y), [prev, y], 1, destroyed_arg=prev)
            else:
                node = g.emit(call(rng.choice(UNARY_INPLACE), prev), [prev], 1, destroyed_arg=prev)
        elif r < 0.45 and not last_view and prev.kind == "op":
            if rng.random() < 0.5:
                node = g.emit("ip::reverse(%s)" % prev.name, [prev], 1, view=True)
            else:
                node = g.emit("ip::slice<0>(%s)" % prev.name, [prev], 1, view=True)
        elif r < 0.60:
            c = g.constant(rng.choice(CONSTANTS))
            node = g.emit(binary_expr(rng, rng.choice(list(OPERATORS)), prev, c), [prev, c], 1)
        elif r < 0.80:
            node = g.emit(binary_expr(rng, rng.choice(BINARY), prev, y), [prev, y], 1)
        else:
            node = g.emit(call(rng.choice(UNARY), prev), [prev], 1)
        if node is not None:
            last_view = node.is_view
            prev = node
    return g


# ---- random DAG -----------------------------------------------------------------

def gen_dag(n, rng):
    g = Graph(rng)
    for i in range(4):
        g.add_input("x%d" % i, 1)
    g.add_input("k", 1, indestructible=True)
    for i in range(2):
        g.add_input("A%d" % i, 2)

    def pool(rank):
        return [v for v in g.inputs + g.nodes if v.rank == rank and g.readable(v)]

    def pick(rank, exclude=()):
        cands = [v for v in pool(rank) if v not in exclude]
        if not cands:
            return None
        fresh = [v for v in cands if v.consumers == 0 and v.kind == "op"]
        if fresh and rng.random() < 0.6:       # keep the DAG connected: few sinks
            return rng.choice(fresh)
        recent = cands[-12:]
        return rng.choice(recent if rng.random() < 0.7 else cands)

    def pick_destroyable(rank, others=()):
        cands = [v for v in pool(rank) if g.can_destroy(v, others)]
        if not cands:
            return None
        fresh = [v for v in cands if v.consumers == 0]
        return rng.choice(fresh if fresh and rng.random() < 0.7 else cands)

    attempts = 0
    while len(g.nodes) < n:
        attempts += 1
        if attempts > 200 * n:
            sys.exit("generate.py: could not build the DAG")
        rank = 1 if rng.random() < 0.7 else 2
        r = rng.random()
        if r < 0.32:                                        # in place
            if rng.random() < 0.6:
                b = pick(rank)
                if b is None:
                    continue
                if rng.random() < 0.2:
                    b = g.constant(rng.choice(CONSTANTS))
                a = pick_destroyable(rank, [b])
                if a is None:
                    continue
                g.emit(call(rng.choice(BINARY_INPLACE), a, b), [a, b], rank, destroyed_arg=a)
            else:
                a = pick_destroyable(rank)
                if a is None:
                    continue
                g.emit(call(rng.choice(UNARY_INPLACE), a), [a], rank, destroyed_arg=a)
        elif r < 0.52:                                      # views
            a = pick(rank)
            if a is None:
                continue
            v = rng.random()
            if rank == 2 and v < 0.5:
                expr = "ip::transpose(%s)" % a.name
            elif v < 0.7:
                expr = "ip::reverse(%s)" % a.name
            elif v < 0.85:
                expr = "ip::slice<0>(%s)" % a.name
            else:
                # one static length for every prefix: slice<0, K> of a dynamic axis has
                # the static extent K, and equal Ks never conflict when broadcast
                expr = "ip::slice<0, %d>(%s)" % (PREFIX, a.name)
            g.emit(expr, [a], rank, view=True)
        elif r < 0.62:                                      # with a constant
            a = pick(rank)
            if a is None:
                continue
            c = g.constant(rng.choice(CONSTANTS))
            g.emit(binary_expr(rng, rng.choice(list(OPERATORS)), a, c), [a, c], rank)
        elif r < 0.85:                                      # binary
            a = pick(rank)
            b = pick(rank, [a]) if a is not None else None
            if b is None:
                continue
            g.emit(binary_expr(rng, rng.choice(BINARY), a, b), [a, b], rank)
        elif r < 0.90:                                      # n-ary sum
            args = []
            for _ in range(3):
                a = pick(rank, args)
                if a is not None:
                    args.append(a)
            if len(args) < 3:
                continue
            g.emit(call("sum", *args), args, rank)
        else:                                               # unary
            a = pick(rank)
            if a is None:
                continue
            g.emit(call(rng.choice(UNARY), a), [a], rank)
    return g


# ---- output --------------------------------------------------------------------

def input_decl(v):
    if v.kind == "indestructible":
        return 'constexpr auto %s = ip::input<"%s", float, %d, ip::indestructible>;' % (v.name, v.name, v.rank)
    return 'constexpr auto %s = ip::input<"%s", float, %d>;' % (v.name, v.name, v.rank)


def catch2_checks(g, rng):
    """A few (earlier, later) pairs that the schedule must respect."""
    data = [(a, v) for v in g.nodes for a in v.args if a.kind == "op"]
    order = []
    for d in g.nodes:
        if d.destroys is None:
            continue
        for w in g.impact[d.destroys.name]:
            for m in g.nodes:
                if m is not d and w in m.args and d not in ancestors(m):
                    order.append((m, d))
    pairs = rng.sample(data, min(6, len(data))) + rng.sample(order, min(4, len(order)))
    return pairs


def ancestors(v, cache={}):
    key = id(v)
    if key not in cache:
        s = set()
        for a in v.args:
            if a.kind == "op":
                s.add(a)
                s |= ancestors(a)
        cache[key] = s
    return cache[key]


def render(g, args):
    out = []
    cmd = "bench/compile/generate.py --kind %s --nodes %d --seed %d" % (args.kind, args.nodes, args.seed)
    if args.catch2:
        cmd += " --catch2"
    if args.illegal:
        cmd += " --illegal"
    out.append("// Generated by %s -- do not edit." % cmd)
    n_inplace = sum(1 for v in g.nodes if v.destroys is not None)
    n_views = sum(1 for v in g.nodes if v.is_view)
    out.append("// %d op nodes: %d in place, %d views; %d outputs." %
               (len(g.nodes), n_inplace, n_views, len(g.sinks())))
    if args.catch2:
        out.append("#include <catch2/catch.hpp>")
    # a graph that is only checked needs the graph layer; running it, the rest
    out.append("#include <inplace.hpp>" if args.call or args.catch2 else "#include <inplace/graph.hpp>")
    out.append("")
    out.append("namespace ip = inplace;")
    out.append("using namespace ip::literals;")
    out.append("")
    if args.catch2:
        out.append("namespace {")
        out.append("")
    for v in g.inputs:
        out.append(input_decl(v))
    out.append("")
    for v in g.nodes:
        out.append("constexpr auto %s = %s;" % (v.name, v.expr))
    out.append("")
    ins = "ip::inputs(%s)" % ", ".join(v.name for v in g.inputs)
    sinks = [v.name for v in g.sinks()]
    if args.illegal:  # two more destroyers of a returned value
        sinks += ["ip::neg_inplace(%s)" % sinks[0], "ip::abs_inplace(%s)" % sinks[0]]
    outs = "ip::outputs(%s)" % ", ".join(sinks)
    if args.illegal:
        out.append("constexpr auto f = ip::function(%s,\n                                %s);" % (ins, outs))
        out.append("")
        out.append("int main() {}")
        return "\n".join(out) + "\n"
    out.append("static_assert(ip::check(%s,\n                        %s).ok);" % (ins, outs))
    out.append("constexpr auto f = ip::function(%s,\n                                %s);" % (ins, outs))
    last = g.nodes[-1].name
    if args.catch2:
        out.append("")
        out.append("}  // namespace")
        out.append("")
        out.append('TEST_CASE("a generated %s of %d nodes with in-place ops and views is legal", "[graph]") {'
                   % ("chain" if args.kind == "chain" else "DAG", len(g.nodes)))
        out.append("  STATIC_REQUIRE(ip::check(%s, %s).ok);" % (ins, outs))
        out.append("  STATIC_REQUIRE(ip::position(f, %s) >= 0);" % last)
        out.append("  // data edges and reader-before-destroyer edges")
        for a, b in catch2_checks(g, random.Random(args.seed + 1)):
            out.append("  STATIC_REQUIRE(ip::position(f, %s) < ip::position(f, %s));" % (a.name, b.name))
        out.append("  STATIC_REQUIRE(ip::position(f, %s) == -1);  // a leaf" % g.inputs[0].name)
        out.append("}")
    elif args.call:
        out.append("")
        out.append("int main() {")
        for v in g.inputs:
            shape = "8" if v.rank == 1 else "8, 8"
            out.append("  ip::tensor<float, %d> a_%s(%s);" % (v.rank, v.name, shape))
        out.append("  auto r = f(%s);" % ", ".join("a_" + v.name for v in g.inputs))
        out.append("  (void)r;")
        out.append("  return ip::position(f, %s) >= 0 ? 0 : 1;" % last)
        out.append("}")
    else:
        out.append("")
        out.append("int main() { return ip::position(f, %s) >= 0 ? 0 : 1; }" % last)
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kind", choices=["chain", "dag"], required=True)
    p.add_argument("--nodes", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="-")
    p.add_argument("--catch2", action="store_true", help="write a Catch2 test case instead of main()")
    p.add_argument("--call", action="store_true", help="main() also calls the function (compile cost of running it)")
    p.add_argument("--illegal", action="store_true", help="two extra destroyers: ip::function must fail")
    args = p.parse_args()
    if args.nodes < 1:
        p.error("--nodes must be positive")
    rng = random.Random(args.seed)
    g = gen_chain(args.nodes, rng) if args.kind == "chain" else gen_dag(args.nodes, rng)
    text = render(g, args)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
