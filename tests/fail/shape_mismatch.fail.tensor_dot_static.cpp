// Eigen's product test: `m3 = m1 * m1` with rows != cols is refused (for
// fixed sizes at compile time). On tensors whose static extents show that the
// inner axes differ, ip::dot is a compile error too, as the graph's dot is.
// expect: dot: the operands' static extents are not aligned
#include <inplace/tensors.hpp>

int main() {
  inplace::tensor<float, inplace::extents<2, 3>> m1;
#ifdef INPLACE_SHOULD_FAIL
  auto m3 = inplace::dot(m1, m1);
#else
  auto m3 = inplace::dot(m1, inplace::transpose(m1));
#endif
  (void)m3;
}
