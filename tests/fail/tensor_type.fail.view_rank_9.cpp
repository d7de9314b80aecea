// A view has rank 0 to 8.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: tensor_type" in the first lines).
// cascade: the class template goes on to declare its members with the bad argument
// expect: tensor_view<T, R>: R must be a rank
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
#ifdef INPLACE_SHOULD_FAIL
  ip::tensor_view<float, 9> v;
#else
  ip::tensor_view<float, 8> v;
#endif
  (void)v;
}
