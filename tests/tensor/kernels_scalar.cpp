// The kernel tests once more without xsimd (INPLACE_NO_XSIMD): the scalar paths
// (reduce_sum's lane arrays, softmax's scalar loop, dot's plain loops) against
// the same references and bounds.
#define INPLACE_NO_XSIMD 1
#define INPLACE_KERNELS_NO_BIG 1  // the 16Mi inputs: kernels_reduce.cpp and kernels_native.cpp
#include "kernels_dot.cpp"
#include "kernels_reduce.cpp"
#include "kernels_softmax.cpp"

static_assert(INPLACE_HAS_XSIMD == 0, "this test is built without xsimd");
