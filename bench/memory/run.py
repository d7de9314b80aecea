#!/usr/bin/env python3
"""Runs every variant of the 64 MiB pipeline in its own process and prints the
table of docs/performance.md: peak resident memory above the inputs, and time.
Usage: bench/memory/run.py BUILD_DIR (the folder holding memory_pipeline).
NumPy runs under /usr/bin/python3 (Debian's python3-numpy), if it imports."""
import pathlib
import subprocess
import sys

build = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "build/gcc/bench/memory")
exe = build / "memory_pipeline"
here = pathlib.Path(__file__).resolve().parent
rows = []
for v in ["borrowed", "donated", "no_rewrite"]:
    rows.append(subprocess.run([str(exe), v], check=True, capture_output=True, text=True).stdout.split())
for v in ["numpy", "numpy_out"]:
    p = subprocess.run(["/usr/bin/python3", str(here / "numpy_pipeline.py"), v], capture_output=True, text=True)
    if p.returncode == 0:
        rows.append(p.stdout.split())
    else:
        print(f"(NumPy skipped: {p.stderr.strip().splitlines()[-1] if p.stderr.strip() else 'failed'})")
print("| variant | peak above start (MiB) | inputs (MiB) | extra (MiB) | seconds | r[0] |")
print("| --- | --- | --- | --- | --- | --- |")
for name, peak, inputs, secs, r0 in rows:
    print(f"| {name} | {float(peak):.1f} | {float(inputs):.1f} | {float(peak) - float(inputs):.1f} | {secs} | {r0} |")

# The transformer block (bench/transformer_block.hpp): one call's peak against
# the goal weights + activations (X, y) + 1 MiB, beside two baselines on the
# same inputs (no call; a one-op call), the Eigen block's and NumPy's.
exe = build / "memory_transformer"
if exe.exists():
    rows = [subprocess.run([str(exe), v], check=True, capture_output=True, text=True).stdout.split()
            for v in ["nothing", "trivial", "borrowed", "assigned", "donated", "second"]]
    eigen = build / "memory_transformer_eigen"
    if eigen.exists():
        rows.append(subprocess.run([str(eigen)], check=True, capture_output=True, text=True).stdout.split())
    p = subprocess.run(["/usr/bin/python3", str(here / "numpy_transformer.py")], capture_output=True, text=True)
    print()
    print("| transformer block | peak above start (MiB) | inputs (MiB) | call's extra (MiB) | goal: peak within (MiB) "
          "| plan: allocations, peak MiB | seconds | y[0, 0] |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, peak, inputs, _, goal, allocs, plan_mib, secs, y00 in rows:
        print(f"| {name} | {float(peak):.1f} | {float(inputs):.1f} | {float(peak) - float(inputs):.1f} | {goal} "
              f"| {allocs}, {plan_mib} | {secs} | {y00} |")
    if p.returncode == 0:
        name, peak, inputs, secs, y00 = p.stdout.split()
        print(f"| {name} | {float(peak):.1f} | {float(inputs):.1f} | {float(peak) - float(inputs):.1f} | | | {secs} | {y00} |")
