// JAX's testMatmul broadcasts batches ((3, 1, 3, 4) @ (5, 4, 1)); batches of
// 2 and 3 do not broadcast. With static extents on tensors, ip::matmul refuses
// them at compile time, as the graph's matmul does.
// expect: matmul: the operands' static extents do not fit
#include <inplace/tensors.hpp>

int main() {
  inplace::tensor<float, inplace::extents<2, 3, 4>> a;
#ifdef INPLACE_SHOULD_FAIL
  inplace::tensor<float, inplace::extents<3, 4, 5>> b;
#else
  inplace::tensor<float, inplace::extents<1, 4, 5>> b;
#endif
  auto r = inplace::matmul(a, b);
  (void)r;
}
