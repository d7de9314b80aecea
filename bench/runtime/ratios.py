#!/usr/bin/env python3
"""Markdown table of speed ratios from one runtime_bench JSON run.

    runtime_bench --benchmark_out=run.json --benchmark_out_format=json
    python3 bench/runtime/ratios.py run.json

A ratio is other_time / inplace_time (CPU time): above 1 means inplace is faster.
"""
import json
import sys

runs = json.load(open(sys.argv[1]))["benchmarks"]
t = {b["name"]: b["cpu_time"] for b in runs if "error_occurred" not in b}
gbs = {b["name"]: b.get("bytes_per_second", 0) / 2**30 for b in runs}
sizes = [(4096, "4Ki"), (262144, "256Ki"), (16777216, "16Mi")]
print("| chain | size | inplace ns | GiB/s | vs hand | vs Eigen | vs xtensor |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for chain in ["axpy", "mix", "trans"]:
    for n, label in sizes:
        me = t.get(f"BM_inplace/{chain}/{n}")
        if me is None:
            continue
        cells = []
        for other in ["hand", "eigen", "xtensor"]:
            o = t.get(f"BM_{other}/{chain}/{n}")
            cells.append(f"{o / me:.2f}x" if o else "n/a")
        print(f"| {chain} | {label} | {me:.0f} | {gbs[f'BM_inplace/{chain}/{n}']:.1f} | " + " | ".join(cells) + " |")
print()
print("| limit | size | ns | GiB/s |")
print("| --- | --- | ---: | ---: |")
for k in ["memcpy", "triad"]:
    for n, label in sizes:
        name = f"BM_{k}/{n}"
        if name in t:
            print(f"| {k} | {label} | {t[name]:.0f} | {gbs[name]:.1f} |")
