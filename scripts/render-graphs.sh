#!/usr/bin/env bash
# Draws every example's graphs (ip::to_dot, written by `example --dot DIR`) as
# SVG into docs/graphs/, with Graphviz's dot. Run from anywhere; builds the
# examples with the gcc preset first.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v dot > /dev/null || { echo "render-graphs: Graphviz's dot is not installed (apt-get install graphviz)"; exit 1; }
cmake --preset gcc > /dev/null
cmake --build --preset gcc -j2 --target examples > /dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for exe in build/gcc/examples/example_*; do
  "$exe" --dot "$work" > /dev/null
done
mkdir -p docs/graphs
for g in "$work"/*.dot; do
  name=$(basename "$g" .dot)
  dot -Tsvg "$g" -o "docs/graphs/$name.svg"
  echo "docs/graphs/$name.svg"
done
