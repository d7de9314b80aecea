// On tensors, np.concatenate([a, b]) needs operands of one rank: a matrix and
// a vector do not concatenate (NumPy raises at run time; the ranks are types here).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: concat_shapes" in the first lines).
// expect: take operands of one rank
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  const ip::tensor<float, 2> a{{1, 2}, {3, 4}};
  const ip::tensor<float, 1> b{5, 6};
#ifdef INPLACE_SHOULD_FAIL
  (void)ip::concatenate<0>(a, b);
#else
  (void)ip::concatenate<0>(a, ip::expand_dims<0>(b));
#endif
}
