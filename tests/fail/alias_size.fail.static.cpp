// Static extents on both sides: 4x4 floats (64 bytes) cannot hold 9 doubles (72 bytes).
#include <inplace/tensor/alias.hpp>

int main() {
  inplace::tensor<float, inplace::extents<4, 4>> S;
#ifdef INPLACE_SHOULD_FAIL
  auto v = inplace::alias<double, inplace::extents<3, 3>>(S);
#else
  auto v = inplace::alias<double, inplace::extents<2, 4>>(S);
#endif
  (void)v;
}
