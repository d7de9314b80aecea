// On tensors with static extents: add_inplace(v, M) would grow v (4) to M's (3, 4).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: shape_mismatch" in the first lines).
// expect: the static extents of an in-place op's result
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, ip::extents<4>> v;
  ip::tensor<float, ip::extents<3, 4>> M;
#ifdef INPLACE_SHOULD_FAIL
  ip::add_inplace(v, M);
#else
  ip::add_inplace(M, v);
#endif
}
