#!/usr/bin/env python3
"""What running a large graph costs to compile: generates a legal DAG of N
nodes whose main() calls the function (bench/compile/generate.py --call) and
checks that it compiles (-fsyntax-only: the analysis, the fused loops and the
plans are all evaluated there). The fuser's work grows about linearly with the
graph; a quadratic one exceeds the compiler's constexpr operation limit near
200 nodes.

    check_large_call.py CXX [--nodes N] [--seed S]

Prints the compile time; exits 1 when the graph does not compile."""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("cxx")
    p.add_argument("--nodes", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "graph.cpp")
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "compile", "generate.py"), "--kind", "dag",
                        "--nodes", str(args.nodes), "--seed", str(args.seed), "--call", "--out", src], check=True)
        start = time.monotonic()
        r = subprocess.run([args.cxx, "-std=c++20", "-fsyntax-only", "-I", os.path.join(ROOT, "include"), src],
                           capture_output=True, text=True, cwd=tmp)
        seconds = time.monotonic() - start
    print("%s, %d-node DAG with a call: %.1f s" % (args.cxx, args.nodes, seconds))
    if r.returncode != 0:
        print("FAIL: the graph does not compile")
        print(r.stderr[:4096])
        sys.exit(1)


if __name__ == "__main__":
    main()
