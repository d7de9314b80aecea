#!/usr/bin/env python3
"""What a user sees when a large graph breaks a rule: generates a legal DAG of
N nodes made illegal by two extra destroyers (bench/compile/generate.py
--illegal), compiles it with default flags, and checks that the output is one
error, under 20 KB, with the rule, the fix, the user's file and the names of
the offending nodes within its first 10 lines and 2 KB, and no expression type
(inplace::detail::node<...>) anywhere.

    check_diagnostic_size.py CXX [--nodes N] [--seed S]

Prints the sizes; exits 1 when a check fails."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(cxx, nodes, seed, kind="dag"):
    """-> (output text, source file name)"""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "graph.cpp")
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "compile", "generate.py"), "--kind", kind,
                        "--nodes", str(nodes), "--seed", str(seed), "--illegal", "--out", src], check=True)
        p = subprocess.run([cxx, "-std=c++20", "-fsyntax-only", "-I", os.path.join(ROOT, "include"), src],
                           capture_output=True, text=True, cwd=tmp)
        if p.returncode == 0:
            sys.exit("the illegal graph compiled")
        return p.stderr


def problems(err):
    found = []
    head = "".join(err.splitlines(keepends=True)[:10])[:2048]
    if len(err) > 20 * 1024:
        found.append("output of %d bytes; at most 20 KB" % len(err))
    errors = len(re.findall(r"error:", err))
    if errors != 1:
        found.append("%d errors; one expected" % errors)
    if not re.search(r"inplace: \w+: ", head):
        found.append("no 'inplace: <rule>: ' in the first 10 lines (2 KB)")
    if "; fix: " not in head:
        found.append("no '; fix: ' in the first 10 lines (2 KB)")
    if "graph.cpp:" not in head:
        found.append("the user's file graph.cpp:<line> is not in the first 10 lines (2 KB)")
    if '"neg_inplace(' not in head and "'n', 'e', 'g', '_', 'i'" not in head:
        found.append("the destroyer neg_inplace(...) is not named in the first 10 lines (2 KB)")
    if "detail::node<" in err:
        found.append("an expression type (detail::node<...>) in the output")
    return found, head


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("cxx")
    p.add_argument("--nodes", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    err = measure(args.cxx, args.nodes, args.seed)
    found, head = problems(err)
    print("%s, %d nodes: %d bytes in all, %d bytes in the first 10 lines" % (args.cxx, args.nodes, len(err),
                                                                           len(head)))
    for f in found:
        print("FAIL: " + f)
    if found:
        print(err[:4096])
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
