// ip::slice slices the first axis: a rank-0 tensor has none.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: operand_rank" in the first lines).
// expect: ip::slice needs a view of rank 1
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, 0> s;
  ip::tensor<float> v{1, 2};
  (void)s;
#ifdef INPLACE_SHOULD_FAIL
  auto r = ip::slice<1>(s);
#else
  auto r = ip::slice<1>(v);
#endif
  (void)r;
}
