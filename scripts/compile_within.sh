#!/bin/sh
# Compiler launcher with a time limit: compile_within.sh SECONDS compiler args...
# tests/graph/large_dag.cpp (400 nodes) compiles in about 5 s (clang) and
# 10 s (g++); a change to graph construction once made it exponential (over
# 15 minutes and 6 GB), found only when CI's clang build never ended. With this
# launcher such a regression fails the build within the limit, with a message.
limit=$1
shift
timeout --foreground "$limit" "$@"
rc=$?
if [ "$rc" -eq 124 ]; then
  echo "inplace: compile time: this compile took over ${limit} s (a 400-node graph builds in about 10 s):" \
       "graph construction is no longer linear in the graph's size (time clang++ -c tests/graph/large_dag.cpp)" >&2
fi
exit "$rc"
