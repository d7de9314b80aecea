#!/usr/bin/env python3
"""Compile time and peak compiler memory of ip::check + ip::function against N.

  measure.py [--quick] [--sizes 50,100,...] [--kinds chain,dag] [--compilers g++,clang++]
             [--timeout S] [--mem-limit-gb G] [--seed S] [--full-sizes 100,200]
  measure.py --goals [--repeat 5] [--compilers g++] [--suite-log build/gcc/compile_times.log]

--goals measures the compile-time goals of docs/compile-time.md, each the
compile of least CPU time (user + system) of --repeat compiles, which is what
the goal is compared with: a compile is one thread, so on a quiet machine its
wall time is its CPU time, and on a shared one the CPU time is less disturbed
(wall seconds are printed beside it):
<inplace.hpp> and <inplace/graph.hpp> alone (-fsyntax-only), a generated DAG of
200 nodes (-fsyntax-only), bench/compile/example.cpp (one function, explain, one
call; -O2 -c) beside bench/compile/eigen_example.cpp (the same in Eigen), and,
given --suite-log (the log of bench/compile/time_compile.sh), the test suite's
compiler CPU seconds (bench/compile/suite_times.py).

For each kind (chain, dag), compiler and N, generate.py writes one legal graph
of N op nodes; the script runs `<cxx> -std=c++20 -fsyntax-only -I include`
under `/usr/bin/time -f '%e %M'` (wall seconds, peak RSS of the compiler) and,
for the sizes in --full-sizes, a full `-c -O2` build of an object file. One
compile at a time (the machine is shared). A compile that exceeds --timeout
seconds or the address-space limit is reported as such, and larger N of the
same kind/compiler/mode are skipped. The growth exponent is the log-log slope
of wall time between the two largest sizes that compiled. Prints a markdown
table. Run from anywhere; paths are relative to the repository root.
"""

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GENERATE = os.path.join(ROOT, "bench", "compile", "generate.py")


def ensure_time():
    if os.path.exists("/usr/bin/time"):
        return
    print("installing GNU time (apt-get install -y time)", file=sys.stderr)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run(sudo + ["apt-get", "install", "-y", "time"], check=True)


def compile_once(cxx, src, mode, timeout, mem_kb):
    """-> (status, seconds, peak_mb); status is 'ok', 'timeout', 'oom' or 'error'."""
    flags = ["-fsyntax-only"] if mode == "syntax" else ["-O2", "-c", "-o", os.devnull]
    fd, tfile = tempfile.mkstemp(suffix=".time")
    os.close(fd)
    cmd = ["/usr/bin/time", "-o", tfile, "-f", "%e %M", cxx, "-std=c++20", "-I", os.path.join(ROOT, "include")]
    cmd += flags + [src]

    def limit():
        import resource
        if mem_kb:
            resource.setrlimit(resource.RLIMIT_AS, (mem_kb * 1024, mem_kb * 1024))
        os.setsid()

    status = "ok"
    err = ""
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=limit, cwd=ROOT)
        try:
            _, err_b = p.communicate(timeout=timeout)
            err = err_b.decode(errors="replace")[:2000]
            if p.returncode != 0:
                status = "oom" if ("memory" in err or "Killed" in err or "bad_alloc" in err) else "error"
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)   # our own process group only (setsid above)
            p.communicate()
            status = "timeout"
        with open(tfile) as f:
            lines = [l for l in f.read().split("\n") if l.strip()]
        secs, kb = (lines[-1].split() + ["0", "0"])[:2] if lines else ("0", "0")
        try:
            secs, kb = float(secs), int(kb)
        except ValueError:
            secs, kb = float("nan"), 0
    finally:
        os.unlink(tfile)
    if status == "timeout":
        secs = float(timeout)
    if status == "error":
        sys.stderr.write("%s %s failed:\n%s\n" % (cxx, src, err))
    return status, secs, kb / 1024.0


def slope(points):
    """log-log slope between the two largest N that compiled."""
    ok = [(n, t) for n, t in points if t and t > 0]
    if len(ok) < 2:
        return None
    (n1, t1), (n2, t2) = ok[-2], ok[-1]
    return math.log(t2 / t1) / math.log(n2 / n1)


def measure_errors(args):
    """Bytes of the whole diagnostic and of its first 10 lines, and errors printed, per compiler and N."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import check_diagnostic_size as cds
    sizes = [int(s) for s in (args.sizes if args.sizes != "50,100,200,400,500,800" else "20,100,300,1000").split(",")]
    kinds = [k for k in (args.kinds if args.kinds != "chain,dag" else "dag").split(",") if k]
    compilers = [c for c in args.compilers.split(",") if c and shutil.which(c)]
    print("| kind | N | compiler | bytes | bytes in the first 10 lines | errors | checks |")
    print("| --- | ---: | --- | ---: | ---: | ---: | --- |")
    for kind in kinds:
        for n in sizes:
            for cxx in compilers:
                err = cds.measure(cxx, n, args.seed, kind)
                found, head = cds.problems(err)
                print("| %s | %d | %s | %d | %d | %d | %s |" % (kind, n, cxx, len(err), len(head),
                                                                len(re.findall(r"error:", err)),
                                                                "; ".join(found) or "pass"))
                sys.stdout.flush()


GOALS = [  # (what, source or header, mode, goal in seconds or None)
    ("`<inplace.hpp>`", "<inplace.hpp>", "syntax", 0.8),
    ("`<inplace/graph.hpp>`", "<inplace/graph.hpp>", "syntax", 0.4),
    ("`<inplace/tensors.hpp>`", "<inplace/tensors.hpp>", "syntax", None),
    ("DAG of 200 nodes", "dag:200", "syntax", 1.5),
    ("example program (bench/compile/example.cpp)", "bench/compile/example.cpp", "full", 3.5),
    ("the same in Eigen (bench/compile/eigen_example.cpp)", "bench/compile/eigen_example.cpp", "full", None),
]


def compile_min(cxx, src, mode, repeat, extra=()):
    """The compile of least CPU time among `repeat` -> (wall, cpu, peak_mb)."""
    flags = ["-fsyntax-only"] if mode == "syntax" else ["-O2", "-c", "-o", os.devnull]
    best = None
    for _ in range(repeat):
        fd, tfile = tempfile.mkstemp(suffix=".time")
        os.close(fd)
        cmd = ["/usr/bin/time", "-o", tfile, "-f", "%e %U %S %M", cxx, "-std=c++20", "-I", os.path.join(ROOT, "include")]
        cmd += list(extra) + flags + [src]
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
        with open(tfile) as f:
            wall, user, system, kb = f.read().split()[-4:]
        os.unlink(tfile)
        if p.returncode != 0:
            sys.stderr.write(p.stderr.decode(errors="replace")[:2000])
            return None
        r = (float(wall), float(user) + float(system), int(kb) / 1024.0)
        best = r if best is None or r[1] < best[1] else best
    return best


def measure_goals(args):
    ensure_time()
    compilers = [c for c in args.compilers.split(",") if c and shutil.which(c)]
    workdir = tempfile.mkdtemp(prefix="inplace-goals-")
    print("| what | compiler | mode | wall s | CPU s | MB | goal |")
    print("| --- | --- | --- | ---: | ---: | ---: | --- |")
    for what, src, mode, goal in GOALS:
        extra = []
        if src.startswith("<"):
            path = os.path.join(workdir, "header.cpp")
            with open(path, "w") as f:
                f.write("#include %s\n" % src)
        elif src.startswith("dag:"):
            path = os.path.join(workdir, "dag.cpp")
            subprocess.run([sys.executable, GENERATE, "--kind", "dag", "--nodes", src[4:], "--seed", str(args.seed),
                            "--out", path], check=True)
        else:
            path = os.path.join(ROOT, src)
            if "eigen" in src:
                extra = ["-I/usr/include/eigen3"]
        for cxx in compilers:
            r = compile_min(cxx, path, mode, args.repeat, extra)
            if r is None:
                print("| %s | %s | %s | error | | | |" % (what, cxx, mode))
                continue
            # A compile is one thread: on a quiet machine its wall time is its CPU
            # time, which other jobs on a shared machine disturb less.
            verdict = "" if goal is None else ("<= %.1f s: %s" % (goal, "met" if r[1] <= goal else "not met"))
            print("| %s | %s | %s | %.2f | %.2f | %.0f | %s |" % (
                what, cxx, "-fsyntax-only" if mode == "syntax" else "-O2 -c", r[0], r[1], r[2], verdict))
            sys.stdout.flush()
    shutil.rmtree(workdir, ignore_errors=True)
    if args.suite_log:
        print()
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "compile", "suite_times.py"), args.suite_log])
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="smoke run: N = 20, 40, g++ only, no full build")
    p.add_argument("--sizes", default="50,100,200,400,500,800")
    p.add_argument("--full-sizes", default="100,200", help="sizes that also get a full -c -O2 build")
    p.add_argument("--kinds", default="chain,dag")
    p.add_argument("--compilers", default="g++,clang++")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per compile")
    p.add_argument("--mem-limit-gb", type=float, default=6.0, help="address-space limit per compile")
    p.add_argument("--keep", help="directory to keep the generated sources in")
    p.add_argument("--errors", action="store_true",
                   help="instead: the size of the diagnostic for a graph made illegal by two extra destroyers "
                        "(generate.py --illegal), for --sizes (default 20,100,300,1000) and --kinds (default dag)")
    p.add_argument("--goals", action="store_true", help="instead: the goals of docs/compile-time.md (see above)")
    p.add_argument("--repeat", type=int, default=5, help="--goals: compiles per figure (the fastest is kept)")
    p.add_argument("--suite-log", help="--goals: a log of bench/compile/time_compile.sh to summarise")
    args = p.parse_args()
    if args.goals:
        if args.compilers == "g++,clang++":
            args.compilers = "g++"
        return measure_goals(args)
    if args.errors:
        return measure_errors(args)
    if args.quick:
        args.sizes, args.full_sizes, args.compilers = "20,40", "", "g++"

    ensure_time()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    full = {int(s) for s in args.full_sizes.split(",") if s}
    kinds = [k for k in args.kinds.split(",") if k]
    compilers = [c for c in args.compilers.split(",") if c and shutil.which(c)]
    mem_kb = int(args.mem_limit_gb * 1024 * 1024)
    workdir = args.keep or tempfile.mkdtemp(prefix="inplace-compile-bench-")
    os.makedirs(workdir, exist_ok=True)

    def version(c):
        return subprocess.run([c, "--version"], capture_output=True, text=True).stdout.split("\n")[0]

    print("compilers: " + "; ".join(version(c) for c in compilers))
    print("limits: %.0f s and %.1f GiB address space per compile; seed %d\n" %
          (args.timeout, args.mem_limit_gb, args.seed))

    rows = []          # (kind, cxx, mode, n, status, secs, mb)
    for kind in kinds:
        for n in sizes:
            src = os.path.join(workdir, "%s_%d.cpp" % (kind, n))
            subprocess.run([sys.executable, GENERATE, "--kind", kind, "--nodes", str(n), "--seed", str(args.seed),
                            "--out", src], check=True)
        for cxx in compilers:
            for mode in ("syntax", "full"):
                stop = False
                for n in sizes:
                    if mode == "full" and n not in full:
                        continue
                    if stop:
                        rows.append((kind, cxx, mode, n, "skipped", None, None))
                        continue
                    src = os.path.join(workdir, "%s_%d.cpp" % (kind, n))
                    status, secs, mb = compile_once(cxx, src, mode, args.timeout, mem_kb)
                    rows.append((kind, cxx, mode, n, status, secs, mb))
                    print("  %-5s %-8s %-6s N=%-4d %-8s %7.2f s %7.0f MB" % (kind, cxx, mode, n, status, secs, mb),
                          file=sys.stderr, flush=True)
                    if status != "ok":
                        stop = True

    def cell(kind, cxx, mode, n):
        for r in rows:
            if r[:4] == (kind, cxx, mode, n):
                st, s, mb = r[4:]
                if st == "ok":
                    return "%.2f s / %.0f MB" % (s, mb)
                if st == "timeout":
                    return "> %.0f s" % s
                if st == "skipped":
                    return "–"
                return "%s (%.1f s, %.0f MB)" % (st, s, mb)
        return ""

    cols = [(cxx, mode) for cxx in compilers for mode in ("syntax", "full")]
    cols = [c for c in cols if any(r[1:3] == c for r in rows)]
    print("| kind | N | " + " | ".join("%s %s" % (c, "-fsyntax-only" if m == "syntax" else "-c -O2") for c, m in cols) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in cols) + " |")
    for kind in kinds:
        for n in sizes:
            cells = [cell(kind, c, m, n) for c, m in cols]
            if any(cells):
                print("| %s | %d | %s |" % (kind, n, " | ".join(cells)))
    print()
    print("growth exponent (log-log slope of wall time between the two largest N that compiled):")
    for kind in kinds:
        for c, m in cols:
            pts = [(r[3], r[5]) for r in rows if r[0] == kind and r[1:3] == (c, m) and r[4] == "ok"]
            s = slope(pts)
            if s is not None:
                print("  %-5s %-8s %-6s N=%d..%d: %.2f" % (kind, c, m, pts[-2][0], pts[-1][0], s))
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    bad = [r for r in rows if r[4] == "error"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
