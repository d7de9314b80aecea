#!/usr/bin/env bash
# Installs the Debian packages inplace needs, if any is missing.
# Required: cmake, a C++20 compiler, Boost (Hana), Catch2 v2, Google Benchmark.
# Optional peers for bench/: Eigen, xtensor, xsimd, NumPy (for /usr/bin/python3). Graphviz renders
# to_dot pictures; OpenBLAS is the optional BLAS backend. Clang for the second CI build,
# clang's OpenMP runtime (libomp-dev) for the INPLACE_OPENMP test, and its sanitizer runtimes
# (libclang-rt-dev: Debian's clang only recommends them) for the sanitizer build.
set -euo pipefail
pkgs=(cmake make g++ clang libclang-rt-dev libomp-dev libboost-dev catch2 libbenchmark-dev libeigen3-dev libxtensor-dev libxsimd-dev
      graphviz libopenblas-dev python3-numpy)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
