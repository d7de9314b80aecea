// softmax runs over the last axis: a rank-0 tensor has none.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: operand_rank" in the first lines).
// expect: softmax: the operand must have rank 1
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, 0> s;
  ip::tensor<float> v{1, 2};
  (void)s;
#ifdef INPLACE_SHOULD_FAIL
  auto r = ip::softmax(s);
#else
  auto r = ip::softmax(v);
#endif
  (void)r;
}
