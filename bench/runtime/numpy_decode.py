#!/usr/bin/env python3
"""One decode step in NumPy, and the table of decode_bench's JSON runs beside it.

    /usr/bin/python3 bench/runtime/numpy_decode.py [decode.json ...]

The step of decode_bench.cpp on the same sizes: a float32 cache of 4096 rows of
4096 floats (64 MiB), one row of 4096 floats written per step at row t:

    cache[t] = k                      in place (what a donated call does)
    c = cache.copy(); c[t] = k        a new cache (what a call without donation must do)

Each is checked first (the row written, every other row untouched; the copy
leaves the cache as it was), then timed with timeit: the time of one step,
the median over repetitions. As in decode_bench, `cache[t] = k` is timed with
t stepping through all 4096 rows (window 4096: the row written is out of the
last level cache) and through 8 rows (window 8: in cache), in batches of 64
steps (wall time); its time includes one iteration of a Python loop (tens of
ns), as a decode loop in Python would pay. The copies are timed in thread CPU
time, and also the copy alone (np.copyto into an array made once).

With decode_bench JSON files (decode_bench --benchmark_out=d.json
--benchmark_out_format=json), prints a markdown table of their counters: the
median over the runs, and the range.
"""
import json
import statistics
import sys
import time
import timeit

import numpy as np

ROWS, COLS = 4096, 4096


def initial():
    i = np.arange(ROWS, dtype=np.float32)[:, None] * 8192
    j = (np.arange(COLS) // 2).astype(np.float32)[None, :]
    return i + j


def written(t):
    return -(t + 1 + np.arange(COLS)).astype(np.float32)


def check():
    cache = initial()
    before = cache.copy()
    p = cache.ctypes.data
    for t in range(8):
        cache[t] = written(t)
    assert cache.ctypes.data == p, "cache[t] = k moved the cache"
    for t in range(8):
        assert np.array_equal(cache[t], written(t)), "cache[t] = k: wrong row"
    assert np.array_equal(cache[8:], before[8:]), "cache[t] = k: another row changed"
    c = cache.copy()
    c[5] = written(99)
    assert c.ctypes.data != cache.ctypes.data
    assert np.array_equal(c[5], written(99)) and np.array_equal(np.delete(c, 5, 0), np.delete(cache, 5, 0))
    assert np.array_equal(cache[5], written(5)), "the copy's step changed the cache"


def time_inplace(window, batches=400):
    """Seconds per step of cache[t] = k: the median over batches of 64 steps
    (wall time, as decode_bench: a batch is short enough to run undisturbed
    on a shared machine most of the time, and the median drops the others)."""
    cache = initial()
    ks = [written(t) for t in range(8)]
    pos = iter(range(10**12))

    def batch():
        for _ in range(64):
            t = next(pos) % window
            cache[t] = ks[t & 7]

    batch()
    times = timeit.repeat(batch, number=1, repeat=batches, timer=time.perf_counter)
    return statistics.median(times) / 64


def time_copy(into=False, repeat=25):
    """Seconds per step of c = cache.copy(); c[t] = k (into: np.copyto into an
    array made once, the copy alone), the median over repetitions, in thread
    CPU time as decode_bench's BM_decode_copy (a step of tens of ms is rarely
    timed undisturbed on a shared machine)."""
    cache = initial()
    k = written(0)
    out = cache.copy()
    pos = iter(range(10**12))

    def step():
        t = next(pos) % ROWS
        c = cache.copy()
        c[t] = k
        return c

    def step_into():
        t = next(pos) % ROWS
        np.copyto(out, cache)
        out[t] = k

    f = step_into if into else step
    f()
    return statistics.median(timeit.repeat(f, number=1, repeat=repeat, timer=time.thread_time))


def bench_table(paths):
    runs = []
    for p in paths:
        rows = {}
        for b in json.load(open(p))["benchmarks"]:
            name = b["name"].split("/min_time")[0]
            if "error_occurred" in b:
                rows[name] = {"error": b.get("error_message", "error")}
                continue
            rows[name] = {k: v for k, v in b.items() if k.startswith(("ns_", "vs_"))}
        runs.append(rows)
    print(f"| decode_bench case | counter | median of {len(runs)} run(s) | range |")
    print("| --- | --- | ---: | --- |")
    for name, first in runs[0].items():
        if "error" in first:
            print(f"| {name} | error: {first['error']} | | |")
            continue
        for c in sorted(first):
            vs = [r[name][c] for r in runs if name in r and c in r[name]]
            fmt = (lambda v: f"{v:.3f}x") if c.startswith("vs_") else (lambda v: f"{v:,.0f} ns")
            print(f"| {name} | {c} | {fmt(statistics.median(vs))} | {fmt(min(vs))} - {fmt(max(vs))} |")


def main():
    check()
    try:
        huge = np.core.multiarray._get_madvise_hugepage()
    except AttributeError:
        huge = "unknown"
    print(f"NumPy {np.__version__}, float32 cache {ROWS} x {COLS} (64 MiB), madvise hugepage: {huge}")
    print("| NumPy step | time per step |")
    print("| --- | ---: |")
    for window in (4096, 8):
        print(f"| cache[t] = k, window {window} | {time_inplace(window) * 1e9:,.0f} ns |")
    print(f"| c = cache.copy(); c[t] = k (CPU time) | {time_copy() * 1e9:,.0f} ns |")
    print(f"| np.copyto(c, cache); c[t] = k, c made once (CPU time) | {time_copy(into=True) * 1e9:,.0f} ns |")
    if len(sys.argv) > 1:
        print()
        bench_table(sys.argv[1:])


if __name__ == "__main__":
    main()
