// The kernel tests once more, built with -march=native by tests/CMakeLists.txt
// (when the compiler takes it): the tile sizes, batch widths and register
// counts of the machine running the suite (AVX-512 on the development machine:
// a 12 x 32 float tile) rather than the baseline x86-64's SSE2 (6 x 8).
#include "kernels_dot.cpp"
#include "kernels_reduce.cpp"
#include "kernels_softmax.cpp"
