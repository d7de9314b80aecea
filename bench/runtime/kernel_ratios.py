#!/usr/bin/env python3
"""Markdown table of kernels_bench's paired ratios (docs/performance.md, "Opaque kernels").

    kernels_bench --benchmark_out=k.json --benchmark_out_format=json
    python3 bench/runtime/kernel_ratios.py k.json [more runs...]

Each row: the case, then every vs_<other> counter of the first run (other_time /
inplace_time: above 1 means inplace is faster), the sum errors when present,
and with several runs the range of each ratio over the runs.
"""
import json
import sys


def load(path):
    rows = {}
    for b in json.load(open(path))["benchmarks"]:
        name = b["name"].split("/min_time")[0]
        if "error_occurred" in b:
            rows[name] = {"error": b.get("error_message", "error")}
            continue
        rows[name] = {k: v for k, v in b.items() if k.startswith(("vs_", "err_", "GFLOPs"))}
    return rows


runs = [load(p) for p in sys.argv[1:]]
first = runs[0]
cols = sorted({k for r in first.values() for k in r if k.startswith("vs_")})
extra = [k for k in ["err_inplace", "err_eigen", "GFLOPs"] if any(k in r for r in first.values())]
head = ["case"] + cols + extra + (["range over runs"] if len(runs) > 1 else [])
print("| " + " | ".join(head) + " |")
print("| --- |" + " ---: |" * (len(cols) + len(extra)) + (" --- |" if len(runs) > 1 else ""))
for name, r in first.items():
    if "error" in r:
        print(f"| {name} | error: {r['error']} |")
        continue
    cells = [f"{r[c]:.3f}x" if c in r else "" for c in cols]
    cells += [(f"{r[e]:.3g}" if e in r else "") for e in extra]
    if len(runs) > 1:
        spans = []
        for c in cols:
            vs = [run[name][c] for run in runs if name in run and c in run[name]]
            if vs:
                spans.append(f"{min(vs):.3f}-{max(vs):.3f}")
        cells.append(", ".join(spans))
    print(f"| {name} | " + " | ".join(cells) + " |")
