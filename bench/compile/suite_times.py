#!/usr/bin/env python3
"""Where the test suite's compile time goes: summarise a bench/compile/time_compile.sh log.

  suite_times.py LOG [--top 25]

LOG lines: wall user sys peak_kb object. Prints the CPU seconds (user + system,
less disturbed than wall time on a shared machine) per group (tests/<area>, the
random graphs, examples, benchmarks, header checks, the rest), the total, and the
slowest compiles. A rebuilt object counts once (its last line).
"""
import argparse
import re


def group(obj):
    m = re.search(r"test_(run)_(random_[a-z]+|dtype_table)_", obj)
    if m:
        return "tests/run/" + m.group(2) + "*"
    m = re.search(r"CMakeFiles/test_([a-z]+)_", obj)
    if m:
        return "tests/" + m.group(1)
    if "inplace_header_selfcontained" in obj:
        return "headers compiled alone"
    if "pch" in obj:
        return "precompiled headers"
    if "example_" in obj:
        return "examples"
    if "bench" in obj or "runtime_bench" in obj or "memory_" in obj:
        return "benchmarks"
    return "other"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("log")
    p.add_argument("--top", type=int, default=25)
    args = p.parse_args()
    last = {}
    for line in open(args.log):
        parts = line.split(None, 4)
        if len(parts) < 5 or not re.match(r"^[0-9.]+$", parts[0]):
            continue
        wall, user, system, kb, obj = parts
        last[obj.strip()] = (float(wall), float(user) + float(system), int(kb) / 1024.0)
    groups = {}
    for obj, (wall, cpu, mb) in last.items():
        g = groups.setdefault(group(obj), [0, 0.0, 0.0])
        g[0] += 1
        g[1] += cpu
        g[2] += wall
    total = sum(v[1] for v in groups.values())
    print("| group | compiles | CPU s | share |")
    print("| --- | ---: | ---: | ---: |")
    for name, (n, cpu, wall) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
        print("| %s | %d | %.0f | %.0f%% |" % (name, n, cpu, 100 * cpu / total if total else 0))
    print("| **total** | %d | **%.0f** (%.1f min; %.1f min on 2 cores) | |" % (len(last), total, total / 60, total / 120))
    print()
    print("slowest compiles (CPU s, peak MB):")
    for obj, (wall, cpu, mb) in sorted(last.items(), key=lambda kv: -kv[1][1])[: args.top]:
        print("  %7.1f  %5.0f  %s" % (cpu, mb, obj))


if __name__ == "__main__":
    main()
