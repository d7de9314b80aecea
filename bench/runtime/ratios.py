#!/usr/bin/env python3
"""Markdown table of speed ratios from runtime_bench JSON runs.

    runtime_bench --benchmark_repetitions=5 --benchmark_out=run.json --benchmark_out_format=json
    python3 bench/runtime/ratios.py run.json [more runs...]

A ratio is other_time / inplace_time (CPU time): above 1 means inplace is faster.
With repetitions, each time is the median of the repetitions. With several runs,
the table shows the first run and a last column with each ratio's range
(min-max of vs hand, vs Eigen, vs xtensor) over all the runs.

BM_paired rows (implementations timed back to back in every round) give a
second table of their median ratios, with the same range column.
"""
import json
import sys


def load(path):
    runs = json.load(open(path))["benchmarks"]
    t, gbs = {}, {}
    for b in runs:
        if "error_occurred" in b:
            continue
        if b["name"].startswith("BM_paired/"):  # BM_paired/<chain>/<n>/min_time:...
            chain, n = b["name"].split("/")[1:3]
            for other in ["hand", "eigen", "xtensor"]:
                if "vs_" + other in b:
                    t[f"paired/{other}/{chain}/{n}"] = b["vs_" + other]
            continue
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") != "median":
                continue
            name = b["run_name"]
        else:
            name = b["name"]
        t[name] = b["cpu_time"]
        gbs[name] = b.get("bytes_per_second", 0) / 2**30
    return t, gbs


sizes = [(4096, "4Ki"), (262144, "256Ki"), (16777216, "16Mi")]
others = ["hand", "eigen", "xtensor"]
runs = [load(p) for p in sys.argv[1:]]
t, gbs = runs[0]


def ratio(run, other, chain, n):
    me, o = run[0].get(f"BM_inplace/{chain}/{n}"), run[0].get(f"BM_{other}/{chain}/{n}")
    return o / me if me and o else None


spread = len(runs) > 1
independent = any(k.startswith("BM_inplace/") for k in t)
if independent:
    print("| chain | size | inplace ns | GiB/s | vs hand | vs Eigen | vs xtensor |" + (" range over runs |" if spread else ""))
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |" + (" --- |" if spread else ""))
for chain in ["axpy", "mix", "trans"]:
    for n, label in sizes:
        me = t.get(f"BM_inplace/{chain}/{n}")
        if me is None:
            continue
        cells = []
        for other in others:
            r = ratio(runs[0], other, chain, n)
            cells.append(f"{r:.2f}x" if r else "n/a")
        row = f"| {chain} | {label} | {me:.0f} | {gbs[f'BM_inplace/{chain}/{n}']:.1f} | " + " | ".join(cells) + " |"
        if spread:
            ranges = []
            for other in others:
                rs = [r for r in (ratio(run, other, chain, n) for run in runs) if r]
                ranges.append(f"{min(rs):.2f}-{max(rs):.2f}" if rs else "n/a")
            row += " " + ", ".join(ranges) + " |"
        print(row)
if any(k.startswith(("BM_memcpy/", "BM_triad/")) for k in t):
    print()
    print("| limit | size | ns | GiB/s |")
    print("| --- | --- | ---: | ---: |")
for k in ["memcpy", "triad"]:
    for n, label in sizes:
        name = f"BM_{k}/{n}"
        if name in t:
            print(f"| {k} | {label} | {t[name]:.0f} | {gbs[name]:.1f} |")

paired = [(chain, n, label) for chain in ["axpy", "mix", "trans"] for n, label in sizes
          if any(f"paired/{o}/{chain}/{n}" in t for o in others)]
if paired:
    if independent:
        print()
    print("| paired | size | vs hand | vs Eigen | vs xtensor |" + (" range over runs |" if spread else ""))
    print("| --- | --- | ---: | ---: | ---: |" + (" --- |" if spread else ""))
    for chain, n, label in paired:
        cells = [f"{t[k]:.3f}x" if (k := f"paired/{o}/{chain}/{n}") in t else "n/a" for o in others]
        row = f"| {chain} | {label} | " + " | ".join(cells) + " |"
        if spread:
            ranges = []
            for o in others:
                rs = [run[0][k] for run in runs if (k := f"paired/{o}/{chain}/{n}") in run[0]]
                ranges.append(f"{min(rs):.3f}-{max(rs):.3f}" if rs else "n/a")
            row += " " + ", ".join(ranges) + " |"
        print(row)
