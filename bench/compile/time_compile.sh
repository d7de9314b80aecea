#!/bin/sh
# A CMAKE_CXX_COMPILER_LAUNCHER that logs, per compile, wall and CPU seconds and
# peak memory to $INPLACE_TIME_LOG (default: compile_times.log in the current
# directory's build tree), one line: wall user sys peak_kb object.
#   cmake --preset gcc -DCMAKE_CXX_COMPILER_LAUNCHER=$PWD/bench/compile/time_compile.sh
#   python3 bench/compile/suite_times.py build/gcc/compile_times.log
log=${INPLACE_TIME_LOG:-compile_times.log}
obj=?
prev=
for a in "$@"; do
  [ "$prev" = "-o" ] && obj=$a
  prev=$a
done
exec /usr/bin/time -a -o "$log" -f "%e %U %S %M $obj" "$@"
